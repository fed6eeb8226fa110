import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Site: recall requests waiting for the center and cases given back. */
export default function CaseRecallPage() {
  const { t } = useTranslation();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'created_at']);
  return (
    <CaseListScreen
      tableId="case.recall"
      title={t('case.recall.title')}
      subtitle={t('case.recall.subtitle')}
      tabs={['recall', 'recall_pending', 'recalled']}
      columns={['consult_no', 'pathology_number', 'patient_name', 'status', 'recall_reason', 'expert_name', 'submitted_at']}
      hiddenColumns={['gender', 'age', 'center_name', 'created_at']}
      actions={['view', 'edit', 'consult_again']}
      searchFields={searchFields}
      emptyText={t('case.recall.empty')}
    />
  );
}
