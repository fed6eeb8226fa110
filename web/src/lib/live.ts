// The live event stream (GET /api/events, Server-Sent Events). EventSource
// cannot send the bearer token, so each connection first asks for a
// single-use ticket (POST /api/events/ticket, with the token and language like
// every call). When the connection drops, a new ticket opens a new one that
// says which event it saw last, so no notification is lost meanwhile.

export interface LiveEvent {
  id?: string;
  event: string;
  data: string;
}

export const LIVE_EVENTS = ['hello', 'notification', 'changed', 'end', 'meeting'] as const;

export interface LiveOptions {
  /** A fresh ticket, or null when signed out (then nothing opens). */
  ticket: () => Promise<string | null>;
  onEvent: (e: LiveEvent) => void;
  /** The server ended the stream because the session ended. */
  onEnd?: () => void;
  url?: string;
  EventSource?: typeof EventSource;
}

/** Opens the stream and keeps it open until stop() is called. */
export function openLive(opts: LiveOptions): { stop: () => void } {
  const ES = opts.EventSource ?? globalThis.EventSource;
  let stopped = false;
  let es: EventSource | null = null;
  let lastId: string | undefined;
  let delay = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const again = () => {
    if (stopped) return;
    // Jittered, so that the browsers of a restarted server do not all come back at once.
    timer = setTimeout(() => void connect(), delay * (0.75 + Math.random() / 2));
    delay = Math.min(delay * 2, 30_000);
  };

  async function connect() {
    if (typeof ES === 'undefined') return; // no EventSource (tests, very old browsers): no live updates
    let ticket: string | null;
    try {
      ticket = await opts.ticket();
    } catch {
      return again();
    }
    if (stopped || !ticket) return;
    const q = new URLSearchParams({ ticket });
    if (lastId) q.set('last_event_id', lastId);
    const source = new ES(`${opts.url ?? '/api/events'}?${q}`);
    es = source;
    for (const name of LIVE_EVENTS) {
      source.addEventListener(name, (ev) => {
        const m = ev as MessageEvent<string>;
        if (m.lastEventId) lastId = m.lastEventId;
        if (name === 'hello') delay = 1000;
        if (name === 'end') {
          stopped = true;
          source.close();
          opts.onEnd?.();
          return;
        }
        opts.onEvent({ id: m.lastEventId || undefined, event: name, data: m.data });
      });
    }
    // The ticket is used up: rather than let EventSource retry with it, open anew.
    source.onerror = () => {
      source.close();
      if (es === source) es = null;
      again();
    };
  }

  void connect();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      es?.close();
    },
  };
}
