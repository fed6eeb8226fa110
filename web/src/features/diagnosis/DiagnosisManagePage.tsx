import { useTranslation } from 'react-i18next';
import { DiagnosisCaseList } from './CaseList';

/** Expert: the cases assigned to me (and those I review), by stage. */
export default function DiagnosisManagePage() {
  const { t } = useTranslation();
  return (
    <DiagnosisCaseList
      tableId="diagnosis.manage"
      title={t('diagnosis.manage.title')}
      subtitle={t('diagnosis.manage.subtitle')}
      tabs={['pending', 'diagnosing', 'to_review', 'completed', 'timeout', 'soon_timeout']}
    />
  );
}
