import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { i18n } from '../lib/i18n';
import { session } from '../lib/session';
import { routes } from './router';
import { fakeServer, jsonError } from '../test/fakeServer';

vi.mock('../lib/passwordCipher', () => ({ encryptForServer: async (p: string) => `enc(${p})` }));

const info = { user: { id: 1, username: 'admin', name: '王医生', phone: '', email: '', work_no: '', must_change_password: false }, roles: [], centers: [], hospitals: [], settings: { idle_timeout_minutes: 30 } };

function start(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <I18nextProvider i18n={i18n}>
      <AntApp>
        <QueryClientProvider client={new QueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </I18nextProvider>,
  );
  return router;
}

describe('screen lock', () => {
  beforeEach(() => session.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('blocks navigation while locked, survives in storage and unlocks with the password', async () => {
    let attempts = 0;
    let serverLocked = false;
    fakeServer({
      'GET /api/config/setting': () => ({ language: 'zh-CN', page_title: 'T', page_icon: '', show_meeting: false, captcha_enable: false }),
      'GET /api/auth/info': () => info,
      'GET /api/menu': () => [],
      'GET /api/role': () => [],
      'POST /api/system_management/users/lock_screen': () => {
        serverLocked = true;
        return {};
      },
      'POST /api/system_management/users/lock_screen_verify': () => (++attempts === 1 ? jsonError(422, { message: '密码错误' }) : { ok: true }),
    });
    session.signIn('tok', 1, true);
    const router = start('/account');
    fireEvent.click(await screen.findByTestId('lock-screen', {}, { timeout: 10000 }));
    expect(await screen.findByTestId('lock-overlay')).toBeInTheDocument();
    await waitFor(() => expect(serverLocked).toBe(true));
    expect(localStorage.getItem('tp.locked')).toBe('1');
    expect(within(screen.getByTestId('lock-overlay')).getByText('王医生')).toBeInTheDocument();

    await router.navigate('/system/user');
    expect(router.state.location.pathname).toBe('/account');

    fireEvent.change(screen.getByLabelText('登录密码'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByTestId('unlock-submit'));
    expect(await screen.findByText('密码错误')).toBeInTheDocument();
    expect(screen.getByTestId('lock-overlay')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('登录密码'), { target: { value: 'right' } });
    fireEvent.click(screen.getByTestId('unlock-submit'));
    await waitFor(() => expect(screen.queryByTestId('lock-overlay')).toBeNull());
    expect(session.get().locked).toBe(false);
    await router.navigate('/404');
    expect(router.state.location.pathname).toBe('/404');
  });

  it('after a reload while locked shows only the lock screen, with the stored name, without loading the user', async () => {
    const { calls } = fakeServer({
      'GET /api/config/setting': () => ({ language: 'zh-CN', page_title: 'T', page_icon: '', show_meeting: false, captcha_enable: false }),
      'GET /api/auth/info': () => jsonError(423, { message: '屏幕已锁定' }),
    });
    session.signIn('tok', 1, true);
    session.setLocked(true, '王医生');
    start('/system/user');
    const overlay = await screen.findByTestId('lock-overlay');
    expect(within(overlay).getByText('王医生')).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/api/auth/info'))).toBe(false);
    expect(session.get().token).toBe('tok');
  });
});
