import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { i18n } from '../lib/i18n';
import { session } from '../lib/session';
import { routes } from './router';
import { fakeServer, jsonError } from '../test/fakeServer';
import { safeRedirect } from '../features/auth/LoginPage';

const entry = (uri: string, children: unknown[] = []) => ({ name: uri, en_name: uri, alias: '', uri, route_name: uri, is_show: '1', icon_path: 'TeamOutlined', children, count: '', count_color: '', index: 0, active_menu: '', menu: true, header: true });
const info = { user: { id: 1, username: 'admin', name: '管理员', phone: '', email: '', work_no: '' }, roles: [{ role: 'admin', config: {} }], centers: [], hospitals: [], settings: { idle_timeout_minutes: 30 } };
const config = { language: 'zh-CN', page_title: '测试平台', page_icon: '/favicon.svg', show_meeting: false, captcha_enable: false, watermark: { flag: false, text: '', fontSize: 16, fontColor: '' } };

function start(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <I18nextProvider i18n={i18n}>
      <AntApp>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </I18nextProvider>,
  );
  return router;
}

describe('routes and session', () => {
  beforeEach(() => session.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('sends a visitor without a token to /login with the redirect target', async () => {
    fakeServer({ 'GET /api/config/setting': () => config, 'GET /api/common/captcha': () => ({ enabled: false, key: '', image: '' }) });
    const router = start('/system/user?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/system/user?page=2');
    expect(await screen.findByTestId('login-submit')).toBeInTheDocument();
  });

  it('/ goes to /login and unknown paths to /404', async () => {
    fakeServer({ 'GET /api/config/setting': () => config });
    const router = start('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await router.navigate('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it('/manage lands on the first leaf of the first menu', async () => {
    session.signIn('tok', 1, false);
    fakeServer({
      'GET /api/config/setting': () => config,
      'GET /api/auth/info': () => info,
      'GET /api/menu': () => [entry('/system', [entry('/account'), entry('/system/user')])],
      'GET /api/role': () => [],
    });
    const router = start('/manage');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
  });

  it('a failing user-info call clears the session and returns to login', async () => {
    session.signIn('stale', 1, true);
    fakeServer({ 'GET /api/config/setting': () => config, 'GET /api/auth/info': () => jsonError(401, { message: '登录已失效' }) });
    const router = start('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(session.get().token).toBeNull();
    expect(router.state.location.search).toContain('redirect=%2Faccount');
  });
});

describe('safeRedirect', () => {
  it('accepts only same-site paths', () => {
    expect(safeRedirect('/system/user?page=2')).toBe('/system/user?page=2');
    expect(safeRedirect('https://evil.example')).toBe('/manage');
    expect(safeRedirect('//evil.example')).toBe('/manage');
    expect(safeRedirect('/login?redirect=x')).toBe('/manage');
    expect(safeRedirect(null)).toBe('/manage');
  });
});

describe('forced password change', () => {
  beforeEach(() => session.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('a user whose password an administrator set sees only the change-password page until it is changed', async () => {
    session.signIn('tok', 1, false);
    let mustChange = true;
    fakeServer({
      'GET /api/config/setting': () => config,
      'GET /api/auth/info': () => ({ ...info, user: { ...info.user, must_change_password: mustChange } }),
      'GET /api/menu': () => [entry('/system', [entry('/account'), entry('/system/user')])],
      'GET /api/role': () => [],
    });
    const router = start('/system/user');
    expect(await screen.findByTestId('forced-password', {}, { timeout: 10000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/password');
    await router.navigate('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/password'));
    mustChange = false;
  });
});
