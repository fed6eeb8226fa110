// List query state (spec 1 §2 navigation rules, §4 list behaviour, §5 validation):
// kept in the URL query as page, page_size, search, sort_by (JSON), params (JSON)
// and constraints (JSON), and turned into the API's query parameters.
import type { ConstraintGroup } from './constraints';

export type SortOrder = 'asc' | 'desc';
export type ParamValue = string | number | boolean | (string | number)[];

export interface ListQuery {
  page: number;
  page_size: number;
  search: string;
  sort_by: Record<string, SortOrder>;
  params: Record<string, ParamValue>;
  constraints: ConstraintGroup[];
}

export const PAGE_SIZES = [20, 50, 100, 200, 500, 1000, 2000] as const;
export const DEFAULT_PAGE_SIZE = 20;

export function defaultQuery(overrides: Partial<ListQuery> = {}): ListQuery {
  return { page: 1, page_size: DEFAULT_PAGE_SIZE, search: '', sort_by: {}, params: {}, constraints: [], ...overrides };
}

function parseJson<T>(raw: string | null, isOk: (v: unknown) => boolean, fallback: T): T {
  if (!raw) return fallback;
  try {
    const v: unknown = JSON.parse(raw);
    return isOk(v) ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}
const isPlainObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);

function positiveInt(raw: string | null, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Drops empty strings, nulls, undefined and empty arrays (spec 1 §5). */
export function cleanParams(params: Record<string, unknown>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '') continue;
    if (Array.isArray(v)) {
      const items = v.filter((x) => x !== null && x !== undefined && x !== '') as (string | number)[];
      if (items.length) out[k] = items;
      continue;
    }
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

export function parseQuery(sp: URLSearchParams, defaults: ListQuery = defaultQuery()): ListQuery {
  const sortBy = parseJson<Record<string, SortOrder>>(sp.get('sort_by'), isPlainObject, defaults.sort_by);
  return {
    page: positiveInt(sp.get('page'), defaults.page),
    page_size: positiveInt(sp.get('page_size'), defaults.page_size),
    search: sp.get('search') ?? defaults.search,
    sort_by: Object.fromEntries(Object.entries(sortBy).filter(([, o]) => o === 'asc' || o === 'desc')),
    params: cleanParams(parseJson(sp.get('params'), isPlainObject, defaults.params)),
    constraints: parseJson(sp.get('constraints'), Array.isArray, defaults.constraints),
  };
}

/**
 * Writes the list state into a copy of `base`, leaving unrelated query keys alone.
 * A sort the user cleared is kept as `sort_by={}` when the screen has a default sort,
 * so "none" stays none instead of falling back to the default.
 */
export function toSearchParams(q: ListQuery, base: URLSearchParams = new URLSearchParams(), defaults?: ListQuery): URLSearchParams {
  const sp = new URLSearchParams(base);
  const set = (k: string, v: string | null) => (v === null ? sp.delete(k) : sp.set(k, v));
  set('page', String(q.page));
  set('page_size', String(q.page_size));
  set('search', q.search ? q.search : null);
  const clearedDefault = !Object.keys(q.sort_by).length && !!defaults && Object.keys(defaults.sort_by).length > 0;
  set('sort_by', Object.keys(q.sort_by).length ? JSON.stringify(q.sort_by) : clearedDefault ? '{}' : null);
  const params = cleanParams(q.params);
  set('params', Object.keys(params).length ? JSON.stringify(params) : null);
  set('constraints', q.constraints.length ? JSON.stringify(q.constraints) : null);
  return sp;
}

export interface ApiListQuery {
  page: number;
  page_size: number;
  sort_by?: string;
  search?: string;
  params?: string;
  constraints?: string;
}

/** The query parameters sent to a list endpoint; empty members are left out. */
export function toApiQuery(q: ListQuery): ApiListQuery {
  const out: ApiListQuery = { page: q.page, page_size: q.page_size };
  if (Object.keys(q.sort_by).length) out.sort_by = JSON.stringify(q.sort_by);
  if (q.search.trim()) out.search = q.search.trim();
  const params = cleanParams(q.params);
  if (Object.keys(params).length) out.params = JSON.stringify(params);
  if (q.constraints.length) out.constraints = JSON.stringify({ constraints: q.constraints });
  return out;
}

/** The count endpoint takes the same filters, minus paging, sorting and the tab itself. */
export function toCountQuery(q: ListQuery, tabParam?: string): Omit<ApiListQuery, 'page' | 'page_size' | 'sort_by'> {
  const { page: _p, page_size: _s, sort_by: _o, ...rest } = toApiQuery({
    ...q,
    params: tabParam ? Object.fromEntries(Object.entries(q.params).filter(([k]) => k !== tabParam)) : q.params,
  });
  return rest;
}

/** An API list or count query with extra members merged into its `params` JSON (a fixed tab, a fixed filter). */
export function withParams<Q extends { params?: string }>(q: Q, extra: Record<string, unknown>): Q {
  const params = { ...(q.params ? (JSON.parse(q.params) as Record<string, unknown>) : {}), ...extra };
  return { ...q, params: JSON.stringify(params) };
}

export const lastPage = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** When the current page came back empty but rows exist before it, the page to jump to. */
export function pageToJumpTo(page: number, rowsOnPage: number, total: number, pageSize: number): number | null {
  if (rowsOnPage > 0 || page <= 1) return null;
  const last = lastPage(total, pageSize);
  return last < page ? last : null;
}

/** antd sorter order → our sort_by; sort cycles desc → asc → none. */
export function sortFromTable(column: string | undefined, order: 'ascend' | 'descend' | null | undefined): Record<string, SortOrder> {
  if (!column || !order) return {};
  return { [column]: order === 'ascend' ? 'asc' : 'desc' };
}

export const formatBadge = (n: number | undefined) => (n === undefined ? '' : n > 999 ? '999+' : String(n));
