// Pure time logic of the frozen screens: the site's countdown to the
// operation, the expert's clock counting up from the slides' arrival
// (amber at 15, red at 20 minutes by default), the phases' colours, and the
// duty calendar's month grid in the operator's time zone.

export type Phase = 'applying' | 'pending' | 'failed' | 'returned' | 'recall_asked' | 'recalled' | 'arrived' | 'reported';

/** Status colours of spec 2 §4: appointment successful green, applying blue, returned and recalled red; a failed appointment grey. */
export const PHASE_COLOUR: Record<Phase, string> = {
  applying: 'blue',
  pending: 'green',
  failed: 'default',
  returned: 'red',
  recall_asked: 'orange',
  recalled: 'red',
  arrived: 'purple',
  reported: 'default',
};

import { clockText } from '../../entities/case/frozenClock';

export { DEFAULT_THRESHOLDS, clockText, level, type Level, type Thresholds } from '../../entities/case/frozenClock';

/** Time left until the operation: the text and whether it is past. */
export function countdown(operationAt: string, now: number): { text: string; past: boolean; ms: number } {
  const ms = Date.parse(operationAt) - now;
  if (ms <= 0) return { text: clockText(-ms), past: true, ms };
  const d = Math.floor(ms / 86_400_000);
  return { text: d > 0 ? `${d}d ${clockText(ms - d * 86_400_000)}` : clockText(ms), past: false, ms };
}

/** Turnaround in minutes with one decimal, or null. */
export function turnaroundMinutes(seconds: number | null | undefined): number | null {
  return seconds == null ? null : Math.round(seconds / 6) / 10;
}

/** Share of turnarounds within the target (minutes), as a whole percentage, or null when none. */
export function shareWithin(secondsList: (number | null | undefined)[], targetMin = 20): number | null {
  const done = secondsList.filter((s): s is number => s != null);
  if (done.length === 0) return null;
  return Math.round((100 * done.filter((s) => s <= targetMin * 60).length) / done.length);
}

/** A date "YYYY-MM-DD" of instant t in zone. */
export function dayIn(t: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(t);
  const get = (k: string) => parts.find((p) => p.type === k)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** "HH:MM" of instant t in zone. */
export function timeIn(t: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);
}

/** Add days to a date "YYYY-MM-DD" (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return t.toISOString().slice(0, 10);
}

/**
 * The weeks of a month ("YYYY-MM") for a calendar starting on Monday: each
 * week seven dates "YYYY-MM-DD", days of the neighbouring months included.
 */
export function monthGrid(month: string): string[][] {
  const [y, m] = month.split('-').map(Number);
  const first = `${month}-01`;
  const weekday = (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7; // Monday 0
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const cells = Math.ceil((weekday + days) / 7) * 7;
  const start = addDays(first, -weekday);
  const weeks: string[][] = [];
  for (let i = 0; i < cells; i += 7) weeks.push(Array.from({ length: 7 }, (_, j) => addDays(start, i + j)));
  return weeks;
}

/** The days of a scheduling cycle from start. */
export function cycleDays(start: string, days: number): string[] {
  return Array.from({ length: Math.max(0, days) }, (_, i) => addDays(start, i));
}
