import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/ui/PageContainer';
import { CaseDetailView } from './CaseDetail';
import { useCaseActions } from './useCaseActions';

/** /case/detail/:id — the case detail as a page (hidden from the menu). */
export default function CaseDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id) || 0;
  const { run, holder } = useCaseActions({ onView: () => undefined });
  return (
    <PageContainer
      title={t('case.detailTitle')}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
          {t('case.back')}
        </Button>
      }
    >
      <CaseDetailView id={id} onAction={(a, c) => run(a, [c], { onDone: a === 'delete' ? () => navigate('/case/manage') : undefined })} />
      {holder}
    </PageContainer>
  );
}
