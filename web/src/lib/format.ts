import dayjs from 'dayjs';

/** Server timestamps (RFC 3339) as local "YYYY-MM-DD HH:mm:ss"; empty → "—". */
export function formatDateTime(v: string | null | undefined): string {
  if (!v) return '—';
  const d = dayjs(v);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : v;
}
