import { describe, expect, it } from 'vitest';
import { createDuplicateGuard, DuplicateRequestError } from './duplicateGuard';

describe('duplicate guard', () => {
  it('refuses a second write to the same URL within 5 s and allows it after', () => {
    let t = 1000;
    const g = createDuplicateGuard(() => t);
    const k = g.acquire('POST', '/api/user', 'dup');
    expect(() => g.acquire('POST', '/api/user', 'dup')).toThrow(DuplicateRequestError);
    g.release(k);
    t += 4999;
    expect(() => g.acquire('post', 'http://h/api/user', 'dup')).toThrow('dup');
    t += 2;
    expect(g.acquire('POST', '/api/user', 'dup')).toBeTruthy();
  });
  it('keeps refusing while the first write is still pending after 5 s', () => {
    let t = 0;
    const g = createDuplicateGuard(() => t);
    g.acquire('PUT', '/api/x', 'dup');
    t = 10_000;
    expect(() => g.acquire('PUT', '/api/x', 'dup')).toThrow();
  });
  it('lets the annotation autosave repeat but still guards other slide writes', () => {
    const g = createDuplicateGuard(() => 0);
    expect(g.acquire('PUT', '/api/slides/12/annotations', 'dup')).toBeNull();
    expect(g.acquire('PUT', '/api/slides/12/annotations', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/slides/12', 'dup')).toBeTruthy();
    expect(() => g.acquire('POST', '/api/slides/12', 'dup')).toThrow(DuplicateRequestError);
    expect(g.acquire('PUT', '/api/slides/12/annotations/x', 'dup')).toBeTruthy();
  });
  it("lets a meeting's signals, joins and leaves repeat but still guards starting one", () => {
    const g = createDuplicateGuard(() => 0);
    for (const u of ['/api/consultation/meeting/3/signal', '/api/consultation/meeting/3/join', '/api/user/meeting/quit/3'])
      for (let i = 0; i < 3; i++) expect(g.acquire('POST', u, 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/consultation/meeting', 'dup')).toBeTruthy();
    expect(() => g.acquire('POST', '/api/consultation/meeting', 'dup')).toThrow(DuplicateRequestError);
  });
  it('ignores GET/DELETE, different URLs and the role config path', () => {
    const g = createDuplicateGuard(() => 0);
    g.acquire('POST', '/api/user/1', 'dup');
    expect(g.acquire('POST', '/api/user/2', 'dup')).toBeTruthy();
    expect(g.acquire('GET', '/api/user/1', 'dup')).toBeNull();
    expect(g.acquire('DELETE', '/api/user/1', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/user/role/config', 'dup')).toBeNull();
    expect(g.acquire('POST', '/api/user/role/config', 'dup')).toBeNull();
  });
  it('lets a failed write be retried immediately', () => {
    const g = createDuplicateGuard(() => 0);
    const k = g.acquire('PATCH', '/api/a', 'dup');
    g.release(k, true);
    expect(g.acquire('PATCH', '/api/a', 'dup')).toBeTruthy();
  });
});
