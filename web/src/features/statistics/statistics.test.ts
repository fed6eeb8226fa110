import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { shortcutOf, shortcutRange, toDay } from './period';
import { chartOption } from './chartOption';
import type { StatChart } from './api';

describe('statistics periods', () => {
  const now = dayjs('2026-11-26T15:00:00'); // a Thursday
  it('starts weeks on Monday and quarters on their first month', () => {
    expect(shortcutRange('week', now).map(toDay)).toEqual(['2026-11-23', '2026-11-26']);
    expect(shortcutRange('quarter', now).map(toDay)).toEqual(['2026-10-01', '2026-11-26']);
    expect(shortcutRange('year', now).map(toDay)).toEqual(['2026-01-01', '2026-11-26']);
    expect(shortcutRange('today', now).map(toDay)).toEqual(['2026-11-26', '2026-11-26']);
  });
  it('recognises a shortcut from its days, and custom days as none', () => {
    expect(shortcutOf('2026-11-01', '2026-11-26', now)).toBe('month');
    expect(shortcutOf('2026-11-02', '2026-11-26', now)).toBeUndefined();
  });
});

describe('chart options', () => {
  const chart: StatChart = {
    key: 'he_trend', title: 'HE', kind: 'line', unit: 'percent', categories: ['2026-03-01', '2026-03-02'],
    series: [{ key: 'he_excellent', label: 'Excellent', values: [50, null] }], marks: [{ label: 'QC', value: 90 }],
  };
  it('draws the series with null gaps, the targets as lines and a 0–100 axis for rates', () => {
    const o = chartOption(chart, 'No data') as { series: { data: unknown[]; markLine?: { data: { yAxis: number }[] } }[]; yAxis: { max?: number } };
    expect(o.series[0].data).toEqual([50, null]);
    expect(o.series[0].markLine?.data[0].yAxis).toBe(90);
    expect(o.yAxis.max).toBe(100);
  });
  it('says "no data" on an empty chart and makes pies of the first series', () => {
    const empty = chartOption({ ...chart, series: [{ key: 'x', label: 'x', values: [0, 0] }], marks: [] }, 'No data') as { graphic?: { style: { text: string } }[] };
    expect(empty.graphic?.[0].style.text).toBe('No data');
    const pie = chartOption({ ...chart, kind: 'pie', categories: ['A', 'B'], series: [{ key: 'r', label: 'r', values: [3, 1] }] }, '') as { series: { data: unknown[] }[] };
    expect(pie.series[0].data).toEqual([{ name: 'A', value: 3 }, { name: 'B', value: 1 }]);
  });
});
