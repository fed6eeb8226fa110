// Date-range shortcuts (spec 1 §9); ranges run from 00:00:00 to 23:59:59, weeks start Monday.
import dayjs, { type Dayjs } from 'dayjs';
import quarterOfYear from 'dayjs/plugin/quarterOfYear';

dayjs.extend(quarterOfYear);

export const RANGE_PRESETS = ['today', 'yesterday', 'last3Days', 'thisWeek', 'thisMonth', 'lastMonth', 'thisQuarter', 'lastQuarter', 'thisYear', 'lastYear'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DATETIME = 'YYYY-MM-DD HH:mm:ss';

/** Monday-based start of week regardless of the dayjs locale. */
function startOfWeek(d: Dayjs): Dayjs {
  const dow = (d.day() + 6) % 7;
  return d.subtract(dow, 'day').startOf('day');
}

export function presetRange(p: RangePreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const d = now;
  switch (p) {
    case 'today':
      return [d.startOf('day'), d.endOf('day')];
    case 'yesterday':
      return [d.subtract(1, 'day').startOf('day'), d.subtract(1, 'day').endOf('day')];
    case 'last3Days':
      return [d.subtract(2, 'day').startOf('day'), d.endOf('day')];
    case 'thisWeek':
      return [startOfWeek(d), startOfWeek(d).add(6, 'day').endOf('day')];
    case 'thisMonth':
      return [d.startOf('month'), d.endOf('month')];
    case 'lastMonth':
      return [d.subtract(1, 'month').startOf('month'), d.subtract(1, 'month').endOf('month')];
    case 'thisQuarter':
      return [d.startOf('quarter'), d.endOf('quarter')];
    case 'lastQuarter':
      return [d.subtract(1, 'quarter').startOf('quarter'), d.subtract(1, 'quarter').endOf('quarter')];
    case 'thisYear':
      return [d.startOf('year'), d.endOf('year')];
    case 'lastYear':
      return [d.subtract(1, 'year').startOf('year'), d.subtract(1, 'year').endOf('year')];
  }
}

/** A picked range as the API's between value; only when both ends are filled. */
export function rangeToParam(range: [Dayjs | null, Dayjs | null] | null | undefined): [string, string] | [] {
  if (!range || !range[0] || !range[1]) return [];
  return [range[0].startOf('day').format(DATETIME), range[1].endOf('day').format(DATETIME)];
}

export function paramToRange(v: unknown): [Dayjs, Dayjs] | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const a = dayjs(String(v[0]));
  const b = dayjs(String(v[1]));
  return a.isValid() && b.isValid() ? [a, b] : null;
}
