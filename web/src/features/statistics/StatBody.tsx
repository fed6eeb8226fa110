import { useMemo } from 'react';
import { Alert, Card, Col, Collapse, Descriptions, Row, Statistic, Table, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { StatChart, StatTable, Stats } from './api';
import { EChart } from './EChart';
import { chartOption } from './chartOption';
import { formatValue } from './format';

function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text}>
      <QuestionCircleOutlined style={{ color: '#8c8c8c', marginLeft: 4 }} aria-label={text} />
    </Tooltip>
  );
}

function ChartCard({ chart, wide }: { chart: StatChart; wide: boolean }) {
  const { t, i18n } = useTranslation();
  const option = useMemo(() => chartOption(chart, t('statistics.noData')), [chart, t]);
  return (
    <Col xs={24} xl={wide ? 24 : 12}>
      <Card size="small" title={chart.title} data-testid={`stat-chart-${chart.key}`}>
        <EChart option={option} label={chart.title} locale={i18n.language} testId={`stat-echart-${chart.key}`} />
      </Card>
    </Col>
  );
}

type Row = NonNullable<StatTable['rows']>[number];

function TableCard({ table }: { table: StatTable }) {
  const { t, i18n } = useTranslation();
  const columns = [
    { key: 'label', title: table.head, dataIndex: 'label', fixed: 'left' as const, width: 220 },
    ...(table.columns ?? []).map((c, i) => ({
      key: c.key,
      title: <span>{c.label}<Help text={c.help} /></span>,
      align: 'right' as const,
      width: 130,
      render: (_: unknown, r: Row) => formatValue(r.values?.[i], c.unit, t, i18n.language),
    })),
  ];
  return (
    <Card size="small" title={table.title} style={{ marginTop: 16 }}>
      <Table
        data-testid={`stat-table-${table.key}`}
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={table.rows ?? []}
        pagination={(table.rows?.length ?? 0) > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <span style={{ color: '#595959' }}>{t('statistics.noData')}</span> }}
      />
    </Card>
  );
}

/** A screen's cards, notes, charts, tables and the definitions of its figures. */
export function StatBody({ stats }: { stats: Stats }) {
  const { t, i18n } = useTranslation();
  const cards = stats.cards ?? [];
  const charts = stats.charts ?? [];
  const tables = stats.tables ?? [];
  const defs = new Map<string, { label: string; help: string }>();
  for (const c of cards) defs.set(c.key, c);
  for (const tb of tables) for (const c of tb.columns ?? []) defs.set(c.key, c);
  return (
    <>
      <Row gutter={[12, 12]}>
        {cards.map((c) => (
          <Col key={c.key} xs={12} md={8} xl={6} xxl={4}>
            <Card size="small" data-testid={`stat-card-${c.key}`}>
              <Statistic title={<span>{c.label}<Help text={c.help} /></span>} value={formatValue(c.value, c.unit, t, i18n.language)} />
            </Card>
          </Col>
        ))}
      </Row>
      {(stats.notes ?? []).map((n) => <Alert key={n} type="info" showIcon message={n} style={{ marginTop: 16 }} />)}
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        {charts.map((c) => <ChartCard key={c.key} chart={c} wide={c.kind === 'line' || charts.filter((x) => x.kind !== 'line').length === 1} />)}
      </Row>
      {tables.map((tb) => <TableCard key={tb.key} table={tb} />)}
      <Collapse
        style={{ marginTop: 16 }}
        items={[{
          key: 'defs',
          label: t('statistics.definitions'),
          children: (
            <Descriptions column={1} size="small" bordered>
              {[...defs.entries()].map(([k, d]) => <Descriptions.Item key={k} label={d.label}>{d.help}</Descriptions.Item>)}
            </Descriptions>
          ),
        }]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('statistics.zoneNote', { zone: stats.zone })}
      </Typography.Paragraph>
    </>
  );
}
