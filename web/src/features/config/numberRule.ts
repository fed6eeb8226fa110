/** The pathology-number rule of a library (spec 2 §3 Configuration records). */
export interface NumberRule {
  prefix?: string;
  middle_digits?: number;
  symbol?: string;
  digit_length?: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Middle digits of today (year, year+month, date), as the server fills them in. */
export function defaultMiddle(digits: number, now = new Date()): string {
  const y = String(now.getFullYear());
  switch (digits) {
    case 2: return y.slice(2);
    case 4: return y;
    case 6: return y + pad(now.getMonth() + 1);
    case 8: return y + pad(now.getMonth() + 1) + pad(now.getDate());
  }
  return '0'.repeat(Math.max(0, digits));
}

/** The first number the rule gives, e.g. BL2026-00001 — the preview shown while editing. */
export function exampleNumber(r: NumberRule, now = new Date()): string {
  const serial = r.digit_length ? '1'.padStart(r.digit_length, '0') : '001';
  return `${r.prefix ?? ''}${r.middle_digits ? defaultMiddle(r.middle_digits, now) : ''}${r.symbol ?? ''}${serial}`;
}
