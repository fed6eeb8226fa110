import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { cleanParams, defaultQuery, formatBadge, pageToJumpTo, parseQuery, sortFromTable, toApiQuery, toCountQuery, toSearchParams, withParams } from './query';
import { invertOperator, rowsToConstraints, OPERATORS } from './constraints';
import { addToHistory, HISTORY_CAP, suggest } from './history';
import { presetRange, rangeToParam, DATETIME } from './dateRanges';

describe('query state ↔ URL', () => {
  it('round-trips through URLSearchParams', () => {
    const q = defaultQuery({ page: 3, page_size: 50, search: '张', sort_by: { created_at: 'desc' }, params: { tab: 'locked', status: 1, role: ['expert'] } });
    const sp = toSearchParams(q, new URLSearchParams('keep=1'));
    expect(sp.get('keep')).toBe('1');
    expect(sp.get('sort_by')).toBe('{"created_at":"desc"}');
    expect(parseQuery(sp)).toEqual(q);
  });
  it('keeps a cleared default sort cleared', () => {
    const defaults = defaultQuery({ sort_by: { created_at: 'desc' } });
    const sp = toSearchParams({ ...defaults, sort_by: {} }, new URLSearchParams(), defaults);
    expect(sp.get('sort_by')).toBe('{}');
    expect(parseQuery(sp, defaults).sort_by).toEqual({});
    expect(parseQuery(new URLSearchParams(), defaults).sort_by).toEqual({ created_at: 'desc' });
  });
  it('falls back to defaults on garbage and drops bad sort orders', () => {
    const q = parseQuery(new URLSearchParams('page=-2&page_size=x&sort_by={bad&params=[1]'));
    expect(q).toEqual(defaultQuery());
    expect(parseQuery(new URLSearchParams('sort_by={"a":"up","b":"asc"}')).sort_by).toEqual({ b: 'asc' });
  });
  it('omits empty members from the URL and the API query', () => {
    const q = defaultQuery({ params: { name: '', status: null as unknown as string } });
    expect([...toSearchParams(q).keys()]).toEqual(['page', 'page_size']);
    expect(toApiQuery(q)).toEqual({ page: 1, page_size: 20 });
  });
  it('builds the API query with JSON text members', () => {
    const q = defaultQuery({ search: ' x ', sort_by: { id: 'asc' }, params: { tab: 'all', status: 0 }, constraints: [{ condition: 'and', constraint: [] }] });
    expect(toApiQuery(q)).toEqual({ page: 1, page_size: 20, search: 'x', sort_by: '{"id":"asc"}', params: '{"tab":"all","status":0}', constraints: '{"constraints":[{"condition":"and","constraint":[]}]}' });
    expect(toCountQuery(q, 'tab')).toEqual({ search: 'x', params: '{"status":0}', constraints: '{"constraints":[{"condition":"and","constraint":[]}]}' });
  });
});

describe('withParams', () => {
  it('merges fixed members into the params JSON, over what the user chose', () => {
    expect(withParams({ page: 1, params: '{"tab":"all","status":1}' } as { page: number; params?: string }, { tab: 'mine' })).toEqual({ page: 1, params: '{"tab":"mine","status":1}' });
    const q: { search: string; params?: string } = { search: 'x' };
    expect(withParams(q, { kind: 'special' })).toEqual({ search: 'x', params: '{"kind":"special"}' });
  });
});

describe('cleanParams', () => {
  it('drops empty strings, nulls and empty arrays but keeps 0 and false', () => {
    expect(cleanParams({ a: '', b: null, c: undefined, d: [], e: 0, f: false, g: ['', 'x'], h: { x: 1 } })).toEqual({ e: 0, f: false, g: ['x'] });
  });
});

describe('page jump and sort', () => {
  it('jumps to the last page when the current page is empty', () => {
    expect(pageToJumpTo(5, 0, 41, 20)).toBe(3);
    expect(pageToJumpTo(1, 0, 0, 20)).toBeNull();
    expect(pageToJumpTo(3, 5, 45, 20)).toBeNull();
    expect(pageToJumpTo(2, 0, 0, 20)).toBe(1);
  });
  it('maps antd sorter to sort_by', () => {
    expect(sortFromTable('created_at', 'descend')).toEqual({ created_at: 'desc' });
    expect(sortFromTable('created_at', 'ascend')).toEqual({ created_at: 'asc' });
    expect(sortFromTable('created_at', null)).toEqual({});
  });
  it('caps badges at 999+', () => {
    expect(formatBadge(999)).toBe('999');
    expect(formatBadge(1000)).toBe('999+');
  });
});

