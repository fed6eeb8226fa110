// /dashboard — the expert's day at a glance: counts linking to the filtered
// lists and the cases about to time out.
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Flex, List, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import {
  AuditOutlined,
  ClockCircleOutlined,
  EditOutlined,
  FieldTimeOutlined,
  FileDoneOutlined,
  HourglassOutlined,
  InboxOutlined,
  MailOutlined,
  RollbackOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useAuthInfo } from '../../lib/appData';
import { fetchCases } from '../../entities/case/api';
import { useDashboardCounts, type DashboardCounts } from './api';
import { CaseStatusTag, TimingTag } from '../../entities/case/tags';

interface CardDef {
  key: keyof DashboardCounts;
  icon: React.ReactNode;
  colour: string;
  to: string;
}

const CARDS: CardDef[] = [
  { key: 'pending', icon: <InboxOutlined />, colour: '#1677ff', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22pending%22%7D' },
  { key: 'diagnosing', icon: <EditOutlined />, colour: '#13a8a8', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22diagnosing%22%7D' },
  { key: 'to_review', icon: <AuditOutlined />, colour: '#722ed1', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22to_review%22%7D' },
  { key: 'in_review', icon: <SendOutlined />, colour: '#2f54eb', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22to_review%22%7D' },
  { key: 'invited', icon: <MailOutlined />, colour: '#eb2f96', to: '/diagnosis/invited' },
  { key: 'releasing', icon: <HourglassOutlined />, colour: '#fa8c16', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22completed%22%7D' },
  { key: 'timeout', icon: <ClockCircleOutlined />, colour: '#f5222d', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22timeout%22%7D' },
  { key: 'soon_timeout', icon: <FieldTimeOutlined />, colour: '#faad14', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22soon_timeout%22%7D' },
  { key: 'returned', icon: <RollbackOutlined />, colour: '#8c8c8c', to: '/diagnosis/return' },
  { key: 'published', icon: <FileDoneOutlined />, colour: '#52c41a', to: '/diagnosis/manage?params=%7B%22tab%22%3A%22completed%22%7D' },
];

function useDueCases() {
  return useQuery({
    queryKey: ['consultation', 'list', 'dashboard.due'],
    queryFn: async () => {
      const q = (tab: string) => fetchCases({ page: 1, page_size: 8, sort_by: JSON.stringify({ timeout_at: 'asc' }), params: JSON.stringify({ tab }) });
      const [over, soon] = await Promise.all([q('timeout'), q('soon_timeout')]);
      return [...over.rows, ...soon.rows].slice(0, 8);
    },
  });
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useAuthInfo();
  const counts = useDashboardCounts();
  const due = useDueCases();
  return (
    <div style={{ padding: 20 }} data-testid="dashboard">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }} wrap gap={12}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('diagnosis.dashboard.greeting', { name: info.data?.user.name ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('diagnosis.dashboard.subtitle')}</Typography.Text>
        </div>
        <Button type="primary" onClick={() => navigate('/diagnosis/manage')}>
          {t('diagnosis.dashboard.toList')}
        </Button>
      </Flex>
      <Row gutter={[12, 12]}>
        {CARDS.map((c) => (
          <Col key={c.key} xs={12} md={8} xl={{ flex: '20%' } as never}>
            <Card hoverable size="small" onClick={() => navigate(c.to)} data-testid={`count-${c.key}`} styles={{ body: { padding: 16 } }}>
              <Flex justify="space-between" align="center">
                <Statistic
                  title={t(`diagnosis.count.${c.key}`)}
                  value={counts.data?.[c.key] ?? 0}
                  loading={counts.isLoading}
                  valueStyle={{ color: c.key === 'timeout' && counts.data?.timeout ? c.colour : undefined, fontWeight: 600 }}
                />
                <span style={{ fontSize: 26, color: c.colour, background: `${c.colour}14`, borderRadius: 10, padding: '6px 10px' }}>{c.icon}</span>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
      <Card size="small" title={t('diagnosis.dashboard.due')} style={{ marginTop: 16 }}>
        {due.isLoading ? (
          <Skeleton active />
        ) : !due.data?.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.dashboard.noDue')} />
        ) : (
          <List
            size="small"
            dataSource={due.data}
            renderItem={(r) => (
              <List.Item
                style={{ cursor: 'pointer' }}
                onClick={() => navigate(`/diagnosis/item/${r.id}`)}
                extra={<Typography.Text type="secondary">{t('case.timing.deadline', { time: formatDateTime(r.timeout_at).slice(0, 16) })}</Typography.Text>}
              >
                <Space size={10} wrap>
                  <span className="tp-mono">{r.consult_no}</span>
                  <span>{r.patient_name}</span>
                  <Typography.Text type="secondary">{r.hospital_name}</Typography.Text>
                  <CaseStatusTag label={r.status_label} />
                  <TimingTag timing={r.timing} />
                </Space>
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
