// Client-side registration rules mirroring spec 2 §5 and the server's checks
// (internal/consultation/validate.go); the server checks again.

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

export interface IdCardInfo {
  birthday: string; // YYYY-MM-DD
  gender: 'male' | 'female';
}

/** A Chinese resident ID (GB 11643): 18 characters, a real birth date and the check digit. */
export function parseIdCard(raw: string): IdCardInfo | null {
  const id = raw.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(id[i]) * ID_WEIGHTS[i];
  if (id[17] !== ID_CHECK[sum % 11]) return null;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  if (y < 1880 || date.getTime() > Date.now()) return null;
  return { birthday: `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`, gender: Number(id[16]) % 2 === 1 ? 'male' : 'female' };
}

export const isValidIdCard = (id: string) => parseIdCard(id) !== null;

/** Other ID documents: at least 5 characters. */
export const isValidOtherId = (id: string) => [...id.trim()].length >= 5;

/** A mainland mobile number or a landline with an optional area code. */
export const isValidPhone = (phone: string) => /^(1[3-9]\d{9}|(0\d{2,3}-?)?\d{7,8})$/.test(phone.trim());

export type AgeUnit = 'year' | 'month' | 'day';
const AGE_LIMITS: Record<AgeUnit, number> = { year: 150, month: 1800, day: 60000 };

/** A whole number within the unit's limit. */
export function isValidAge(age: string, unit: AgeUnit = 'year'): boolean {
  const a = age.trim();
  if (!/^\d+$/.test(a)) return false;
  return Number(a) <= AGE_LIMITS[unit];
}

/** Pathology numbers: digits, letters, underscores and hyphens only. */
export const isValidPathologyNumber = (n: string) => /^[A-Za-z0-9_-]+$/.test(n.trim());
