import { toApiError } from './errors';

interface ListReply<T> {
  data: T[] | null;
  meta?: { pagination?: { total?: number } };
}

/** An openapi-fetch list reply as rows + total, or a thrown ApiError. */
export function listResult<T>(res: { data?: ListReply<T>; error?: unknown; response: Response }): { rows: T[]; total: number } {
  if (res.error !== undefined || !res.data) throw toApiError(res.response.status, res.error, 'Request failed');
  const rows = Array.isArray(res.data.data) ? res.data.data : [];
  return { rows, total: res.data.meta?.pagination?.total ?? rows.length };
}
