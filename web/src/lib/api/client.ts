// The typed API client (openapi-fetch) with the app's middleware: bearer token,
// user-language header, duplicate-write guard, 401 and 423 handling.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { session } from '../session';
import { languageStore } from '../prefs';
import { signInText } from '../signInTexts';
import { createDuplicateGuard, guardBody, type GuardTicket } from './duplicateGuard';

const guard = createDuplicateGuard();
const pending = new Map<string, GuardTicket | null>();
const unauthorizedListeners = new Set<() => void>();

/** Registers what to do when the server says the session is gone (the app navigates to /login). */
export function onUnauthorized(fn: () => void): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

export const headersMiddleware: Middleware = {
  onRequest({ request }) {
    const token = session.token();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    request.headers.set('user-language', languageStore.get());
    return request;
  },
};

export const duplicateMiddleware: Middleware = {
  async onRequest({ request, id }) {
    const body = await guardBody(request);
    pending.set(id, guard.acquire(request.method, request.url, body, signInText('request.duplicate')));
    return undefined;
  },
  onResponse({ response, id }) {
    guard.release(pending.get(id) ?? null, !response.ok);
    pending.delete(id);
    return undefined;
  },
  onError({ id, error }) {
    guard.release(pending.get(id) ?? null, true);
    pending.delete(id);
    return error instanceof Error ? error : new Error(String(error));
  },
};

export const unauthorizedMiddleware: Middleware = {
  onResponse({ response, request }) {
    if (response.status === 401 && !new URL(request.url, 'http://x').pathname.endsWith('/auth/login')) {
      session.clear();
      unauthorizedListeners.forEach((l) => l());
    }
    // 423: the screen of this session was locked (in another tab): show the lock screen here too.
    if (response.status === 423 && !session.get().locked) session.setLocked(true);
    return undefined;
  },
};

export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  querySerializer: { array: { style: 'form', explode: true } },
  // Resolved per call so tests (and polyfills) can replace fetch after start-up.
  fetch: (req: Request) => globalThis.fetch(req),
});
api.use(headersMiddleware, duplicateMiddleware, unauthorizedMiddleware);
