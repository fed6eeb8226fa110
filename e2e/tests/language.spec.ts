import { expect, test } from '../lib/test';
import { loginForm, menuItem, signInWithToken, submitLogin, switchLanguage, toast } from '../lib/ui';

test.describe('language switch', () => {
  test('on the login page: English labels and English server errors, then back to Chinese', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();

    await switchLanguage(page, 'en-US');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.getByTestId('login-submit')).toHaveText(/Sign in/);

    await submitLogin(page, 'third', 'Wrong#Pass1');
    await expect(toast(page).getByText('Wrong user name or password')).toBeVisible();
    await submitLogin(page, 'third', undefined, '0000');
    await expect(page.getByText('Wrong captcha').first()).toBeVisible();

    // The choice is remembered across a reload.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await switchLanguage(page, 'zh-CN');
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
    await submitLogin(page, 'third', 'Wrong#Pass1');
    await expect(toast(page).getByText('用户名或密码错误').first()).toBeVisible();
    await expect(loginForm(page).submit).toHaveText(/登\s*录/);
  });

  test('in the shell header: menus, page titles and server messages follow the language', async ({ page }) => {
    await signInWithToken(page, 'admin', { to: '/system/user' });
    await expect(menuItem(page, '用户管理')).toBeVisible();
    await expect(page.getByRole('heading', { name: '用户管理' })).toBeVisible();

    await switchLanguage(page, 'en-US');
    await expect(menuItem(page, 'Users')).toBeVisible();
    await expect(menuItem(page, 'Hospitals')).toBeVisible();
    await expect(menuItem(page, 'Operation log')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Username' })).toBeVisible();
    await expect(page.getByTestId('user-create')).toHaveText(/New user/);

    // A server-side validation message comes back in English: lock the screen, give a wrong password.
    await page.getByTestId('lock-screen').click();
    const overlay = page.getByTestId('lock-overlay');
    await overlay.getByLabel('Password').fill('Wrong#Pass1');
    await overlay.getByTestId('unlock-submit').click();
    await expect(toast(page).getByText('Wrong password')).toBeVisible();
    await overlay.getByLabel('Password').fill('Telepath@2026');
    await overlay.getByTestId('unlock-submit').click();
    await expect(overlay).toBeHidden();

    await switchLanguage(page, 'zh-CN');
    await expect(menuItem(page, '用户管理')).toBeVisible();
    await expect(page.getByRole('heading', { name: '用户管理' })).toBeVisible();
  });
});
