import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Allocator: assign submitted cases to experts, refer, return. */
export default function DistributeManagePage() {
  const { t } = useTranslation();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'hospital_id', 'expedite', 'submitted_at']);
  return (
    <CaseListScreen
      tableId="distribute.manage"
      title={t('case.distribute.title')}
      subtitle={t('case.distribute.subtitle')}
      tabs={['to_allot', 'returned_center', 'assigned', 'timeout', 'soon_timeout']}
      columns={['consult_no', 'pathology_number', 'patient_name', 'hospital_name', 'status', 'expert_name', 'submitted_at', 'timeout_at']}
      hiddenColumns={['gender', 'age', 'slide_count', 'center_name', 'library_name', 'assigned_at', 'return_reason']}
      actions={['view', 'bind_expert', 'referral', 'bind_staff', 'return_to_site']}
      actionsWidth={360}
      batch={['batch_bind_expert']}
      searchFields={searchFields}
    />
  );
}
