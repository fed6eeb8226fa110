import { Alert, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Workspace } from './useWorkspace';
import { ReplyBox } from '../InvitationsPage';

/** An invited colleague's invitations to this case, each answered beside the case. */
export function MyInvitations({ invitations }: { invitations: NonNullable<Workspace['myInvitations']['data']> }) {
  const { t } = useTranslation();
  return (
    <>
      {invitations.map((inv) => (
        <Card key={inv.id} size="small" style={{ marginTop: 12 }} title={t('diagnosis.invite.fromTitle', { name: inv.inviter_name })} data-testid={`invitation-${inv.id}`}>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{inv.message}</Typography.Paragraph>
          {inv.reply ? (
            <Alert type="success" showIcon message={t('diagnosis.invite.replyLabel')} description={<span style={{ whiteSpace: 'pre-wrap' }}>{inv.reply}</span>} />
          ) : (
            <ReplyBox inv={inv} />
          )}
        </Card>
      ))}
    </>
  );
}
