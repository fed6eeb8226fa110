import { useState } from 'react';
import { App, Button, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { useApiError } from '../../components/ui/useApiError';
import { fetchNotices, messageKeys, useWithdrawNotice, type Notice } from '../../entities/message/api';
import { LevelTag, ToneTag } from '../../entities/message/MessageTags';
import { formatDateTime } from '../../lib/format';
import { NoticeDrawer } from './NoticeDrawer';
import { ReceiptsDrawer } from './ReceiptsDrawer';

/** /admin/message-manage — administrators write notices, see who read them, withdraw them. */
export default function NoticeManagePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<Notice | null>(null);
  const withdraw = useWithdrawNotice();
  const showError = useApiError();
  const confirmWithdraw = (n: Notice) =>
    modal.confirm({ title: t('notice.withdrawConfirm'), okText: t('common.ok'), cancelText: t('common.cancel'), onOk: () => withdraw.mutateAsync(n.id).catch(showError) });
  const columns: ListColumn<Notice>[] = [
    { key: 'content', title: t('notice.content'), width: 380, render: (c: string) => <Typography.Text ellipsis={{ tooltip: c }}>{c}</Typography.Text> },
    { key: 'kind', title: t('notice.kind'), width: 110, filterable: true, render: (_: string, n) => (n.kind === 'urgent' ? <ToneTag tone="urgent">{n.kind_text}</ToneTag> : n.kind_text) },
    { key: 'level', title: t('notice.level'), width: 120, filterable: true, render: (_: string, n) => <LevelTag level={n.level} text={n.level_text} /> },
    { key: 'target', title: t('notice.target'), width: 120, render: (_: string, n) => n.target_text },
    { key: 'read_count', title: t('notice.readCount'), width: 110, render: (_: number, n) => `${n.read_count} / ${n.recipients}` },
    { key: 'author_name', title: t('notice.author'), width: 120 },
    { key: 'created_at', title: t('notice.createdAt'), width: 170, sortable: true, render: formatDateTime },
    { key: 'withdrawn_at', title: t('notice.state'), width: 100, render: (w: string | null) => (w ? <ToneTag tone="plain">{t('notice.withdrawn')}</ToneTag> : <ToneTag tone="good">{t('notice.active')}</ToneTag>) },
    {
      key: 'actions', title: t('common.actions'), width: 170, fixed: 'right', ellipsis: false,
      render: (_: unknown, n) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(n)} data-testid={`notice-receipts-${n.id}`}>{t('notice.receipts')}</Button>
          {!n.withdrawn_at && <Button type="link" size="small" danger onClick={() => confirmWithdraw(n)} data-testid={`notice-withdraw-${n.id}`}>{t('notice.withdraw')}</Button>}
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('notice.title')} subtitle={t('notice.subtitle')}>
      <DataList<Notice>
        tableId="notice.list"
        queryKey={messageKeys.notices}
        fetchList={fetchNotices}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        tabs={['all', 'active', 'withdrawn'].map((k) => ({ key: k, label: t(`notice.tabs.${k}`) }))}
        searchPlaceholder={t('notice.search')}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="notice-new">{t('notice.new')}</Button>}
        emptyText={t('notice.empty')}
      />
      <NoticeDrawer open={creating} onClose={() => setCreating(false)} />
      <ReceiptsDrawer notice={viewing} onClose={() => setViewing(null)} />
    </PageContainer>
  );
}
