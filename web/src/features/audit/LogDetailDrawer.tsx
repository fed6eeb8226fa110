import { Col, Descriptions, Drawer, Empty, Row, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OperationLog } from '../../lib/api/types';
import { OutcomeTag } from './OutcomeTag';
import { formatDateTime } from '../../lib/format';
import { diffFields, showValue } from './diff';

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Title level={5}>{title}</Typography.Title>
      {value === null || value === undefined ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audit.noData')} />
      ) : (
        <pre className="tp-mono" style={{ background: '#f5f8fc', border: '1px solid #e3e9f1', borderRadius: 6, padding: 12, maxHeight: 480, overflow: 'auto', fontSize: 12, margin: 0 }}>
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </div>
  );
}

/** One audit record with its before/after snapshots side by side. */
export function LogDetailDrawer({ log, onClose }: { log: OperationLog | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open={!!log} onClose={onClose} width={900} title={t('audit.detail')} destroyOnHidden data-testid="log-drawer">
      {log && (
        <>
          <Descriptions column={2} size="small" bordered style={{ marginBottom: 20 }}>
            <Descriptions.Item label={t('audit.table.createdAt')}>{formatDateTime(log.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.outcome')}>
              <OutcomeTag outcome={log.outcome} />
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.table.user')}>{log.username}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.role')}>{log.role_text}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.action')}>{log.action_text} <span className="tp-mono">({log.action})</span></Descriptions.Item>
            <Descriptions.Item label={t('audit.table.object')}>{`${log.object_text} #${log.object_id}`}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.case')}>{log.case_text || (log.case_id ? `#${log.case_id}` : '—')}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.seq')}>{log.seq ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.ip')}>{log.ip}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.userAgent')}>{log.user_agent || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('audit.table.message')}>{log.message || '—'}</Descriptions.Item>
          </Descriptions>
          {diffFields(log.before, log.after).length > 0 && (
            <>
              <Typography.Title level={5}>{t('audit.changes')}</Typography.Title>
              <Table
                size="small"
                rowKey="field"
                pagination={false}
                style={{ marginBottom: 20 }}
                dataSource={diffFields(log.before, log.after)}
                data-testid="log-changes"
                columns={[
                  { key: 'field', dataIndex: 'field', title: t('audit.field'), width: 160, render: (f: string) => <span className="tp-mono">{f}</span> },
                  { key: 'before', dataIndex: 'before', title: t('audit.before'), render: (v: unknown) => <Typography.Text delete type="secondary" className="tp-mono">{showValue(v)}</Typography.Text> },
                  { key: 'after', dataIndex: 'after', title: t('audit.after'), render: (v: unknown) => <Typography.Text className="tp-mono" style={{ color: '#2e9d5b' }}>{showValue(v)}</Typography.Text> },
                ]}
              />
            </>
          )}
          <Row gutter={16}>
            <Col span={12}>
              <JsonBlock title={t('audit.before')} value={log.before} />
            </Col>
            <Col span={12}>
              <JsonBlock title={t('audit.after')} value={log.after} />
            </Col>
          </Row>
        </>
      )}
    </Drawer>
  );
}
