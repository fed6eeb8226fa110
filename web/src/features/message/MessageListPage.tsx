import { Badge, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { countMessages, fetchMessages, messageKeys, useMarkAllRead, useMarkRead, type Notification } from '../../entities/message/api';
import { LevelTag } from '../../entities/message/MessageTags';
import { formatDateTime } from '../../lib/format';

const KINDS = ['case', 'timeout', 'notice'];
const LEVELS = ['normal', 'important', 'very_important'];

/** /message/list — the user's notifications, unread first (spec 1 §2). */
export default function MessageListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const read = useMarkRead();
  const readAll = useMarkAllRead();
  const open = (n: Notification) => {
    if (!n.read_at) read.mutate([n.id]);
    if (n.link && n.link !== '/message/list') navigate(n.link);
  };
  const columns: ListColumn<Notification>[] = [
    {
      key: 'title', title: t('message.table.title'), width: 520, ellipsis: false,
      render: (_: string, n) => (
        <Space align="start">
          <span role="img" aria-label={n.read_at ? t('message.read') : t('message.unread')}>
            <Badge status={n.read_at ? 'default' : 'processing'} />
          </span>
          <Typography.Text strong={!n.read_at} style={{ whiteSpace: 'pre-wrap' }} data-testid={`message-title-${n.id}`}>{n.title}</Typography.Text>
        </Space>
      ),
    },
    { key: 'kind', title: t('message.table.kind'), width: 100, filterable: true, render: (_: string, n) => n.kind_text },
    { key: 'level', title: t('message.table.level'), width: 120, sortable: true, filterable: true, render: (_: string, n) => <LevelTag level={n.level} text={n.level_text} /> },
    { key: 'created_at', title: t('message.table.createdAt'), width: 170, sortable: true, render: formatDateTime },
    { key: 'read_at', title: t('message.table.readAt'), width: 170, sortable: true, defaultHidden: true, render: (v: string | null) => (v ? formatDateTime(v) : '—') },
    {
      key: 'actions', title: t('common.actions'), width: 170, fixed: 'right', ellipsis: false,
      render: (_: unknown, n) => (
        <Space size={0}>
          {n.link && n.link !== '/message/list' && <Button type="link" size="small" onClick={() => open(n)} data-testid={`message-open-${n.id}`}>{t('message.open')}</Button>}
          {!n.read_at && <Button type="link" size="small" onClick={() => read.mutate([n.id])} data-testid={`message-read-${n.id}`}>{t('message.markRead')}</Button>}
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('message.title')} subtitle={t('message.subtitle')}>
      <DataList<Notification>
        tableId="message.list"
        queryKey={messageKeys.list}
        fetchList={fetchMessages}
        fetchCount={countMessages}
        columns={columns}
        tabs={['all', 'unread', 'read'].map((k) => ({ key: k, label: t(`message.tabs.${k}`) }))}
        searchFields={[
          { name: 'kind', label: t('message.table.kind'), type: 'select', options: KINDS.map((k) => ({ value: k, label: t(`message.kind.${k}`) })) },
          { name: 'level', label: t('message.table.level'), type: 'select', options: LEVELS.map((l) => ({ value: l, label: t(`message.level.${l}`) })) },
          { name: 'created_at', label: t('message.table.createdAt'), type: 'dateRange' },
        ]}
        toolbar={<Button onClick={() => readAll.mutate()} loading={readAll.isPending} data-testid="message-read-all">{t('message.readAll')}</Button>}
        emptyText={t('message.empty')}
        tableProps={{ onRow: (n) => ({ onDoubleClick: () => open(n) }) }}
      />
    </PageContainer>
  );
}
