// Which top-level fields an audited write changed (before/after snapshots).
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function diffFields(before: unknown, after: unknown): FieldChange[] {
  if (!isObject(before) && !isObject(after)) return [];
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const keys = Array.from(new Set([...Object.keys(b), ...Object.keys(a)])).sort();
  return keys.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k])).map((k) => ({ field: k, before: b[k], after: a[k] }));
}

export const showValue = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
