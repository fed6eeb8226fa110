import { vi } from 'vitest';

type Handler = (req: Request, url: URL) => unknown | Response | Promise<unknown | Response>;

/** Stubs global fetch with "METHOD /path" handlers; plain values become `{data: value}`. */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: Request[] = [];
  const fetch = vi.fn(async (input: Request) => {
    const url = new URL(input.url);
    calls.push(input);
    const h = routes[`${input.method} ${url.pathname}`];
    if (!h) return new Response(JSON.stringify({ message: `no route ${url.pathname}` }), { status: 404, headers: { 'Content-Type': 'application/json' } });
    const out = await h(input, url);
    return out instanceof Response ? out : new Response(JSON.stringify({ data: out }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls };
}

export const jsonError = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
