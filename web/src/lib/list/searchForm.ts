// Conversion between the declared search form's values and list `params`.
import type { Dayjs } from 'dayjs';
import { paramToRange, rangeToParam } from './dateRanges';
import { cleanParams, type ParamValue } from './query';

export interface FieldDecl {
  name: string;
  type: 'text' | 'select' | 'dateRange';
}
export type FormValues = Record<string, unknown>;

export function formToParams(fields: FieldDecl[], values: FormValues): Record<string, ParamValue> {
  const raw: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.type === 'dateRange') raw[f.name] = rangeToParam(v as [Dayjs | null, Dayjs | null] | null);
    else if (typeof v === 'string') raw[f.name] = v.trim();
    else raw[f.name] = v;
  }
  return cleanParams(raw);
}

export function paramsToForm(fields: FieldDecl[], params: Record<string, ParamValue>): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v = params[f.name];
    if (v === undefined) continue;
    out[f.name] = f.type === 'dateRange' ? paramToRange(v) : v;
  }
  return out;
}
