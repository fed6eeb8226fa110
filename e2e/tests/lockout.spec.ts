import { expect, test } from '../lib/test';
import { apiLogin, menu, visibleMenuNames } from '../lib/api';
import { login, logout, menuItem, submitLogin, toast, openAllGroups } from '../lib/ui';

// expert2 is locked and unlocked here only; no other spec signs in as expert2.
test('five wrong passwords lock expert2; an admin unlocks it on the users screen; expert2 signs in', async ({ page }) => {
  await page.goto('/login');
  for (let i = 1; i <= 4; i++) {
    await submitLogin(page, 'expert2', `Wrong#Pass${i}`);
    await expect(toast(page).getByText('用户名或密码错误').nth(0)).toBeVisible();
    // Wait for this attempt's toast to go before the next one, so each answer is seen.
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  }
  await submitLogin(page, 'expert2', 'Wrong#Pass5');
  await expect(toast(page).getByText(/账号已锁定/)).toBeVisible();
  await expect(toast(page).getByText(/15 分钟/)).toBeVisible();

  // Locked: even the right password is refused now.
  await submitLogin(page, 'expert2');
  await expect(toast(page).getByText(/账号已锁定/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // The admin sees it in the "locked" tab and removes the lock.
  await login(page, 'admin');
  await page.goto('/system/user');
  await page.getByTestId('tab-locked').click();
  await expect(page).toHaveURL(/params=.*locked/);
  const row = page.getByRole('row').filter({ has: page.getByTestId('user-actions-expert2') });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '解除锁定' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: '解除用户 expert2 的登录锁定' });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('操作成功')).toBeVisible();
  await expect(page.getByTestId('user-actions-expert2')).toHaveCount(0);

  // expert2 signs in and sees its own menu.
  await logout(page);
  await login(page, 'expert2');
  const names = visibleMenuNames(await menu(await apiLogin('expert2')));
  expect(names.length).toBeGreaterThan(0);
  await openAllGroups(page);
  for (const n of names) await expect(menuItem(page, n).first()).toBeVisible();
});
