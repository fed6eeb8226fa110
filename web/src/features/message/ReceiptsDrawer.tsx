import { Drawer, Table } from 'antd';
import { ToneTag } from '../../entities/message/MessageTags';
import { useTranslation } from 'react-i18next';
import { useReceipts, type Notice, type Receipt } from '../../entities/message/api';
import { formatDateTime } from '../../lib/format';

/** Who received a notice and who has read it. */
export function ReceiptsDrawer({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  const { t } = useTranslation();
  const receipts = useReceipts(notice?.id ?? null);
  return (
    <Drawer title={t('notice.receipts')} open={!!notice} width={560} onClose={onClose} destroyOnHidden data-testid="notice-receipts">
      <Table<Receipt>
        size="small"
        rowKey="user_id"
        loading={receipts.isLoading}
        dataSource={receipts.data ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { key: 'name', title: t('user.table.name'), render: (_, r) => `${r.name} (${r.username})` },
          { key: 'read', title: t('notice.readState'), width: 110, render: (_, r) => (r.read_at ? <ToneTag tone="good">{t('message.read')}</ToneTag> : <ToneTag tone="plain">{t('message.unread')}</ToneTag>) },
          { key: 'read_at', title: t('message.table.readAt'), width: 170, render: (_, r) => (r.read_at ? formatDateTime(r.read_at) : '—') },
        ]}
      />
    </Drawer>
  );
}
