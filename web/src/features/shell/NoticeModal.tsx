import { Button, Modal, Space, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAcknowledge, usePendingNotices } from '../../entities/message/api';
import { formatDateTime } from '../../lib/format';

/** A very important notice not yet acknowledged, one at a time, until the user acknowledges it. */
export function NoticeModal() {
  const { t } = useTranslation();
  const pending = usePendingNotices();
  const ack = useAcknowledge();
  const n = pending.data?.[0];
  if (!n) return null;
  return (
    <Modal
      open
      closable={false}
      maskClosable={false}
      keyboard={false}
      title={
        <Space>
          <NotificationOutlined style={{ color: '#cf1322' }} />
          {t('message.notice.veryImportant')}
        </Space>
      }
      footer={
        <Button type="primary" loading={ack.isPending} onClick={() => ack.mutate(n.id)} data-testid="notice-ack">
          {t('message.notice.ack')}
        </Button>
      }
      data-testid="notice-modal"
    >
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', fontSize: 15 }} data-testid="notice-content">
        {n.title}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{formatDateTime(n.created_at)}</Typography.Text>
    </Modal>
  );
}
