import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaseRow } from '../../entities/case/api';
import type { ListColumn } from '../../components/ui/list/types';
import { DiagnosisCaseList } from './CaseList';
import { CollectStar } from './CollectStar';

/** Expert: my favourite cases (spec 1 §2 /diagnosis/collect), whatever their stage. */
export default function CollectPage() {
  const { t } = useTranslation();
  const extra = useMemo<ListColumn<CaseRow>[]>(
    () => [{ key: 'is_collected', title: t('expertActions.favourite'), width: 70, align: 'center' as const, render: (x: boolean, r: CaseRow) => <CollectStar id={r.id} collected={x} size="small" /> }],
    [t],
  );
  return (
    <DiagnosisCaseList
      tableId="diagnosis.collect"
      title={t('expertActions.collectTitle')}
      subtitle={t('expertActions.collectSubtitle')}
      fixedTab="collected"
      extraColumns={extra}
      emptyText={t('expertActions.collectEmpty')}
    />
  );
}
