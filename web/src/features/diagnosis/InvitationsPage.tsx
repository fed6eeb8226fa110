// /diagnosis/invited (invitations to me, answered inline) and /diagnosis/invite
// (invitations I sent, with the replies).
import { useState } from 'react';
import { App, Button, Flex, Input, Segmented, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useApiError } from '../../components/ui/useApiError';
import { formatDateTime } from '../../lib/format';
import { useInvitations, useReply, type Invitation } from './api';

export function ReplyBox({ inv }: { inv: Invitation }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const reply = useReply();
  const [text, setText] = useState('');
  // mutateAsync, not mutate(…, { onSuccess }): the answered row leaves the "to reply"
  // list when the lists refresh, and per-call callbacks of an unmounted row never run.
  const send = async () => {
    if (!text.trim()) return void message.warning(t('diagnosis.invite.replyEmpty'));
    try {
      await reply.mutateAsync({ caseId: inv.consult_id, inviteId: inv.id, reply: text.trim() });
      void message.success(t('diagnosis.invite.replySent'));
    } catch (e) {
      showError(e);
    }
  };
  return (
    <Flex gap={8} align="flex-start">
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: 1, maxRows: 4 }}
        maxLength={500}
        placeholder={t('diagnosis.invite.replyPlaceholder')}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
        }}
        data-testid={`reply-${inv.id}`}
      />
      <Button type="primary" loading={reply.isPending} onClick={() => void send()} data-testid={`reply-send-${inv.id}`}>
        {t('diagnosis.invite.reply')}
      </Button>
    </Flex>
  );
}

function InvitationTable({ sent }: { sent: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useInvitations(sent);
  const [filter, setFilter] = useState<'all' | 'open' | 'replied'>(sent ? 'all' : 'open');
  const rows = (list.data ?? []).filter((i) => (filter === 'all' ? true : filter === 'open' ? !i.reply : !!i.reply));
  return (
    <>
      <Segmented
        style={{ marginBottom: 12 }}
        value={filter}
        onChange={(v) => setFilter(v as typeof filter)}
        options={[
          { value: 'open', label: t('diagnosis.invite.waiting') },
          { value: 'replied', label: t('diagnosis.invite.replied') },
          { value: 'all', label: t('case.tab.all') },
        ]}
      />
      <Table<Invitation>
        size="middle"
        rowKey="id"
        loading={list.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('diagnosis.invite.none') }}
        columns={[
          {
            key: 'case',
            title: t('diagnosis.invite.case'),
            width: 200,
            render: (_, i) => (
              <div>
                <Button type="link" size="small" style={{ padding: 0 }} className="tp-mono" onClick={() => navigate(`/diagnosis/item/${i.consult_id}`)}>
                  {i.consult_no}
                </Button>
                <div>{i.patient_name}</div>
              </div>
            ),
          },
          { key: 'who', title: sent ? t('diagnosis.invite.invitee') : t('diagnosis.invite.inviter'), width: 120, render: (_, i) => (sent ? i.invitee_name : i.inviter_name) },
          { key: 'message', title: t('diagnosis.field.inviteMessage'), render: (_, i) => <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{i.message}</Typography.Paragraph> },
          {
            key: 'reply',
            title: t('diagnosis.invite.replyLabel'),
            width: 380,
            render: (_, i) =>
              i.reply ? (
                <div>
                  <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{i.reply}</Typography.Paragraph>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(i.replied_at)}
                  </Typography.Text>
                </div>
              ) : sent ? (
                <Tag color="processing" bordered={false}>
                  {t('diagnosis.invite.waiting')}
                </Tag>
              ) : (
                <ReplyBox inv={i} />
              ),
          },
          { key: 'created_at', title: t('diagnosis.invite.sentAt'), width: 170, render: (_, i) => formatDateTime(i.created_at) },
        ]}
      />
    </>
  );
}

export function InvitedPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t('diagnosis.invited.title')} subtitle={t('diagnosis.invited.subtitle')}>
      <InvitationTable sent={false} />
    </PageContainer>
  );
}

export function InviteSentPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t('diagnosis.inviteSent.title')} subtitle={t('diagnosis.inviteSent.subtitle')}>
      <InvitationTable sent />
    </PageContainer>
  );
}

export default InvitedPage;
