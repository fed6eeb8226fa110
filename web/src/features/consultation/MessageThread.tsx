import { useEffect, useRef, useState } from 'react';
import { App, Button, Empty, Flex, Input, Popconfirm, Spin, Typography } from 'antd';
import { DeleteOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import { useCaseMessages, useDeleteMessage, usePostMessage } from './api';

export const MESSAGE_MAX = 150;

/** The message thread of a case: own messages on the right, at most 150 characters, Ctrl+Enter sends. */
export function MessageThread({ caseId, height = 420 }: { caseId: number; height?: number | string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const msgs = useCaseMessages(caseId);
  const post = usePostMessage();
  const del = useDeleteMessage();
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const count = msgs.data?.length ?? 0;
  // Braces: Chromium's scrollIntoView now returns a promise, which React would call as a cleanup.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  useEffect(() => setText(''), [caseId]);

  const send = () => {
    const content = text.trim();
    if (!content) return void message.warning(t('case.message.empty'));
    if ([...content].length > MESSAGE_MAX) return void message.warning(t('case.message.tooLong', { max: MESSAGE_MAX }));
    post.mutate({ id: caseId, content }, { onSuccess: () => setText(''), onError: (e) => showError(e) });
  };

  return (
    <Flex vertical gap={12} data-testid="message-thread">
      <div style={{ height, overflowY: 'auto', background: '#f7f9fc', border: '1px solid #e6ebf2', borderRadius: 8, padding: 12 }}>
        {msgs.isLoading ? (
          <Spin style={{ display: 'block', marginTop: 40 }} />
        ) : count === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.message.none')} />
        ) : (
          msgs.data!.map((m) => (
            <Flex key={m.id} justify={m.mine ? 'flex-end' : 'flex-start'} style={{ marginBottom: 10 }}>
              <div style={{ maxWidth: '78%' }}>
                <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', textAlign: m.mine ? 'right' : 'left' }}>
                  {m.mine ? t('case.message.me') : m.user_name} · {formatDateTime(m.created_at)}
                </Typography.Text>
                <Flex align="center" gap={4} justify={m.mine ? 'flex-end' : 'flex-start'}>
                  {m.mine && (
                    <Popconfirm title={t('case.message.deleteConfirm')} okText={t('common.delete')} cancelText={t('common.cancel')} onConfirm={() => del.mutateAsync(m.id).catch(showError)}>
                      <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('common.delete')} />
                    </Popconfirm>
                  )}
                  <div style={{ background: m.mine ? '#1f6fc5' : '#fff', color: m.mine ? '#fff' : undefined, border: m.mine ? 'none' : '1px solid #e6ebf2', borderRadius: 8, padding: '6px 12px', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
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
        <Button type="primary" icon={<SendOutlined />} onClick={send} loading={post.isPending} data-testid="message-send">
          {t('case.message.send')}
        </Button>
      </Flex>
    </Flex>
  );
}
