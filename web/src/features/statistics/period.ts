// Periods of the statistics screens: local days, both ends included.
import dayjs, { type Dayjs } from 'dayjs';

export type Shortcut = 'today' | 'week' | 'month' | 'quarter' | 'year';
export const SHORTCUTS: Shortcut[] = ['today', 'week', 'month', 'quarter', 'year'];

const DAY = 'YYYY-MM-DD';

/** The days of a shortcut around now: the week starts on Monday, the quarter on its first month. */
export function shortcutRange(s: Shortcut, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (s) {
    case 'today':
      return [today, today];
    case 'week':
      return [today.subtract((today.day() + 6) % 7, 'day'), today];
    case 'month':
      return [today.startOf('month'), today];
    case 'quarter':
      return [today.month(today.month() - (today.month() % 3)).startOf('month'), today];
    case 'year':
      return [today.startOf('year'), today];
  }
}

export const toDay = (d: Dayjs) => d.format(DAY);

/** The shortcut whose range is [start, end] today, if any (to highlight it). */
export function shortcutOf(start: string, end: string, now: Dayjs = dayjs()): Shortcut | undefined {
  return SHORTCUTS.find((s) => {
    const [a, b] = shortcutRange(s, now);
    return toDay(a) === start && toDay(b) === end;
  });
}
