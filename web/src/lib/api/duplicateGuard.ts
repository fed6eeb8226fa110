// Client-side duplicate-write guard (spec 1 §7): it stops a double click or a
// double Enter from sending the same write twice (two cases registered, a
// report published twice). A POST/PATCH/PUT is refused while an identical one
// (same method, address and body) is still on its way, or within 5 s after
// that one succeeded. A failed write may be retried at once, and a write with
// another body (the user changed the form) is never a duplicate. A body the
// guard does not read (a file upload) is refused only while one to the same
// address is on its way.
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

/** A write's body as the guard compares it: its text, or null when it is not read (an upload). */
export type GuardBody = string | null;

/** The body of a request as the guard compares it: JSON and text are read; anything else (multipart, binary) is not. */
export async function guardBody(request: Request): Promise<GuardBody> {
  if (!request.body || !GUARDED.has(request.method.toUpperCase())) return '';
  const type = request.headers.get('Content-Type') ?? '';
  if (!/^(application\/json|text\/)/i.test(type)) return null;
  return request.clone().text();
}

/** What acquire hands out and release takes back. */
export interface GuardTicket {
  address: string;
  body: GuardBody;
  at: number;
}

export function createDuplicateGuard(now: () => number = Date.now) {
  /** Writes on their way, by address, with their bodies (null: not read). */
  const pending = new Map<string, GuardBody[]>();
  /** Writes that succeeded, by address and body, with when they started. */
  const done = new Map<string, number>();
  const addressOf = (method: string, url: string) => {
    const u = new URL(url, 'http://x');
    return GUARDED.has(method.toUpperCase()) && !EXEMPT.includes(u.pathname) && !EXEMPT_PATTERNS.some((p) => p.test(u.pathname)) ? `${method.toUpperCase()} ${u.pathname}${u.search}` : null;
  };
  return {
    /** Returns a ticket to release later, or throws when this write repeats one on its way or just done. */
    acquire(method: string, url: string, body: GuardBody, message: string): GuardTicket | null {
      const address = addressOf(method, url);
      if (!address) return null;
      const onItsWay = pending.get(address) ?? [];
      // An unread body may be anything: it repeats any write to the address on its way, and any repeats it.
      if (onItsWay.some((b) => b === null || body === null || b === body)) throw new DuplicateRequestError(message);
      if (body !== null) {
        const at = done.get(`${address}\n${body}`);
        if (at !== undefined && now() - at < DUPLICATE_WINDOW_MS) throw new DuplicateRequestError(message);
      }
      pending.set(address, [...onItsWay, body]);
      return { address, body, at: now() };
    },
    /** Marks the write finished; a failed one may be sent again at once. */
    release(ticket: GuardTicket | null, failed = false) {
      if (!ticket) return;
      const onItsWay = pending.get(ticket.address) ?? [];
      const i = onItsWay.indexOf(ticket.body);
      if (i >= 0) onItsWay.splice(i, 1);
      if (onItsWay.length === 0) pending.delete(ticket.address);
      for (const [k, at] of done) if (now() - at >= DUPLICATE_WINDOW_MS) done.delete(k);
      if (!failed && ticket.body !== null) done.set(`${ticket.address}\n${ticket.body}`, ticket.at);
    },
  };
}
