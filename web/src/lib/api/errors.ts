/** An error reply from the API: a localized message and optional per-field messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string[]>;
  constructor(status: number, message: string, fieldErrors: Record<string, string[]> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
  }
}

interface ErrorLike {
  message?: unknown;
  errors?: unknown;
}

/** Builds an ApiError from whatever the server sent (message may be an array, errors a map). */
export function toApiError(status: number, body: unknown, fallback: string): ApiError {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorLike;
  const msg = Array.isArray(b.message) ? String(b.message[0] ?? '') : typeof b.message === 'string' ? b.message : '';
  const fields: Record<string, string[]> = {};
  if (b.errors && typeof b.errors === 'object' && !Array.isArray(b.errors)) {
    for (const [k, v] of Object.entries(b.errors as Record<string, unknown>)) {
      fields[k] = Array.isArray(v) ? v.map(String) : [String(v)];
    }
  }
  const firstField = Object.values(fields)[0]?.[0];
  return new ApiError(status, msg || firstField || fallback, fields);
}

/** Unwraps an openapi-fetch result: returns `data.data` or throws an ApiError. */
export function unwrap<T>(res: { data?: { data: T }; error?: unknown; response: Response }, fallback = 'Request failed'): T {
  if (res.error !== undefined || !res.data) throw toApiError(res.response.status, res.error, fallback);
  return res.data.data;
}
