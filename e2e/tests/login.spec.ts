import { expect, test } from '../lib/test';
import { apiLogin, menu } from '../lib/api';
import { login, loginForm, sideMenu, submitLogin, toast } from '../lib/ui';

test.describe('sign-in', () => {
  test('a wrong captcha shows the captcha error and loads a new captcha image', async ({ page }) => {
    await page.goto('/login');
    const f = loginForm(page);
    await expect(f.captchaImage).toBeVisible();
    const before = await f.captchaImage.getAttribute('src');

    const fresh = page.waitForResponse((r) => r.url().includes('/api/common/captcha') && r.status() === 200);
    await submitLogin(page, 'staff', undefined, '1357');
    await fresh;

    await expect(page.getByText('验证码错误').first()).toBeVisible();
    await expect(f.captchaImage).not.toHaveAttribute('src', before ?? '');
    await expect(f.captcha).toHaveValue('');
    await expect(page).toHaveURL(/\/login/);
  });

  test('a wrong password says "用户名或密码错误" and stays on the login page', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, 'staff', 'Wrong#Pass1');
    await expect(toast(page).getByText('用户名或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    // An unknown user name gets the same answer (no user enumeration).
    await submitLogin(page, 'nobody_here', 'Wrong#Pass1');
    await expect(toast(page).getByText('用户名或密码错误').first()).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test('the right password lands on the first page of the first menu', async ({ page }) => {
    const expected = await menu(await apiLogin('admin'));
    const first = expected[0].children?.length ? expected[0].children[0] : expected[0];
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await login(page, 'admin');
    await expect(page).toHaveURL(new RegExp(`${first.uri}$`));
    await expect(sideMenu(page).getByText(first.name, { exact: true })).toBeVisible();
  });

  test('a signed-out visit to /system/user goes to /login?redirect=… and returns there after sign-in', async ({ page }) => {
    await page.goto('/system/user?page=1');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/system/user?page=1');
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/system\/user\?page=1/);
    await expect(page.getByRole('heading', { name: '用户管理' })).toBeVisible();
  });

  test('a redirect to another site is ignored after sign-in', async ({ page }) => {
    await page.goto('/login?redirect=//evil.example/x');
    await login(page, 'center_admin');
    // The user lands on their own first page, never on the other site.
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/(?!login)[a-z]/);
  });
});
