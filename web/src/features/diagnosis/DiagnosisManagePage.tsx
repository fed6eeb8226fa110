import { StarOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaseRow } from './api';
import type { ListColumn } from '../../components/ui/list/types';
import { DiagnosisCaseList } from './CaseList';
import { CollectStar } from './CollectStar';

/** Expert: the cases assigned to me (and those I review), by stage. */
export default function DiagnosisManagePage() {
  const { t } = useTranslation();
  const extra = useMemo<ListColumn<CaseRow>[]>(
    () => [
      {
        key: 'is_collected',
        title: t('expertActions.favourite'),
        header: <StarOutlined aria-label={t('expertActions.favourite')} title={t('expertActions.favourite')} />,
        width: 56,
        align: 'center' as const,
        render: (x: boolean, r: CaseRow) => <CollectStar id={r.id} collected={x} size="small" />,
      },
    ],
    [t],
  );
  return (
    <DiagnosisCaseList
      tableId="diagnosis.manage"
      title={t('diagnosis.manage.title')}
      subtitle={t('diagnosis.manage.subtitle')}
      tabs={['pending', 'diagnosing', 'to_review', 'completed', 'timeout', 'soon_timeout']}
      extraColumns={extra}
    />
  );
}
