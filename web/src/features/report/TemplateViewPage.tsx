// /setting/report/view/{id}: a report template read-only, with its outline.
import { Button, Card, Col, Descriptions, Result, Row, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, CheckOutlined, EditOutlined, MinusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '../../components/ui/PageContainer';
import { formatDateTime } from '../../lib/format';
import { useReportTemplate, type LayoutSection } from './api';
import { Outline } from './Outline';

export default function TemplateViewPage() {
  const { t, i18n } = useTranslation();
  const sep = i18n.language === 'en-US' ? ', ' : '、';
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const q = useReportTemplate(id);
  const x = q.data;
  const yes = (b: boolean | undefined) => (b ? <CheckOutlined style={{ color: '#389e0d' }} /> : <MinusOutlined style={{ color: '#bfbfbf' }} />);
  const extra = (
    <Space>
      <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/setting/report')}>{t('reportTemplate.back')}</Button>
      <Button type="primary" icon={<EditOutlined />} onClick={() => navigate(`/setting/report/edit/${id}`)} disabled={!x}>{t('common.edit')}</Button>
    </Space>
  );
  return (
    <PageContainer title={x ? x.name : t('reportTemplate.viewTitle')} subtitle={t('reportTemplate.viewSubtitle')} extra={extra}>
      {q.error ? (
        <Result status="warning" title={q.error.message} />
      ) : !x ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Row gutter={20}>
          <Col xs={24} xl={16}>
            <Descriptions size="small" bordered column={2} style={{ marginBottom: 16 }} items={[
              { key: 'kind', label: t('reportTemplate.col.kind'), children: <Tag color="blue" bordered={false}>{t(`reportTemplate.kind.${x.kind}`)}</Tag> },
              { key: 'active', label: t('reportTemplate.col.active'), children: x.active ? <Tag color="green">{t('reportTemplate.inUse')}</Tag> : <Tag>{t('reportTemplate.notInUse')}</Tag> },
              { key: 'title_zh', label: t('reportTemplate.form.titleZh'), children: x.layout.title_zh },
              { key: 'title_en', label: t('reportTemplate.form.titleEn'), children: x.layout.title_en },
              { key: 'header', label: t('reportTemplate.form.header'), span: 2, children: (
                <Space size={16} wrap>
                  {(['center', 'hospital', 'report_no', 'verify'] as const).map((k) => <span key={k}>{yes(x.layout.header[k])} {t(`reportTemplate.header.${k}`)}</span>)}
                </Space>
              ) },
              { key: 'updated_at', label: t('reportTemplate.col.updatedAt'), span: 2, children: formatDateTime(x.updated_at) },
            ]} />
            <Card size="small" title={t('reportTemplate.form.sections')}>
              <Table<LayoutSection> size="small" rowKey="key" pagination={false} dataSource={x.layout.sections ?? []}
                rowClassName={(s) => (s.show ? '' : 'report-template-hidden')}
                columns={[
                  { key: 'no', title: '#', width: 48, render: (_, __, i) => i + 1 },
                  { key: 'key', title: t('reportTemplate.col.section'), width: 150, render: (_, s) => <Typography.Text strong={s.show} type={s.show ? undefined : 'secondary'}>{t(`reportTemplate.section.${s.key}`)}</Typography.Text> },
                  { key: 'show', title: t('reportTemplate.form.show'), width: 70, align: 'center', render: (_, s) => yes(s.show) },
                  { key: 'zh', title: t('reportTemplate.form.headingZh'), render: (_, s) => s.heading_zh || '—' },
                  { key: 'en', title: t('reportTemplate.form.headingEn'), render: (_, s) => s.heading_en || '—' },
                  { key: 'fields', title: t('reportTemplate.col.fields'), render: (_, s) => (s.fields ?? []).map((f) => t(`reportTemplate.field.${f}`)).join(sep) || '—' },
                ]} />
            </Card>
          </Col>
          <Col xs={24} xl={8}>
            <Outline layout={x.layout} />
          </Col>
        </Row>
      )}
    </PageContainer>
  );
}
