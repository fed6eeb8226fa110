import { Avatar, Card, Col, Descriptions, Flex, Row, Space, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuthInfo, useRoleLabel } from '../../lib/appData';
import { ChangePasswordForm } from './ChangePasswordForm';
import { SignatureCard } from './SignatureCard';
import { AlertSettings } from './AlertSettings';
import { AvailabilityCard } from './AvailabilityCard';

export default function AccountPage() {
  const { t } = useTranslation();
  const { data: info } = useAuthInfo();
  const roleLabel = useRoleLabel();
  if (!info) return null;
  const u = info.user;
  const tags = (list: { id: number; name: string }[] | null, color: string) => (list?.length ? list.map((x) => <Tag key={x.id} color={color} bordered={false}>{x.name}</Tag>) : '—');
  return (
    <div style={{ padding: 20 }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('account.title')}
      </Typography.Title>
      <Row gutter={20}>
        <Col xs={24} xl={14}>
          <Card title={t('account.profile')} style={{ height: '100%' }}>
            <Flex gap={20} align="flex-start">
              <Avatar size={72} icon={<UserOutlined />} style={{ background: '#1f6fc5', flex: 'none' }} />
              <Descriptions column={1} size="middle" style={{ flex: 1 }} data-testid="account-profile">
                <Descriptions.Item label={t('user.table.username')}>{u.username}</Descriptions.Item>
                <Descriptions.Item label={t('user.table.name')}>{u.name}</Descriptions.Item>
                <Descriptions.Item label={t('user.table.workNo')}>{u.work_no || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('user.table.phone')}>{u.phone || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('user.table.email')}>{u.email || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('user.table.roles')}>
                  <Space size={[4, 4]} wrap>
                    {(info.roles ?? []).map((r) => <Tag key={r.role} color="blue" bordered={false}>{roleLabel(r.role)}</Tag>)}
                  </Space>
                </Descriptions.Item>
                <Descriptions.Item label={t('user.table.centers')}>{tags(info.centers, 'geekblue')}</Descriptions.Item>
                <Descriptions.Item label={t('user.table.hospitals')}>{tags(info.hospitals, 'cyan')}</Descriptions.Item>
              </Descriptions>
            </Flex>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('account.changePassword')} style={{ height: '100%' }}>
            <Typography.Paragraph type="secondary">{t('account.passwordNote')}</Typography.Paragraph>
            <ChangePasswordForm />
          </Card>
        </Col>
      </Row>
      <div style={{ marginTop: 20 }}>
        <AlertSettings />
      </div>
      {(info.roles ?? []).some((r) => r.role === 'expert' || r.role === 'root') && (
        <>
          <div style={{ marginTop: 20 }}>
            <AvailabilityCard />
          </div>
          <div style={{ marginTop: 20 }}>
            <SignatureCard />
          </div>
        </>
      )}
    </div>
  );
}
