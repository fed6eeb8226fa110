// The ECharts option of a chart the server describes: categories, series
// (stacked when they share a stack), target lines, in the reader's language.
import type { StatChart } from './api';

const PALETTE = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#13c2c2', '#faad14', '#f5222d'];

export function chartOption(c: StatChart, noData: string): Record<string, unknown> {
  const categories = c.categories ?? [];
  const series = (c.series ?? []).map((s) => ({ ...s, values: s.values ?? [] }));
  const marks = c.marks ?? [];
  const percent = c.unit === 'percent';
  const base = { color: PALETTE, aria: { enabled: true }, tooltip: { trigger: c.kind === 'pie' ? 'item' : 'axis' }, animation: false };
  if (c.kind === 'pie') {
    const s = series[0];
    return {
      ...base,
      legend: { bottom: 0, type: 'scroll' },
      series: [{ type: 'pie', radius: ['35%', '65%'], data: categories.map((name, i) => ({ name, value: s?.values[i] ?? 0 })), label: { formatter: '{b}: {c} ({d}%)' } }],
    };
  }
  const many = categories.length > 12;
  return {
    ...base,
    legend: { top: 0, type: 'scroll' },
    grid: { left: 48, right: 24, top: 40, bottom: many ? 72 : 32, containLabel: true },
    xAxis: { type: 'category', data: categories, axisLabel: { rotate: many ? 45 : 0, hideOverlap: true } },
    yAxis: { type: 'value', max: percent ? 100 : undefined, minInterval: percent ? undefined : 1, axisLabel: { formatter: percent ? '{value}%' : '{value}' } },
    series: series.map((s, i) => ({
      name: s.label,
      type: c.kind,
      stack: s.stack || undefined,
      connectNulls: false,
      barMaxWidth: 36,
      data: s.values.map((v) => v ?? null),
      markLine: i === 0 && marks.length > 0 ? {
        symbol: 'none',
        data: marks.map((m) => ({ yAxis: m.value, name: m.label, label: { formatter: `${m.label} ${m.value}%`, position: 'insideEndTop' } })),
      } : undefined,
    })),
    graphic: series.every((s) => s.values.every((v) => !v)) ? [{ type: 'text', left: 'center', top: 'middle', style: { text: noData, fill: '#8c8c8c', fontSize: 14 } }] : undefined,
  };
}
