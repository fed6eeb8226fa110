import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, onUnauthorized } from './client';
import { session } from '../session';
import { languageStore } from '../prefs';
import { unwrap, ApiError } from './errors';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('api client middleware', () => {
  beforeEach(() => session.clear());

  it('sends the bearer token and the user-language header', async () => {
    session.signIn('tok-1', 7, true);
    languageStore.set('en-US');
    const fetch = vi.fn(async (_req: Request) => json(200, { data: [] }));
    await api.GET('/api/role', { fetch });
    const req = fetch.mock.calls[0][0];
    expect(req.headers.get('Authorization')).toBe('Bearer tok-1');
    expect(req.headers.get('user-language')).toBe('en-US');
    languageStore.set('zh-CN');
  });

  it('clears the session and notifies on 401', async () => {
    session.signIn('tok-2', 7, false);
    const listener = vi.fn();
    const off = onUnauthorized(listener);
    const res = await api.GET('/api/auth/info', { fetch: async () => json(401, { message: '登录已过期' }) });
    off();
    expect(listener).toHaveBeenCalledOnce();
    expect(session.get().token).toBeNull();
    expect(() => unwrap(res)).toThrow(ApiError);
  });

  it('shows the lock screen when the server says the session is locked (423)', async () => {
    session.signIn('tok-3', 7, true);
    await api.GET('/api/auth/info', { fetch: async () => json(423, { message: '屏幕已锁定，请输入密码解锁' }) });
    expect(session.get().locked).toBe(true);
    expect(session.get().token).toBe('tok-3');
  });

  it('refuses a repeated write to the same URL with the localized message', async () => {
    let release: (r: Response) => void = () => {};
    const slow = () => new Promise<Response>((r) => (release = r));
    const first = api.POST('/api/user/status/{id}', { params: { path: { id: 1 } }, body: { status: 0 }, fetch: slow });
    await expect(api.POST('/api/user/status/{id}', { params: { path: { id: 1 } }, body: { status: 0 }, fetch: slow })).rejects.toThrow('外部端口正在请求中，请勿重复请求');
    await new Promise((r) => setTimeout(r, 0));
    release(json(200, { data: {} }));
    await first;
  });

  it('sends a write again at once after it failed, and a changed one after it succeeded', async () => {
    const send = (status: number, body: { status: 0 | 1 }) =>
      api.POST('/api/user/status/{id}', { params: { path: { id: 2 } }, body, fetch: async () => json(status, status === 200 ? { data: {} } : { message: '数据校验失败' }) });
    expect((await send(422, { status: 1 })).response.status).toBe(422);
    expect((await send(200, { status: 1 })).response.status).toBe(200);
    await expect(send(200, { status: 1 })).rejects.toThrow('外部端口正在请求中，请勿重复请求');
    expect((await send(200, { status: 0 })).response.status).toBe(200);
  });

  it('maps field errors from the error body', async () => {
    const res = await api.POST('/api/user', { body: { username: 'x', name: 'y', roles: [] }, fetch: async () => json(422, { message: '数据校验失败', errors: { username: ['用户名已存在'] } }) });
    try {
      unwrap(res);
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).message).toBe('数据校验失败');
      expect((e as ApiError).fieldErrors).toEqual({ username: ['用户名已存在'] });
    }
  });
});