describe('custom conditions', () => {
  it('inverts every operator and back', () => {
    expect(invertOperator('=')).toBe('!=');
    expect(invertOperator('>')).toBe('<=');
    expect(invertOperator('like')).toBe('not like');
    expect(invertOperator('between')).toBe('not between');
    for (const op of OPERATORS) expect(invertOperator(invertOperator(op))).toBe(op);
  });
  it('ignores incomplete rows, splits list values and turns except into and + inverse', () => {
    const groups = rowsToConstraints([
      { condition: 'and', column: 'name', operator: 'like', value: '王' },
      { condition: 'or', column: 'id', operator: 'in', value: '1, 2' },
      { condition: 'except', column: 'status', operator: '=', value: 0 },
      { condition: 'and', operator: '=' , value: 'x' },
      { condition: 'and', column: 'email', operator: '=', value: '' },
    ]);
    expect(groups).toEqual([
      {
        condition: 'and',
        constraint: [
          { condition: 'and', relation: 'and', operator: 'like', column: 'name', value: '王', child: [] },
          { condition: 'or', relation: 'or', operator: 'in', column: 'id', value: ['1', '2'], child: [] },
          { condition: 'and', relation: 'and', operator: '!=', column: 'status', value: 0, child: [] },
        ],
      },
    ]);
    expect(rowsToConstraints([])).toEqual([]);
  });
});

describe('search history', () => {
  it('puts the newest first, counts repeats and caps at 200', () => {
    let h = addToHistory([], 'a');
    h = addToHistory(h, 'b');
    h = addToHistory(h, 'a');
    expect(h.map((e) => [e.name, e.count])).toEqual([['a', 2], ['b', 1]]);
    for (let i = 0; i < 250; i++) h = addToHistory(h, `q${i}`);
    expect(h).toHaveLength(HISTORY_CAP);
    expect(h[0].name).toBe('q249');
    expect(h.some((e) => e.name === 'a')).toBe(false);
    expect(addToHistory(h, '  ')).toBe(h);
  });
  it('suggests at most 10 matching entries', () => {
    let h: ReturnType<typeof addToHistory> = [];
    for (let i = 0; i < 30; i++) h = addToHistory(h, `name${i}`);
    expect(suggest(h, '')).toHaveLength(10);
    expect(suggest(h, 'NAME2').map((e) => e.name)).toEqual(['name29', 'name28', 'name27', 'name26', 'name25', 'name24', 'name23', 'name22', 'name21', 'name20']);
  });
});

describe('date range shortcuts', () => {
  const now = dayjs('2026-11-18 10:30:00'); // a Wednesday
  const fmt = (r: [dayjs.Dayjs, dayjs.Dayjs]) => r.map((d) => d.format(DATETIME));
  it('computes ranges from 00:00:00 to 23:59:59 with Monday weeks', () => {
    expect(fmt(presetRange('today', now))).toEqual(['2026-11-18 00:00:00', '2026-11-18 23:59:59']);
    expect(fmt(presetRange('yesterday', now))).toEqual(['2026-11-17 00:00:00', '2026-11-17 23:59:59']);
    expect(fmt(presetRange('last3Days', now))).toEqual(['2026-11-16 00:00:00', '2026-11-18 23:59:59']);
    expect(fmt(presetRange('thisWeek', now))).toEqual(['2026-11-16 00:00:00', '2026-11-22 23:59:59']);
    expect(fmt(presetRange('thisWeek', dayjs('2026-11-22 08:00:00')))).toEqual(['2026-11-16 00:00:00', '2026-11-22 23:59:59']);
    expect(fmt(presetRange('lastMonth', now))).toEqual(['2026-10-01 00:00:00', '2026-10-31 23:59:59']);
    expect(fmt(presetRange('thisQuarter', now))).toEqual(['2026-10-01 00:00:00', '2026-12-31 23:59:59']);
    expect(fmt(presetRange('lastQuarter', now))).toEqual(['2026-07-01 00:00:00', '2026-09-30 23:59:59']);
    expect(fmt(presetRange('lastYear', now))).toEqual(['2025-01-01 00:00:00', '2025-12-31 23:59:59']);
  });
  it('emits a value only when both ends are set', () => {
    expect(rangeToParam([now, null])).toEqual([]);
    expect(rangeToParam(null)).toEqual([]);
    expect(rangeToParam([now, now])).toEqual(['2026-11-18 00:00:00', '2026-11-18 23:59:59']);
  });
});

import { formToParams, paramsToForm } from './searchForm';

describe('search form ↔ params', () => {
  const fields = [
    { name: 'name', type: 'text' as const },
    { name: 'status', type: 'select' as const },
    { name: 'created_at', type: 'dateRange' as const },
  ];
  it('formats date ranges, trims text and drops empties', () => {
    const p = formToParams(fields, { name: '  王 ', status: undefined, created_at: [dayjs('2026-11-01 13:00'), dayjs('2026-11-30 08:00')] });
    expect(p).toEqual({ name: '王', created_at: ['2026-11-01 00:00:00', '2026-11-30 23:59:59'] });
    expect(formToParams(fields, { name: '', status: 0, created_at: [dayjs(), null] })).toEqual({ status: 0 });
  });
  it('restores form values from params', () => {
    const v = paramsToForm(fields, { status: 1, created_at: ['2026-11-01 00:00:00', '2026-11-30 23:59:59'] });
    expect(v.status).toBe(1);
    expect((v.created_at as dayjs.Dayjs[])[1].format('YYYY-MM-DD')).toBe('2026-11-30');
  });
});
