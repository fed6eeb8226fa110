import { expect, test } from '../lib/test';
import { apiLogin, call, encryptPassword, menu, PASSWORD, unique, visibleMenuNames } from '../lib/api';
import { login, logout, menuItem, submitLogin, toast, openAllGroups } from '../lib/ui';

/** A QC expert of the demo center made for this test, so that locking it disturbs no other spec (and no list of experts). */
async function ownExpert(): Promise<string> {
  const username = unique('lock');
  const admin = await apiLogin('admin');
  const r = await call('POST', '/api/user', {
    token: admin,
    body: { username, name: '锁定测试质控专家', password: await encryptPassword(PASSWORD), status: 1, roles: ['qc_expert'], center_ids: [1] },
  });
  if (r.status !== 200) throw new Error(`create user → ${r.status}: ${JSON.stringify(r.body)}`);
  return username;
}

test('five wrong passwords make this browser wait (the account is not locked); an admin clears the wait on the users screen; the user signs in', async ({ page }) => {
  const user = await ownExpert();
  await page.goto('/login');
  for (let i = 1; i <= 5; i++) {
    // Each attempt's own answer is read (its toast can stand beside the previous one's; waiting
    // for every toast to go cost three seconds an attempt).
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/login') && r.request().method() === 'POST');
    await submitLogin(page, user, `Wrong#Pass${i}`);
    const res = await answer;
    expect(res.status()).toBe(401);
    expect(await res.text()).toContain('用户名或密码错误');
    await expect(toast(page).getByText('用户名或密码错误').first()).toBeVisible();
  }
  // This address now waits, even with the right password; the message says how long.
  await submitLogin(page, user);
  await expect(toast(page).getByText(/密码错误次数过多，请 \d+ 秒后再试/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // Another account from the same browser is not slowed down.
  const other = await apiLogin('expert');
  expect(other).toBeTruthy();

  // The admin sees it in the "locked" tab and removes the lock.
  await login(page, 'admin');
  await page.goto('/system/user');
  await page.getByTestId('tab-locked').click();
  await expect(page).toHaveURL(/params=.*locked/);
  const row = page.getByRole('row').filter({ has: page.getByTestId(`user-actions-${user}`) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '解除锁定' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: `解除用户 ${user} 的登录锁定` });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('操作成功')).toBeVisible();
  await expect(page.getByTestId(`user-actions-${user}`)).toHaveCount(0);

  // The user signs in and sees its own menu.
  await logout(page);
  await login(page, user);
  const names = visibleMenuNames(await menu(await apiLogin(user)));
  expect(names.length).toBeGreaterThan(0);
  await openAllGroups(page);
  for (const n of names) await expect(menuItem(page, n).first()).toBeVisible();
});
