// The message thread of a case, shared by the hospital's and the expert's
// screens. It only draws and validates: the feature passes the messages and
// the send and delete calls (with its own query keys).
import { useEffect, useRef, useState } from 'react';
import { App, Button, Empty, Flex, Input, Popconfirm, Spin, Typography } from 'antd';
import { DeleteOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from './useApiError';

export const MESSAGE_MAX = 150;

export interface ThreadMessage {
  id: number;
  content: string;
  user_name: string;
  created_at: string;
  mine: boolean;
}

interface Props {
  /** Changing it clears the box (another case). */
  caseId: number;
  messages: readonly ThreadMessage[] | undefined;
  loading: boolean;
  sending: boolean;
  onSend: (content: string) => Promise<unknown>;
  onDelete: (id: number) => Promise<unknown>;
  height?: number | string;
}

/** Own messages on the right with a delete button; at most 150 characters; Ctrl+Enter sends; scrolls to the newest. */
export function MessageThread({ caseId, messages, loading, sending, onSend, onDelete, height = 360 }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const count = messages?.length ?? 0;
  // Braces: Chromium's scrollIntoView now returns a promise, which React would call as a cleanup.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  useEffect(() => setText(''), [caseId]);

  const send = () => {
    const content = text.trim();
    if (!content) return void message.warning(t('case.message.empty'));
    if ([...content].length > MESSAGE_MAX) return void message.warning(t('case.message.tooLong', { max: MESSAGE_MAX }));
    onSend(content).then(() => setText(''), showError);
  };

  return (
    <Flex vertical gap={12} data-testid="message-thread">
      <div style={{ height, overflowY: 'auto', background: '#f7f9fc', border: '1px solid #e6ebf2', borderRadius: 8, padding: 12 }}>
        {loading ? (
          <Spin style={{ display: 'block', marginTop: 40 }} />
        ) : count === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.message.none')} />
        ) : (
          messages!.map((m) => (
            <Flex key={m.id} justify={m.mine ? 'flex-end' : 'flex-start'} style={{ marginBottom: 10 }} data-testid="message-item">
              <div style={{ maxWidth: '78%' }}>
                <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', textAlign: m.mine ? 'right' : 'left' }}>
                  {m.mine ? t('case.message.me') : m.user_name} · {formatDateTime(m.created_at)}
                </Typography.Text>
                <Flex align="center" gap={4} justify={m.mine ? 'flex-end' : 'flex-start'}>
                  {m.mine && (
                    <Popconfirm title={t('case.message.deleteConfirm')} okText={t('common.delete')} cancelText={t('common.cancel')} onConfirm={() => onDelete(m.id).catch(showError)}>
                      <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('common.delete')} data-testid="message-delete" />
                    </Popconfirm>
                  )}
                  <div
                    style={{
                      background: m.mine ? '#1f6fc5' : '#fff',
                      color: m.mine ? '#fff' : undefined,
                      border: m.mine ? 'none' : '1px solid #e6ebf2',
                      borderRadius: 8,
                      padding: '6px 12px',
                      whiteSpace: 'pre-wrap',
                      wordBreak: 'break-word',
                    }}
                  >
                    {m.content}
                  </div>
                </Flex>
              </div>
            </Flex>
          ))
        )}
        <div ref={end} />
      </div>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={MESSAGE_MAX}
        showCount
        autoSize={{ minRows: 2, maxRows: 4 }}
        placeholder={t('case.message.placeholder')}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            send();
          }
        }}
        aria-label={t('case.message.placeholder')}
        data-testid="message-input"
      />
      <Flex justify="space-between" align="center" style={{ marginTop: 8 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('case.message.hint')}
        </Typography.Text>
        <Button type="primary" icon={<SendOutlined />} onClick={send} loading={sending} data-testid="message-send">
          {t('case.message.send')}
        </Button>
      </Flex>
    </Flex>
  );
}
