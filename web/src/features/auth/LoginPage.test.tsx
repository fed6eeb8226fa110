import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer, jsonError } from '../../test/fakeServer';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import LoginPage from './LoginPage';

vi.mock('../../lib/passwordCipher', () => ({ encryptForServer: async (p: string) => `enc(${p})`, preparePasswordCipher: () => undefined }));

const config = { language: 'zh-CN', page_title: '测试平台', page_icon: '', show_meeting: false, captcha_enable: true, watermark: { flag: false, text: '', fontSize: 16, fontColor: '' } };

describe('LoginPage', () => {
  beforeEach(() => session.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server message, clears and refreshes the captcha on failure', async () => {
    let captchas = 0;
    const server = fakeServer({
      'GET /api/config/setting': () => config,
      'GET /api/common/captcha': () => ({ enabled: true, key: `k${++captchas}`, image: 'data:image/png;base64,AAAA' }),
      'POST /api/auth/login': () => jsonError(422, { message: '验证码错误', errors: { captcha_code: ['验证码错误'] } }),
    });
    renderAt(<LoginPage />, '/login', '/login');
    await screen.findByAltText('验证码');
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } });
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: 'abcd' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect((await screen.findAllByText('验证码错误')).length).toBeGreaterThan(0);
    // The server's message also as antd's toast (loaded with the first error).
    await waitFor(() => expect(document.querySelector('.ant-message')?.textContent).toContain('验证码错误'));
    const login = server.calls.find((r) => r.url.endsWith('/api/auth/login'))!;
    expect(await login.clone().json()).toEqual({ username: 'admin', password: 'enc(secret)', captcha_key: 'k1', captcha_code: 'abcd' });
    await waitFor(() => expect(captchas).toBe(2));
    expect(session.get().token).toBeNull();
  });

  it('stores the session and goes to the redirect target on success', async () => {
    fakeServer({
      'GET /api/config/setting': () => ({ ...config, captcha_enable: false }),
      'POST /api/auth/login': () => ({ token: 'tok-9', expires_at: '', user: { id: 3, username: 'admin', name: 'A' } }),
    });
    const { router } = renderAt(<LoginPage />, '/login?redirect=%2Fsite%2Fmanage', '*');
    await screen.findByText('测试平台');
    expect(screen.queryByTestId('captcha-image')).toBeNull();
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: ' admin ' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'pw' } });
    fireEvent.submit(screen.getByTestId('login-submit').closest('form')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/site/manage'));
    expect(session.get()).toMatchObject({ token: 'tok-9', userId: 3 });
    expect(localStorage.getItem('tp.token')).toBe('tok-9');
  });

  it("shows the administrator's sign-in logo, named by the platform's title", async () => {
    const logo = 'data:image/png;base64,iVBORw0KGgo=';
    fakeServer({ 'GET /api/config/setting': () => ({ ...config, captcha_enable: false, login_logo: logo }) });
    renderAt(<LoginPage />, '/login', '/login');
    const img = await screen.findByTestId('login-logo');
    expect(img.getAttribute('src')).toBe(logo);
    expect(img.getAttribute('alt')).toBe('测试平台');
  });

  it('an empty submit names each missing field, sends nothing, and the message goes once the field is filled', async () => {
    const server = fakeServer({
      'GET /api/config/setting': () => config,
      'GET /api/common/captcha': () => ({ enabled: true, key: 'k1', image: 'data:image/png;base64,AAAA' }),
    });
    renderAt(<LoginPage />, '/login', '/login');
    await screen.findByAltText('验证码');
    fireEvent.click(screen.getByTestId('login-submit'));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['请输入用户名', '请输入密码', '请输入验证码']);
    expect(screen.getByLabelText('用户名')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('用户名')).toHaveAccessibleDescription('请输入用户名');
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } });
    expect(screen.queryByText('请输入用户名')).toBeNull();
    expect(screen.getByLabelText('用户名')).not.toHaveAttribute('aria-invalid');
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: '  ' } });
    expect(screen.getByText('请输入用户名')).toBeInTheDocument();
    expect(server.calls.some((r) => r.url.endsWith('/api/auth/login'))).toBe(false);
  });

  it('shows and hides the password with a labelled toggle, and speaks English once chosen', async () => {
    fakeServer({ 'GET /api/config/setting': () => ({ ...config, captcha_enable: false }) });
    renderAt(<LoginPage />, '/login', '/login');
    const password = screen.getByLabelText('密码');
    expect(password).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: '显示密码' });
    fireEvent.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(toggle);
    expect(password).toHaveAttribute('type', 'password');
    try {
      languageStore.set('en-US');
      expect(await screen.findByLabelText('Password')).toBe(password);
      expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
      expect(document.documentElement.lang).toBe('en-US');
    } finally {
      languageStore.set('zh-CN');
    }
  });
});
