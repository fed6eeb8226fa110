import type { Page } from '@playwright/test';
import { expect, test } from '../lib/test';
import { apiLogin, createHospital, findUser, list, menu, unique, visibleMenuNames } from '../lib/api';
import { fieldError, input, pickOption } from '../lib/antd';
import { login, logout, menuItem, openAllGroups, signInWithToken, toast } from '../lib/ui';

const CENTER = '华东远程病理会诊中心';

async function createSiteUserInUi(page: Page, username: string, password: string, hospital: string) {
  await menuItem(page, '用户管理').click();
  await expect(page).toHaveURL(/\/system\/user/);
  await page.getByTestId('user-create').click();
  const ud = page.getByTestId('user-drawer');
  await input(ud, '用户名').fill(username);
  await input(ud, '姓名').fill('端到端站点用户');
  await input(ud, '初始密码').fill(password);
  await pickOption(page, ud, '角色', '站点');
  await pickOption(page, ud, '所属医院', hospital);
  await ud.getByTestId('drawer-submit').click();
  // The hospital's own "saved" may still be showing: the newest is the user's.
  await expect(toast(page).getByText('保存成功').last()).toBeVisible();
  await expect(ud).toBeHidden();
  const userRow = page.getByRole('row').filter({ has: page.getByTestId(`user-actions-${username}`) });
  await expect(userRow).toContainText(hospital);
  await expect(userRow).toContainText('站点');

  const created = await findUser(await apiLogin('admin'), username);
  expect(created?.roles).toEqual(['site']);
  expect(created?.hospitals?.map((h) => h.name)).toEqual([hospital]);
}

async function newUserSeesSiteMenu(page: Page, username: string, password: string) {
  await logout(page);
  await login(page, username, password);
  const expected = visibleMenuNames(await menu(await apiLogin(username, password)));
  expect(expected).toContain('个人设置');
  await openAllGroups(page);
  for (const name of expected) await expect(menuItem(page, name).first()).toBeVisible();
  await expect(menuItem(page, '用户管理')).toHaveCount(0);
  await expect(page.getByTestId('user-menu')).toContainText('端到端站点用户');
}

test('an admin creates a hospital and a site user bound to it; the new user signs in and sees the site menu', async ({ page }) => {
  const suffix = unique('');
  const hospital = `E2E测试医院${suffix}`;
  const username = `site_${suffix}`;
  const password = 'NewSite#2026';

  await signInWithToken(page, 'admin', { to: '/site/manage' });
  await expect(page.getByRole('heading', { name: '医院管理' })).toBeVisible();
  await page.getByTestId('hospital-create').click();
  const hd = page.getByTestId('hospital-drawer');
  await expect(hd.getByText('新建医院')).toBeVisible();
  await input(hd, '医院名称').fill(hospital);
  await input(hd, '简称').fill(`E2E${suffix}`);
  await input(hd, '编号').fill(`E${suffix}`.slice(0, 12));
  await input(hd, '公网 IP').fill('203.0.113.77');
  await input(hd, '端口').fill('8443');
  await pickOption(page, hd, '绑定中心', CENTER);
  await hd.getByTestId('drawer-submit').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await expect(hd).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: hospital });
  await expect(row).toBeVisible();
  await expect(row).toContainText('203.0.113.77:8443');
  await expect(row).toContainText(CENTER);

  await createSiteUserInUi(page, username, password, hospital);
  await newUserSeesSiteMenu(page, username, password);
});

test('an admin creates a site user for an existing hospital; the new user signs in and sees the site menu', async ({ page }) => {
  const suffix = unique('');
  const hospital = `E2E既有医院${suffix}`;
  const username = `site_b${suffix}`;
  const password = 'NewSite#2026';
  const token = await signInWithToken(page, 'admin', { to: '/site/manage' });
  await createHospital(token, hospital, `B${suffix}`.slice(0, 12));
  await createSiteUserInUi(page, username, password, hospital);
  await newUserSeesSiteMenu(page, username, password);
});

test.describe('bad input is refused with field errors and nothing is created', () => {
  test('a hospital without its required fields and with a bad IP', async ({ page }) => {
    const token = await signInWithToken(page, 'admin', { to: '/site/manage' });
    const marker = unique('无名医院地址');
    await page.getByTestId('hospital-create').click();
    const hd = page.getByTestId('hospital-drawer');
    await input(hd, '公网 IP').fill('300.1.2');
    await input(hd, '地址').fill(marker);
    await hd.getByTestId('drawer-submit').click();
    for (const msg of ['请输入医院名称', '请输入简称', '请输入编号', '请输入端口', 'IP 地址格式不正确']) {
      await expect(fieldError(hd, msg)).toBeVisible();
    }
    await expect(hd).toBeVisible();
    await hd.getByRole('button', { name: /取\s*消/ }).click();
    await expect(hd).toBeHidden();
    expect((await list(token, '/api/hospital/list', { page: 1, page_size: 1, search: marker })).meta?.pagination?.total).toBe(0);
  });

  test('a user with a weak password, a bad e-mail and no role', async ({ page }) => {
    const token = await signInWithToken(page, 'admin', { to: '/system/user' });
    const username = unique('weak_');
    await page.getByTestId('user-create').click();
    const ud = page.getByTestId('user-drawer');
    await input(ud, '用户名').fill(username);
    await input(ud, '姓名').fill('弱密码');
    await input(ud, '初始密码').fill('abc123');
    await input(ud, '邮箱').fill('not-an-email');
    await ud.getByTestId('drawer-submit').click();
    await expect(fieldError(ud, '密码强度不足')).toBeVisible();
    await expect(fieldError(ud, '邮箱格式不正确')).toBeVisible();
    await expect(fieldError(ud, '请输入角色')).toBeVisible();
    await expect(ud).toBeVisible();
    expect(await findUser(token, username)).toBeUndefined();
  });

  test('the server refuses a duplicate user name and the form shows why', async ({ page }) => {
    await signInWithToken(page, 'admin', { to: '/system/user' });
    await page.getByTestId('user-create').click();
    const ud = page.getByTestId('user-drawer');
    await input(ud, '用户名').fill('expert');
    await input(ud, '姓名').fill('重复用户');
    await input(ud, '初始密码').fill('Strong#Pass2026');
    await pickOption(page, ud, '角色', '专家');
    await ud.getByTestId('drawer-submit').click();
    await expect(toast(page).locator('.ant-message-error')).toBeVisible();
    await expect(ud.locator('.ant-form-item-explain-error').first()).toBeVisible();
    await expect(ud).toBeVisible();
  });
});
