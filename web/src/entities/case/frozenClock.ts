// The frozen clock (spec 2 §5): time since a frozen case's slides arrived,
// amber and red at the thresholds (15 and 20 minutes by default). Shared by
// the expert's frozen list and the case workspace.

export interface Thresholds {
  amberMin: number;
  redMin: number;
}
export const DEFAULT_THRESHOLDS: Thresholds = { amberMin: 15, redMin: 20 };

export type Level = 'ok' | 'amber' | 'red';

/** The level of a frozen case that has waited ms since its slides arrived. */
export function level(ms: number, th: Thresholds = DEFAULT_THRESHOLDS): Level {
  if (ms >= th.redMin * 60_000) return 'red';
  if (ms >= th.amberMin * 60_000) return 'amber';
  return 'ok';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** mm:ss below an hour, h:mm:ss above; negative durations count as zero. */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** Milliseconds on the clock: from the arrival to the report, or to now while unreported. */
export function elapsedMs(from: string, until: string | null | undefined, now: number): number {
  return (until ? Date.parse(until) : now) - Date.parse(from);
}
