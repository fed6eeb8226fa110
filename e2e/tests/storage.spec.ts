// /setting/storageConfig as the administrator uses it: the data directory and its
// disk, each hospital's usage, and the low disk space threshold, changed and kept.
// The screen is photographed (both sizes under make screens) and checked with axe.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { apiLogin, ok } from '../lib/api';
import { expect, test } from '../lib/test';
import { SCREEN_LANGUAGES, SCREEN_SIZES, settled, signInWithToken } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');

test('the administrator reads where files live and what each hospital keeps, and sets the low disk space threshold', async ({ page }) => {
  test.setTimeout(180_000);
  const admin = await apiLogin('admin');
  await signInWithToken(page, 'admin', { to: '/' });
  await page.getByRole('menuitem', { name: /系统管理/ }).click();
  await page.getByRole('menuitem', { name: /存储配置/ }).click();
  await expect(page).toHaveURL(/\/setting\/storageConfig$/);
  await expect(page.getByTestId('storage-dir')).not.toBeEmpty();
  const usage = page.getByTestId('storage-usage');
  // Other walks may add hospitals: the demo ones are there, each with its storage mode.
  for (const name of ['明州市第一人民医院', '临江县人民医院', '青山市中心医院']) {
    await expect(usage.locator('.ant-table-row').filter({ hasText: name })).toContainText('未启用');
  }

  // Thumbnails in columns of their own: the total row's count is the API's.
  for (const name of ['其他文件数', '其他文件大小', '缩略图数', '缩略图大小']) await expect(usage.getByRole('columnheader', { name, exact: true })).toBeVisible();
  const storage = await ok<{ hospitals: { thumbs: number }[] }>('GET', '/api/config/storage', admin);
  await expect(usage.locator('.ant-table-summary td').nth(5)).toHaveText(String(storage.hospitals.reduce((n, h) => n + h.thumbs, 0)));

  // The threshold: refused when empty, saved, kept after a reload.
  const threshold = page.getByLabel('低于此值告警');
  await threshold.fill('');
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('请输入告警的剩余空间（GB）')).toBeVisible();
  await threshold.fill('2');
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('低于此值告警')).toHaveValue('2');
  await ok('PUT', '/api/config/storage/threshold', admin, { disk_space: 1 });

  mkdirSync(OUT, { recursive: true });
  for (const lang of SCREEN_LANGUAGES) {
    await signInWithToken(page, 'admin', { lang, to: '/setting/storageConfig' });
    await expect(page.getByTestId('storage-usage').locator('.ant-table-row').filter({ hasText: '青山市中心医院' })).toBeVisible();
    // Thumbnails have columns of their own, apart from the other files, in the rows and the total.
    const heads = lang === 'en-US' ? ['Other files', 'Other files size', 'Thumbnails', 'Thumbnails size'] : ['其他文件数', '其他文件大小', '缩略图数', '缩略图大小'];
    for (const name of heads) await expect(page.getByTestId('storage-usage').getByRole('columnheader', { name, exact: true })).toBeVisible();
    await expect(page.getByTestId('storage-usage').locator('.ant-table-summary td')).toHaveCount(8);
    await settled(page);
    await expectAccessible(page, lang, 'main');
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}x${size.height}-storage.png`) });
    }
    await page.setViewportSize({ width: 1600, height: 1000 });
  }
});
