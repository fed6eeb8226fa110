import { Button, Col, Flex, Result, Row, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../lib/appData';
import { useStats } from './api';
import { formatValue } from './format';
import { EChart } from './EChart';
import { chartOption } from './chartOption';
import { shortcutRange, toDay } from './period';

const REFRESH_MS = 60_000;

/** /statistical/big-screen: today's numbers on a dark wall, refreshed every minute (system config big_screen). */
export default function BigScreenPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const config = useConfig();
  const [today] = shortcutRange('today');
  const on = !!config.data?.big_screen;
  const stats = useStats('big-screen', { start: toDay(today), end: toDay(today) }, on ? REFRESH_MS : undefined);
  if (config.data && !on) return <Result status="info" title={t('statistics.wall.off')} extra={<Button onClick={() => navigate(-1)}>{t('statistics.wall.back')}</Button>} />;
  const d = stats.data;
  return (
    <main style={{ minHeight: '100vh', background: '#0b1d33', color: '#e6f0ff', padding: 32 }} data-testid="big-screen">
      <Flex justify="space-between" align="baseline">
        <Typography.Title level={2} style={{ color: '#e6f0ff', margin: 0 }}>{t('statistics.wall.title')}</Typography.Title>
        <Flex gap={16} align="center">
          <Typography.Text style={{ color: '#9fb3c8' }}>{t('statistics.wall.refresh', { day: toDay(today) })}</Typography.Text>
          <Button ghost onClick={() => navigate(-1)}>{t('statistics.wall.back')}</Button>
        </Flex>
      </Flex>
      <Row gutter={[24, 24]} style={{ marginTop: 24 }}>
        {d?.cards?.map((c) => (
          <Col key={c.key} xs={12} lg={6} xxl={4}>
            <div style={{ background: '#12304f', borderRadius: 8, padding: 20 }}>
              <div style={{ color: '#9fb3c8', fontSize: 16 }}>{c.label}</div>
              <div style={{ fontSize: 40, fontWeight: 600 }}>{formatValue(c.value, c.unit, t, i18n.language)}</div>
            </div>
          </Col>
        ))}
      </Row>
      {d?.charts?.map((c) => (
        <div key={c.key} style={{ background: '#fff', borderRadius: 8, marginTop: 24, padding: 12 }}>
          <Typography.Title level={4} style={{ marginTop: 0 }}>{c.title}</Typography.Title>
          <EChart option={chartOption(c, t('statistics.noData'))} label={c.title} locale={i18n.language} height={360} />
        </div>
      ))}
    </main>
  );
}
