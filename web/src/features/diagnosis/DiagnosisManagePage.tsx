import { StarOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaseRow } from '../../entities/case/api';
import type { ListColumn } from '../../components/ui/list/types';
import { useAuthInfo } from '../../lib/appData';
import { hasRole } from '../../lib/access';
import { DiagnosisCaseList } from './CaseList';
import { CollectStar } from './CollectStar';

const EXPERT_TABS = ['pending', 'diagnosing', 'to_review', 'completed', 'timeout', 'soon_timeout'];
// A technician follows their cases until the report is out, whatever the expert's stage.
const STAFF_TABS = ['submitted', 'timeout', 'completed', 'all'];

/** Expert: the cases assigned to me (and those I review), by stage. Staff: the cases I am named for. */
export default function DiagnosisManagePage() {
  const { t } = useTranslation();
  const info = useAuthInfo();
  const roles = (info.data?.roles ?? []).map((r) => r.role);
  const staff = !hasRole(roles, 'expert') && hasRole(roles, 'staff');
  const staffExtra = useMemo<ListColumn<CaseRow>[]>(() => [{ key: 'expert_name', title: t('case.field.expert'), width: 100, ellipsis: { showTitle: true } }], [t]);

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
  if (info.isLoading) return null;
  return (
    <DiagnosisCaseList
      key={staff ? 'staff' : 'expert'}
      tableId={staff ? 'diagnosis.manage.staff' : 'diagnosis.manage'}
      title={t('diagnosis.manage.title')}
      subtitle={t(staff ? 'diagnosis.manage.staffSubtitle' : 'diagnosis.manage.subtitle')}
      tabs={staff ? STAFF_TABS : EXPERT_TABS}
      tabLabels={staff ? { submitted: t('diagnosis.manage.tabOpen') } : undefined}
      extraColumns={staff ? staffExtra : extra}
      actionLabel={staff ? t('case.action.view') : undefined}
    />
  );
}
