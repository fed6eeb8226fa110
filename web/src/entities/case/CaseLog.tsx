import { Empty, Space, Spin, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useCaseLog, type LogEntry } from './api';

/** The case's history as a timeline; compact (the expert's workspace): newest first, in small print. */
export function CaseLog({ id, compact = false }: { id: number; compact?: boolean }) {
  const { t } = useTranslation();
  const log = useCaseLog(id);
  if (log.isLoading) return <Spin />;
  if (!log.data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.log.none')} />;
  const entries = compact ? [...log.data].reverse() : log.data;
  const Entry = compact ? CompactEntry : FullEntry;
  return <Timeline style={compact ? undefined : { paddingTop: 8 }} items={entries.map((l) => ({ key: l.id, children: <Entry l={l} /> }))} />;
}

function FullEntry({ l }: { l: LogEntry }) {
  const { t } = useTranslation();
  return (
    <div>
      <Space size={8} wrap>
        <Typography.Text strong>{l.action_text || l.action}</Typography.Text>
        {l.from_text !== l.to_text && (
          <Typography.Text type="secondary">
            {l.from_text || '—'} → {l.to_text || '—'}
          </Typography.Text>
        )}
      </Space>
      <div>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {formatDateTime(l.created_at)} · {l.user_name || l.username || t('case.log.system')}
        </Typography.Text>
      </div>
      {l.detail && <Typography.Paragraph style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap' }}>{l.detail}</Typography.Paragraph>}
    </div>
  );
}

function CompactEntry({ l }: { l: LogEntry }) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Text strong>{l.action_text || l.action}</Typography.Text>{' '}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {l.user_name || t('case.log.system')} · {formatDateTime(l.created_at)}
      </Typography.Text>
      {l.from_text && l.to_text && l.from_text !== l.to_text && (
        <div style={{ fontSize: 12 }}>
          {l.from_text} → {l.to_text}
        </div>
      )}
      {l.detail && <div style={{ fontSize: 12, whiteSpace: 'pre-wrap' }}>{l.detail}</div>}
    </div>
  );
}
