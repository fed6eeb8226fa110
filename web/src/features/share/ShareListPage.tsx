// /share/list — the caller's shared links (spec 1 §2): state, what each
// includes, visits and the last visit; cancel stops a link at once.
import { App, Button, Space, Tag, Tooltip } from 'antd';
import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { useApiError } from '../../components/ui/useApiError';
import { formatDateTime } from '../../lib/format';
import { shareKeys } from '../../entities/case/share';
import { countShares, fetchShares, useCancelShare, type ShareRow } from './api';

const PHASE_COLOR: Record<string, string> = { sharing: 'green', permanent: 'blue', expired: 'default', cancelled: 'red' };
const PHASES = ['sharing', 'permanent', 'expired', 'cancelled'];

export default function ShareListPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const showError = useApiError();
  const cancel = useCancelShare();
  const askCancel = (r: ShareRow) =>
    modal.confirm({
      title: t('share.list.confirmCancel'),
      content: t('share.list.confirmCancelHint'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => cancel.mutateAsync(r.id).then(() => message.success(t('share.list.cancelled')), showError),
    });
  const parts = (r: ShareRow) =>
    [t('share.part.slides'), r.with_report && t('share.part.report'), r.with_attachments && t('share.part.attachments'), r.with_clinical && t('share.part.clinical'), r.with_annotations && t('share.part.annotations')]
      .filter(Boolean)
      .join('、');
  const columns: ListColumn<ShareRow>[] = [
    { key: 'consult_no', title: t('share.list.case'), width: 150, sortable: true, filterable: true },
    { key: 'patient_name', title: t('share.list.patient'), width: 110, sortable: true },
    {
      key: 'phase', title: t('share.list.state'), width: 100,
      render: (p: string) => <Tag color={PHASE_COLOR[p]} data-testid="share-phase">{t(`share.phase.${p}`)}</Tag>,
    },
    {
      key: 'secret', title: t('share.list.access'), width: 110,
      render: (s: boolean) => (s ? <Tag icon={<LockOutlined />}>{t('share.secret')}</Tag> : <Tag icon={<UnlockOutlined />}>{t('share.public')}</Tag>),
    },
    { key: 'parts', title: t('share.dialog.parts'), width: 200, render: (_: unknown, r) => parts(r) },
    {
      key: 'deidentify', title: t('share.list.deidentified'), width: 130,
      render: (d: boolean, r) => (d ? <Tooltip title={t('share.list.neutral')}><Tag color="blue">{r.neutral_no}</Tag></Tooltip> : '—'),
    },
    { key: 'visits', title: t('share.list.visits'), width: 90, sortable: true, align: 'right' },
    { key: 'last_visit_at', title: t('share.list.lastVisit'), width: 170, sortable: true, render: formatDateTime },
    { key: 'expires_at', title: t('share.list.expires'), width: 170, sortable: true, render: (v: string | null) => (v ? formatDateTime(v) : t('share.permanent')) },
    { key: 'created_at', title: t('share.list.created'), width: 170, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 100, fixed: 'right', ellipsis: false,
      render: (_: unknown, r) => (
        <Space size={0}>
          {r.actions?.includes('cancel') && (
            <Button type="link" size="small" danger onClick={() => askCancel(r)} data-testid={`share-cancel-${r.id}`}>{t('share.list.cancel')}</Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('share.list.title')} subtitle={t('share.list.subtitle')}>
      <DataList<ShareRow>
        tableId="share.list"
        queryKey={shareKeys.all}
        fetchList={fetchShares}
        fetchCount={countShares}
        columns={columns}
        tabs={[{ key: 'all', label: t('share.list.all') }, ...PHASES.map((p) => ({ key: p, label: t(`share.phase.${p}`) }))]}
        searchFields={[{ name: 'consult_no', label: t('share.list.case'), type: 'text' }]}
        emptyText={t('share.list.empty')}
      />
    </PageContainer>
  );
}
