import { describe, expect, it } from 'vitest';
import { createDuplicateGuard, DuplicateRequestError, guardBody } from './duplicateGuard';

const json = (o: unknown) => JSON.stringify(o);

describe('duplicate guard', () => {
  it('refuses an identical write while the first is on its way', () => {
    let t = 0;
    const g = createDuplicateGuard(() => t);
    g.acquire('POST', '/api/user', json({ name: 'a' }), 'dup');
    expect(() => g.acquire('post', 'http://h/api/user', json({ name: 'a' }), 'dup')).toThrow(DuplicateRequestError);
    t = 60_000; // still on its way a minute later: still refused
    expect(() => g.acquire('POST', '/api/user', json({ name: 'a' }), 'dup')).toThrow('dup');
  });
  it('lets a write with another body go while one is on its way or just succeeded', () => {
    const g = createDuplicateGuard(() => 0);
    const k = g.acquire('POST', '/api/user', json({ name: 'a' }), 'dup');
    expect(g.acquire('POST', '/api/user', json({ name: 'b' }), 'dup')).toBeTruthy();
    g.release(k);
    expect(g.acquire('POST', '/api/user', json({ name: 'c' }), 'dup')).toBeTruthy();
  });
  it('refuses the same write within 5 s after it succeeded, and allows it after', () => {
    let t = 1000;
    const g = createDuplicateGuard(() => t);
    const k = g.acquire('POST', '/api/diagnosis/5/publish', '', 'dup');
    t += 300;
    g.release(k);
    t += 4699; // 4,999 ms after the first started
    expect(() => g.acquire('POST', '/api/diagnosis/5/publish', '', 'dup')).toThrow(DuplicateRequestError);
    t += 1;
    expect(g.acquire('POST', '/api/diagnosis/5/publish', '', 'dup')).toBeTruthy();
  });
  it('lets a failed write be retried at once, even identical', () => {
    const g = createDuplicateGuard(() => 0);
    const k = g.acquire('PATCH', '/api/a', json({ x: 1 }), 'dup');
    g.release(k, true);
    const k2 = g.acquire('PATCH', '/api/a', json({ x: 1 }), 'dup');
    expect(k2).toBeTruthy();
    g.release(k2, true);
    expect(g.acquire('PATCH', '/api/a', json({ x: 1 }), 'dup')).toBeTruthy();
  });
  it('keeps guarding the other identical write when one of two different ones ends', () => {
    const g = createDuplicateGuard(() => 0);
    const a = g.acquire('PUT', '/api/x', 'a', 'dup');
    g.acquire('PUT', '/api/x', 'b', 'dup');
    g.release(a, true);
    expect(() => g.acquire('PUT', '/api/x', 'b', 'dup')).toThrow(DuplicateRequestError);
    expect(g.acquire('PUT', '/api/x', 'a', 'dup')).toBeTruthy();
  });
  it('refuses an upload (body not read) only while a write to the address is on its way', () => {
    const g = createDuplicateGuard(() => 0);
    const k = g.acquire('POST', '/api/common/upload', null, 'dup');
    expect(() => g.acquire('POST', '/api/common/upload', null, 'dup')).toThrow(DuplicateRequestError);
    g.release(k);
    expect(g.acquire('POST', '/api/common/upload', null, 'dup')).toBeTruthy();
  });
  it('lets the annotation autosave repeat but still guards other slide writes', () => {
    const g = createDuplicateGuard(() => 0);
    expect(g.acquire('PUT', '/api/slides/12/annotations', '[]', 'dup')).toBeNull();
    expect(g.acquire('PUT', '/api/slides/12/annotations', '[]', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/slides/12', '', 'dup')).toBeTruthy();
    expect(() => g.acquire('POST', '/api/slides/12', '', 'dup')).toThrow(DuplicateRequestError);
    expect(g.acquire('PUT', '/api/slides/12/annotations/x', '', 'dup')).toBeTruthy();
  });
  it("lets a meeting's signals, joins and leaves repeat but still guards starting one", () => {
    const g = createDuplicateGuard(() => 0);
    for (const u of ['/api/consultation/meeting/3/signal', '/api/consultation/meeting/3/join', '/api/user/meeting/quit/3'])
      for (let i = 0; i < 3; i++) expect(g.acquire('POST', u, '', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/consultation/meeting', '', 'dup')).toBeTruthy();
    expect(() => g.acquire('POST', '/api/consultation/meeting', '', 'dup')).toThrow(DuplicateRequestError);
  });
  it('ignores GET/DELETE, different URLs and the role config path', () => {
    const g = createDuplicateGuard(() => 0);
    g.acquire('POST', '/api/user/1', '', 'dup');
    expect(g.acquire('POST', '/api/user/2', '', 'dup')).toBeTruthy();
    expect(g.acquire('GET', '/api/user/1', '', 'dup')).toBeNull();
    expect(g.acquire('DELETE', '/api/user/1', '', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/user/role/config', '', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/user/role/config', '', 'dup')).toBeNull();
  });
});

describe('guardBody', () => {
  it('reads JSON and text bodies, not uploads, and leaves the request readable', async () => {
    const r = new Request('http://h/api/a', { method: 'POST', body: json({ a: 1 }), headers: { 'Content-Type': 'application/json' } });
    expect(await guardBody(r)).toBe('{"a":1}');
    expect(await r.json()).toEqual({ a: 1 });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.jpg');
    expect(await guardBody(new Request('http://h/api/common/upload', { method: 'POST', body: form }))).toBeNull();
    expect(await guardBody(new Request('http://h/api/a', { method: 'POST' }))).toBe('');
    expect(await guardBody(new Request('http://h/api/a'))).toBe('');
  });
});
