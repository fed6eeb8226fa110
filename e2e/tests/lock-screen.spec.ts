import { expect, test } from '../lib/test';
import { menuItem, signInWithToken, toast } from '../lib/ui';

test('screen lock: navigation is blocked, a wrong password is refused, the right one unlocks', async ({ page }) => {
  await signInWithToken(page, 'center_admin', { to: '/system/user' });
  await expect(page.getByRole('heading', { name: '用户管理' })).toBeVisible();

  await page.getByTestId('lock-screen').click();
  const overlay = page.getByTestId('lock-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay.getByRole('heading')).toHaveText(/.+/);

  // A real click lands on the overlay; a click that reaches the menu item (dispatched to it)
  // asks the router to navigate, and the screen lock cancels that navigation.
  await expect(menuItem(page, '医院管理')).toBeAttached();
  await menuItem(page, '医院管理').dispatchEvent('click');
  await expect(page).toHaveURL(/\/system\/user/);
  await expect(page.getByRole('heading', { name: '用户管理' })).toBeVisible();
  await expect(overlay).toBeVisible();

  // The lock survives a reload.
  await page.reload();
  await expect(overlay).toBeVisible();

  await overlay.getByLabel('登录密码').fill('Wrong#Pass1');
  await overlay.getByTestId('unlock-submit').click();
  await expect(toast(page).getByText('密码错误')).toBeVisible();
  await expect(overlay).toBeVisible();
  await expect(overlay.getByLabel('登录密码')).toHaveValue('');

  await overlay.getByLabel('登录密码').fill('Telepath@2026');
  await overlay.getByTestId('unlock-submit').click();
  await expect(overlay).toBeHidden();

  await menuItem(page, '医院管理').click();
  await expect(page).toHaveURL(/\/site\/manage/);
});
