import { App, Button } from 'antd';
import { FilePdfOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';
import { openCaseReport } from './api';

/**
 * /case/clinical — a clinician's own consultation requests in their hospital
 * (spec 1 §2 Other roles): status, messages and, once published, the report
 * and its PDF. A request is theirs to change until the site sends it.
 */
export default function ClinicalCasesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const searchFields = useCaseSearchFields(['patient_name', 'consult_no', 'status', 'created_at']);
  return (
    <CaseListScreen
      tableId="case.clinical"
      title={t('case.clinical.title')}
      subtitle={t('case.clinical.subtitle')}
      tabs={['all', 'unsubmitted', 'submitted', 'completed']}
      columns={['consult_no', 'patient_name', 'gender', 'age', 'status', 'center_name', 'expert_name', 'created_at']}
      hiddenColumns={['submitted_at', 'hospital_name']}
      actions={['view', 'edit', 'delete']}
      actionsWidth={260}
      searchFields={searchFields}
      rowExtra={(r) =>
        r.status_label?.key === 'published' || r.status_label?.key === 'filed' ? (
          <Button type="link" size="small" icon={<FilePdfOutlined />} onClick={() => openCaseReport(r.id).catch((e: Error) => void message.error(e.message))} data-testid={`case-report-${r.id}`}>
            {t('case.clinical.report')}
          </Button>
        ) : null
      }
      toolbar={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/case/register/new')} data-testid="case-register">
          {t('case.clinical.new')}
        </Button>
      }
    />
  );
}
