// Two tabs of the workspace's case side: earlier cases of the same patient, and
// the colleagues invited to the case with their answers.
import { Empty, List, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useCaseInvitations, useSameCases } from './api';

export function SameCases({ id }: { id: number }) {
  const { t } = useTranslation();
  const same = useSameCases(id);
  if (same.isLoading) return <Spin />;
  if (!same.data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.sameCase.none')} />;
  return (
    <List
      data-testid="same-cases"
      itemLayout="vertical"
      dataSource={same.data}
      renderItem={(c) => (
        <List.Item key={c.id}>
          <Space size={8} wrap>
            <Typography.Text strong className="tp-mono">{c.pathology_number}</Typography.Text>
            <Typography.Text type="secondary">{c.consult_no} · {c.hospital_name} · {formatDateTime(c.submitted_at)}</Typography.Text>
          </Space>
          <div style={{ marginTop: 4, whiteSpace: 'pre-wrap' }}>
            {c.opinion ? c.opinion : <Typography.Text type="secondary">{t('diagnosis.sameCase.noReport')}</Typography.Text>}
          </div>
          {c.opinion && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {c.expert_name} · {formatDateTime(c.published_at)}
            </Typography.Text>
          )}
        </List.Item>
      )}
    />
  );
}

export function Invitations({ id }: { id: number }) {
  const { t } = useTranslation();
  const inv = useCaseInvitations(id);
  if (inv.isLoading) return <Spin />;
  return (
    <List
      size="small"
      dataSource={inv.data ?? []}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.invite.none')} /> }}
      renderItem={(i) => (
        <List.Item>
          <List.Item.Meta
            title={
              <Space size={6} wrap>
                <span>{i.inviter_name} → {i.invitee_name}</span>
                <Tag color={i.reply ? 'success' : 'processing'} bordered={false}>
                  {i.reply ? t('diagnosis.invite.replied') : t('diagnosis.invite.waiting')}
                </Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatDateTime(i.created_at)}
                </Typography.Text>
              </Space>
            }
            description={
              <>
                <div style={{ whiteSpace: 'pre-wrap' }}>{i.message}</div>
                {i.reply && (
                  <div style={{ whiteSpace: 'pre-wrap', marginTop: 4, color: '#1f2937', background: '#f6ffed', padding: '4px 8px', borderRadius: 6 }}>
                    {t('diagnosis.invite.replyLabel')}: {i.reply}
                  </div>
                )}
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}
