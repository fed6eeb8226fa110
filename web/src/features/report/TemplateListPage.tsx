// /setting/report — report templates per report kind (spec 1 §2, admin):
// one in use per kind; add from a kind's built-in layout, view, edit.
import { Button, Dropdown, Space, Tag, Typography } from 'antd';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import { KINDS, countReportTemplates, fetchReportTemplates, reportTemplateKeys, type ReportTemplate } from './api';
import { printed } from './layout';

const KIND_COLOR: Record<string, string> = { routine: 'blue', frozen: 'cyan', cell: 'purple' };

export default function TemplateListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kindLabel = (k: string) => t(`reportTemplate.kind.${k}`);
  const columns: ListColumn<ReportTemplate>[] = [
    { key: 'id', title: t('reportTemplate.col.id'), width: 70, sortable: true, filterable: true },
    {
      key: 'name', title: t('reportTemplate.col.name'), width: 240, sortable: true, filterable: true,
      render: (v: string, x) => <Typography.Link onClick={() => navigate(`/setting/report/view/${x.id}`)}>{v}</Typography.Link>,
    },
    {
      key: 'kind', title: t('reportTemplate.col.kind'), width: 130, sortable: true, filterable: true,
      render: (k: string) => <Tag color={KIND_COLOR[k]} bordered={false}>{kindLabel(k)}</Tag>,
    },
    {
      key: 'active', title: t('reportTemplate.col.active'), width: 110, sortable: true, filterable: true,
      render: (a: boolean) => (a ? <Tag color="green">{t('reportTemplate.inUse')}</Tag> : <Tag>{t('reportTemplate.notInUse')}</Tag>),
    },
    {
      key: 'title', dataIndex: ['layout', 'title_zh'], title: t('reportTemplate.col.title'), width: 220,
      render: (_: unknown, x) => (x.layout.title_zh ? `${x.layout.title_zh} / ${x.layout.title_en}` : '—'),
    },
    {
      key: 'sections', dataIndex: 'layout', title: t('reportTemplate.col.sections'), width: 380,
      render: (_: unknown, x) => printed(x.layout, 'zh').map((s) => t(`reportTemplate.section.${s.key}`)).join(' → '),
    },
    { key: 'updated_at', title: t('reportTemplate.col.updatedAt'), width: 170, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 140, fixed: 'right', ellipsis: false,
      render: (_: unknown, x) => (
        <Space size={0} data-testid={`report-template-actions-${x.id}`}>
          <Button type="link" size="small" onClick={() => navigate(`/setting/report/view/${x.id}`)}>{t('common.view')}</Button>
          <Button type="link" size="small" onClick={() => navigate(`/setting/report/edit/${x.id}`)}>{t('common.edit')}</Button>
        </Space>
      ),
    },
  ];
  const add = (
    <Dropdown menu={{ items: KINDS.map((k) => ({ key: k, label: kindLabel(k) })), onClick: ({ key }) => navigate(`/setting/report/${key}`) }}>
      <Button type="primary" icon={<PlusOutlined />} data-testid="report-template-new">
        <Space size={4}>{t('reportTemplate.new')}<DownOutlined /></Space>
      </Button>
    </Dropdown>
  );
  return (
    <PageContainer title={t('reportTemplate.title')} subtitle={t('reportTemplate.subtitle')}>
      <DataList<ReportTemplate>
        tableId="report.template"
        queryKey={reportTemplateKeys.all}
        fetchList={fetchReportTemplates}
        fetchCount={countReportTemplates}
        columns={columns}
        tabs={[{ key: 'all', label: t('reportTemplate.tab.all') }, ...KINDS.map((k) => ({ key: k, label: kindLabel(k) }))]}
        searchFields={[
          { name: 'name', label: t('reportTemplate.col.name'), type: 'text' },
          { name: 'active', label: t('reportTemplate.col.active'), type: 'select', options: [{ value: 1, label: t('reportTemplate.inUse') }, { value: 0, label: t('reportTemplate.notInUse') }] },
        ]}
        toolbar={add}
        emptyText={t('reportTemplate.empty')}
      />
    </PageContainer>
  );
}
