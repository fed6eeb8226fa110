// /setting/report/{kind} (add, from the kind's built-in layout) and
// /setting/report/edit/{id}.
import { Button, Result, Skeleton } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '../../components/ui/PageContainer';
import { KINDS, useDefaultLayout, useReportTemplate, type ReportKind } from './api';
import { TemplateForm } from './TemplateForm';

export default function TemplateEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const kind = !id && KINDS.includes(params.kind as ReportKind) ? (params.kind as ReportKind) : null;
  const existing = useReportTemplate(id);
  const fresh = useDefaultLayout(kind);
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/setting/report')}>{t('reportTemplate.back')}</Button>;

  if (!id && !kind) return <Result status="404" title={t('reportTemplate.unknownKind')} extra={back} />;
  const title = id ? t('reportTemplate.editTitle') : t('reportTemplate.newTitle', { kind: t(`reportTemplate.kind.${kind}`) });
  const error = existing.error ?? fresh.error;
  return (
    <PageContainer title={title} subtitle={t('reportTemplate.editSubtitle')} extra={back}>
      {error ? (
        <Result status="warning" title={error.message} />
      ) : id && existing.data ? (
        <TemplateForm key={`edit-${id}`} id={id} initial={{ kind: existing.data.kind, name: existing.data.name, active: existing.data.active, layout: existing.data.layout }} />
      ) : kind && fresh.data ? (
        <TemplateForm key={`new-${kind}`} id={null} initial={{ kind, name: '', active: false, layout: fresh.data }} />
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
    </PageContainer>
  );
}
