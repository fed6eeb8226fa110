import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import type { CaseRow } from '../../entities/case/api';
import type { ListColumn } from '../../components/ui/list/types';
import { DiagnosisCaseList } from './CaseList';

/** Expert: the cases I returned to the center, with the reason. */
export default function DiagnosisReturnPage() {
  const { t } = useTranslation();
  const extra = useMemo<ListColumn<CaseRow>[]>(
    () => [
      {
        key: 'return_reason',
        title: t('diagnosis.field.returnReason'),
        width: 260,
        render: (x: string) => (x ? <Typography.Text ellipsis={{ tooltip: x }}>{x}</Typography.Text> : '—'),
      },
    ],
    [t],
  );
  return (
    <DiagnosisCaseList
      tableId="diagnosis.return"
      title={t('diagnosis.return.title')}
      subtitle={t('diagnosis.return.subtitle')}
      fixedTab="returned_center"
      extraColumns={extra}
    />
  );
}
