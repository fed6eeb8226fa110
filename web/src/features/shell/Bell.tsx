import { Badge, Button, Empty, Flex, List, Popover, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useBell, useMarkAllRead, useMarkRead, type Notification } from '../../entities/message/api';
import { LevelTag } from '../../entities/message/MessageTags';
import { formatDateTime } from '../../lib/format';

/** The header's bell: the unread count and the newest unread notifications. */
export function Bell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const bell = useBell();
  const read = useMarkRead();
  const readAll = useMarkAllRead();
  const unread = bell.data?.unread ?? 0;
  const go = (n: Notification) => {
    setOpen(false);
    read.mutate([n.id]);
    if (n.link) navigate(n.link);
  };
  const content = (
    <div style={{ width: 380 }} data-testid="bell-panel">
      <List<Notification>
        size="small"
        dataSource={bell.data?.latest ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('message.bell.empty')} /> }}
        renderItem={(n) => (
          <List.Item key={n.id} onClick={() => go(n)} style={{ cursor: 'pointer', paddingInline: 4 }} data-testid={`bell-item-${n.id}`}>
            <Flex vertical gap={2} style={{ width: '100%' }}>
              <Typography.Text>{n.title}</Typography.Text>
              <Flex justify="space-between" align="center">
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {n.kind_text} · {formatDateTime(n.created_at).slice(5, 16)}
                </Typography.Text>
                {n.level !== 'normal' && <LevelTag level={n.level} text={n.level_text} />}
              </Flex>
            </Flex>
          </List.Item>
        )}
      />
      <Flex justify="space-between" style={{ borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
        <Button type="link" size="small" disabled={!unread} onClick={() => readAll.mutate()}>
          {t('message.readAll')}
        </Button>
        <Button type="link" size="small" onClick={() => { setOpen(false); navigate('/message/list'); }}>
          {t('message.bell.all')}
        </Button>
      </Flex>
    </div>
  );
  return (
    <Popover content={content} title={t('message.bell.title')} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
      <Button type="text" aria-label={t('message.bell.label', { count: unread })} data-testid="bell">
        <Badge count={unread} size="small" overflowCount={99} data-testid="bell-count">
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
