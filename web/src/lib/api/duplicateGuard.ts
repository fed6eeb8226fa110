// Client-side duplicate-write guard (spec 1 §7): a POST/PATCH/PUT to the same URL
// is refused while an earlier one is pending or for 5 s after it started.
export const DUPLICATE_WINDOW_MS = 5000;
// Idempotent writes a user repeats on purpose: marking messages read (one
// after another), and the live stream's ticket (asked for on every reconnect).
const EXEMPT = ['/api/user/role/config', '/api/message/read', '/api/events/ticket'];
/**
 * Writes that repeat by design: the slide viewer autosaves a user's whole annotation set
 * (PUT, debounced, idempotent) every time it changes, so a second edit within 5 s must save;
 * a meeting's presenter sends the view many times a second, and one joins and leaves as the
 * viewer opens and closes. A gallery saves an image's whole label set, and a case's whole
 * image order and checks, each time the user changes them (PUT, idempotent). A structured
 * template's rules are evaluated (a read with a body) a moment after each change of the form.
 */
const EXEMPT_PATTERNS = [/^\/api\/slides\/\d+\/annotations$/, /^\/api\/consultation\/meeting\/\d+\/(signal|join)$/, /^\/api\/user\/meeting\/quit\/\d+$/,
  /^\/api\/gallery\/\d+\/\d+\/labels$/, /^\/api\/consultation\/resources\/\d+\/gallery$/, /^\/api\/config\/struct_template\/evaluate\/\d+$/];
const GUARDED = new Set(['POST', 'PATCH', 'PUT']);

export class DuplicateRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DuplicateRequestError';
  }
}

export function createDuplicateGuard(now: () => number = Date.now) {
  const started = new Map<string, { at: number; pending: boolean }>();
  const keyOf = (method: string, url: string) => {
    const u = new URL(url, 'http://x');
    return GUARDED.has(method.toUpperCase()) && !EXEMPT.includes(u.pathname) && !EXEMPT_PATTERNS.some((p) => p.test(u.pathname)) ? `${method.toUpperCase()} ${u.pathname}${u.search}` : null;
  };
  return {
    /** Returns a key to release later, or throws when this write repeats a recent one. */
    acquire(method: string, url: string, message: string): string | null {
      const key = keyOf(method, url);
      if (!key) return null;
      const prev = started.get(key);
      if (prev && (prev.pending || now() - prev.at < DUPLICATE_WINDOW_MS)) throw new DuplicateRequestError(message);
      started.set(key, { at: now(), pending: true });
      return key;
    },
    /** Marks the request finished; `failed` writes may be retried at once. */
    release(key: string | null, failed = false) {
      if (!key) return;
      const entry = started.get(key);
      if (!entry) return;
      if (failed) started.delete(key);
      else entry.pending = false;
    },
  };
}
