import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** Site: every case of the hospital, by stage. */
export default function CaseManagePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'status', 'expedite', 'inspection_date', 'created_at']);
  return (
    <CaseListScreen
      tableId="case.manage"
      title={t('case.manage.title')}
      subtitle={t('case.manage.subtitle')}
      tabs={['all', 'draft', 'to_submit', 'submitted', 'to_review', 'completed', 'recall', 'returned_site', 'timeout']}
      columns={['consult_no', 'pathology_number', 'patient_name', 'gender', 'age', 'status', 'charge_status', 'slide_count', 'center_name', 'expert_name', 'inspection_date', 'created_at']}
      hiddenColumns={['library_name', 'submitted_at', 'timeout_at', 'hospital_name']}
      actions={['view', 'edit', 'charge', 'submit', 'consult_again', 'recall', 'delete']}
      actionsWidth={260}
      batch={['batch_submit', 'batch_recall']}
      searchFields={searchFields}
      toolbar={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/case/register/new')} data-testid="case-register">
          {t('case.register.new')}
        </Button>
      }
    />
  );
}
