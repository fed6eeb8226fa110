import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Allocator: cases returned to their hospitals. */
export default function DistributeReturnPage() {
  const { t } = useTranslation();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'hospital_id']);
  return (
    <CaseListScreen
      tableId="distribute.return"
      title={t('case.distributeReturn.title')}
      subtitle={t('case.distributeReturn.subtitle')}
      fixedTab="returned_site"
      columns={['consult_no', 'pathology_number', 'patient_name', 'hospital_name', 'return_reason', 'status', 'center_name', 'created_at']}
      hiddenColumns={['gender', 'age', 'submitted_at']}
      actions={['view']}
      actionsWidth={90}
      searchFields={searchFields}
      emptyText={t('case.return.empty')}
    />
  );
}
