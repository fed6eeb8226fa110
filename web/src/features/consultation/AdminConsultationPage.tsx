import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Admin and center admin: every case with every filter. */
export default function AdminConsultationPage() {
  const { t } = useTranslation();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'hospital_id', 'center_id', 'expert_id', 'status', 'expedite', 'charge_status', 'inspection_date', 'created_at', 'submitted_at']);
  return (
    <CaseListScreen
      tableId="admin.consultation"
      title={t('case.admin.title')}
      subtitle={t('case.admin.subtitle')}
      tabs={['all', 'to_allot', 'pending', 'diagnosing', 'to_review', 'completed', 'timeout']}
      moreTabs={['soon_timeout', 'unsubmitted', 'recall_pending', 'returned_site']}
      columns={['consult_no', 'pathology_number', 'patient_name', 'hospital_name', 'center_name', 'expert_name', 'status', 'charge_status', 'slide_count', 'submitted_at', 'created_at']}
      hiddenColumns={['gender', 'age', 'library_name', 'inspection_date', 'assigned_at', 'timeout_at', 'recall_reason', 'return_reason']}
      actions={['view', 'bind_expert', 'referral', 'recall_agree', 'recall_reject', 'return_to_site']}
      actionsWidth={300}
      inlineActions={2}
      searchFields={searchFields}
    />
  );
}
