import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Site: cases the center returned to the hospital, with the reason. */
export default function CaseReturnPage() {
  const { t } = useTranslation();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'created_at']);
  return (
    <CaseListScreen
      tableId="case.return"
      title={t('case.return.title')}
      subtitle={t('case.return.subtitle')}
      fixedTab="returned_site"
      columns={['consult_no', 'pathology_number', 'patient_name', 'status', 'return_reason', 'charge_status', 'created_at']}
      hiddenColumns={['gender', 'age', 'center_name', 'slide_count', 'submitted_at']}
      actions={['view', 'edit', 'consult_again']}
      searchFields={searchFields}
      emptyText={t('case.return.empty')}
    />
  );
}
