import { expect, test } from '../lib/test';
import { apiLogin, call, unique } from '../lib/api';
import { fieldError, input } from '../lib/antd';
import { signInWithToken, toast } from '../lib/ui';

test('an admin sets up a pathology library: the number rule previews as it is typed, a duplicate name is refused', async ({ page }) => {
  const name = `E2E病理库${unique('')}`;
  const taken = `${name}-已有`;
  const admin = await apiLogin('admin');
  expect((await call('POST', '/api/config/library', { token: admin, body: { name: taken, prefix: 'DUP', report_kind: 'routine' } })).status).toBe(200);
  await signInWithToken(page, 'admin', { to: '/bank/manage' });
  await expect(page.getByRole('heading', { name: '病理库管理' })).toBeVisible();

  await page.getByTestId('library-create').click();
  const d = page.getByTestId('library-drawer');
  await input(d, '前缀').fill('E2E');
  await input(d, '分隔符').fill('_');
  await input(d, '序号位数').fill('4');
  const year = new Date().getFullYear();
  await expect(d.getByTestId('library-example')).toHaveText(`E2E${year}_0001`);
  await input(d, '前缀').fill('病理');
  await expect(fieldError(d, '只能包含字母、数字、_ 或 -')).toBeVisible();
  await input(d, '前缀').fill('E2E');

  // A name another library has at the same level: the server says why, the drawer stays open.
  await input(d, '名称').fill(taken);
  await d.getByTestId('drawer-submit').click();
  await expect(fieldError(d, '同级下已有同名病理库')).toBeVisible();
  await expect(d).toBeVisible();

  await input(d, '名称').fill(name);
  await d.getByTestId('drawer-submit').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name }).filter({ hasNotText: taken });
  await expect(row).toContainText(`E2E${year}_0001`);
  await expect(row).toContainText('常规');
});

test('an admin adds a charge item and a timeout; both appear in their lists', async ({ page }) => {
  const item = `E2E会诊费${unique('')}`;
  await signInWithToken(page, 'admin', { to: '/setting/chargeItem' });
  await expect(page.getByRole('heading', { name: '收费项目' })).toBeVisible();
  await page.getByTestId('charge-item-create').click();
  const d = page.getByTestId('charge-item-drawer');
  await d.getByTestId('drawer-submit').click();
  await expect(fieldError(d, '请输入项目名称')).toBeVisible();
  await input(d, '项目名称').fill(item);
  await input(d, '单价（元）').fill('128.5');
  await input(d, '项目编码').fill(`E2E${unique('')}`.slice(0, 20));
  await d.getByTestId('drawer-submit').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: item })).toContainText('¥128.50');

  const timeout = `E2E时限${unique('')}`;
  await page.goto('/setting/timeoutConfig');
  await expect(page.getByRole('heading', { name: '超时配置' })).toBeVisible();
  await page.getByTestId('timeout-create').click();
  const td = page.getByTestId('timeout-drawer');
  await input(td, '名称').fill(timeout);
  await input(td, '诊断时限').fill('48');
  await input(td, '提前提醒').fill('60');
  await td.getByTestId('drawer-submit').click();
  await expect(td.locator('.ant-form-item-explain-error')).toBeVisible();
  await input(td, '提前提醒').fill('12');
  await td.getByTestId('drawer-submit').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: timeout });
  await expect(row).toContainText('48 小时');
  await expect(row).toContainText('12 小时');
});

test('an admin renames the platform; a bad icon address is refused and the name comes back when cleared', async ({ page }) => {
  const name = `明州远程病理会诊${unique('').slice(-4)}`;
  await signInWithToken(page, 'admin', { to: '/setting/other-config' });
  await expect(page.getByRole('heading', { name: '系统配置' })).toBeVisible();
  const form = page.locator('form').first();
  await input(form, '平台名称').fill(name);
  await input(form, '网站图标').fill('javascript:alert(1)');
  await page.getByTestId('settings-save').click();
  await expect(fieldError(form, '请填写本站路径（以 / 开头）或 https 地址')).toBeVisible();
  await input(form, '网站图标').fill('/favicon.svg');
  await page.getByTestId('settings-save').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(name));

  // Cleared (through the API: the screen refuses a second save within 5 s), the built-in name is back.
  const admin = await apiLogin('admin');
  const current = (await call<Record<string, unknown>>('GET', '/api/config/setting')).body.data;
  const keys = ['language', 'page_icon', 'title', 'copyright', 'captcha_enable', 'need_upload_slide', 'watermark'];
  const body = Object.fromEntries(keys.map((k) => [k, current[k]]));
  expect((await call('PUT', '/api/config/setting', { token: admin, body: { ...body, page_title: '' } })).status).toBe(200);
  await page.reload();
  await expect(page).toHaveTitle(/系统配置 - Telepath 远程病理会诊平台/);
});
