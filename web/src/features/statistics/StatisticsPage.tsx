import { useState } from 'react';
import { Alert, App, Button, Space, Spin } from 'antd';
import { DownloadOutlined, FundProjectionScreenOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useApiError } from '../../components/ui/useApiError';
import { useConfig } from '../../lib/appData';
import { ApiError } from '../../lib/api/errors';
import { exportStats, useStatOptions, useStats, type Screen, type StatQuery } from './api';
import { StatFilters, type Filter } from './StatFilters';
import { StatBody } from './StatBody';
import { shortcutRange, toDay } from './period';

const FILTERS: Record<Exclude<Screen, 'big-screen'>, Filter[]> = {
  consultation: ['center', 'hospital', 'kind', 'expert'],
  bank: ['center', 'hospital', 'library'],
  expert: ['center', 'hospital', 'kind', 'expert'],
  'expert-consultation': ['hospital', 'expert', 'kind'],
  quality: ['center', 'hospital', 'expert'],
  he: ['center', 'hospital'],
  outside: ['center'],
  diagnosis: ['center', 'hospital', 'expert'],
};

/** /statistical/{screen}: one statistics screen (spec 1 §2). */
export function StatisticsPage({ screen }: { screen: Exclude<Screen, 'big-screen'> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const navigate = useNavigate();
  const config = useConfig();
  const [from, to] = shortcutRange('month');
  const [query, setQuery] = useState<StatQuery>({ start: toDay(from), end: toDay(to) });
  const stats = useStats(screen, query);
  const options = useStatOptions();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await exportStats(screen, query, `${t(`statistics.title.${screen}`)}_${query.start}_${query.end}.xlsx`);
      message.success(t('statistics.exported'));
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  const wall = config.data?.big_screen && screen === 'consultation';
  return (
    <PageContainer
      title={t(`statistics.title.${screen}`)}
      subtitle={t(`statistics.subtitle.${screen}`)}
      extra={
        <Space>
          {wall && <Button icon={<FundProjectionScreenOutlined />} onClick={() => navigate('/statistical/big-screen')} data-testid="stat-wall">{t('statistics.wall.open')}</Button>}
          <Button type="primary" icon={<DownloadOutlined />} loading={busy} disabled={!stats.data} onClick={download} data-testid="stat-export">{t('statistics.export')}</Button>
        </Space>
      }
    >
      <StatFilters query={query} filters={FILTERS[screen]} options={options.data} onChange={setQuery} />
      {stats.error && <ErrorLine error={stats.error} />}
      <Spin spinning={stats.isFetching && !!stats.data}>
        {stats.data ? <StatBody stats={stats.data} /> : !stats.error && <Spin style={{ display: 'block', margin: 48 }} />}
      </Spin>
    </PageContainer>
  );
}

function ErrorLine({ error }: { error: Error }) {
  const fields = error instanceof ApiError ? Object.values(error.fieldErrors).flat() : [];
  return <Alert type="error" showIcon message={fields.length ? fields.join('; ') : error.message} style={{ marginBottom: 12 }} />;
}
