// How a figure's value reads in the reader's language.
import type { TFunction } from 'i18next';

export function formatValue(v: number | null | undefined, unit: string, t: TFunction, lang: string): string {
  if (v === null || v === undefined) return t('statistics.noData');
  const n = (digits: number) => v.toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  switch (unit) {
    case 'percent':
      return `${n(1)}%`;
    case 'hours':
      return t('statistics.unit.hours', { value: n(1) });
    case 'minutes':
      return t('statistics.unit.minutes', { value: n(1) });
    case 'yuan':
      return `¥${n(2)}`;
    default:
      return n(Number.isInteger(v) ? 0 : 1);
  }
}
