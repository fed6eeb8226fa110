import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Allocator and admin: answer the sites' recall requests. */
export default function RecallReviewPage() {
  const { t } = useTranslation();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'hospital_id', 'submitted_at']);
  return (
    <CaseListScreen
      tableId="distribute.recall"
      title={t('case.recallReview.title')}
      subtitle={t('case.recallReview.subtitle')}
      fixedTab="recall_pending"
      columns={['consult_no', 'pathology_number', 'patient_name', 'hospital_name', 'recall_reason', 'status', 'expert_name', 'submitted_at']}
      hiddenColumns={['gender', 'age', 'center_name']}
      actions={['view', 'recall_agree', 'recall_reject', 'recall_ignore']}
      actionsWidth={280}
      inlineActions={3}
      batch={['batch_recall_agree']}
      searchFields={searchFields}
      emptyText={t('case.recallReview.empty')}
    />
  );
}
