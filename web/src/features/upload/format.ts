// File sizes as the spec shows them (spec 2 §5): bit, Kb, Mb or Gb with 2 decimals
// (steps of 1,024 bytes); speeds and remaining time for the upload rows.

const UNITS = ['bit', 'Kb', 'Mb', 'Gb'] as const;

export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—';
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(2)} ${UNITS[i]}`;
}

/** Bytes per second as "12.34 Mb/s". */
export const formatSpeed = (bytesPerSecond: number) => (bytesPerSecond > 0 ? `${formatFileSize(bytesPerSecond)}/s` : '—');

/** Seconds as h:mm:ss or m:ss; "—" when unknown. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
