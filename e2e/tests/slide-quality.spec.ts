// The expert grades the quality of a slide of their case; the sending hospital
// sees the grade beside its slide.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { assignedCase } from '../lib/cases';
import { fieldError } from '../lib/antd';
import { expect, test } from '../lib/test';
import { signInWithToken, toast } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');

test('the expert judges a slide not qualified with a reason; the site sees the grade', async ({ page }) => {
  mkdirSync(OUT, { recursive: true });
  const c = await assignedCase({ patient: '郑制片' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByRole('tab', { name: /切片与附件/ }).click();
  await expect(page.getByText('未评价')).toBeVisible();
  await page.getByTestId(`judge-slide-${c.slideIds[0]}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('D · 不合格').click();
  await dialog.getByTestId('judge-ok').click();
  await expect(fieldError(dialog, '请填写不合格的原因')).toBeVisible();
  await dialog.getByTestId('judge-reason').fill('刀痕明显，组织折叠');
  await dialog.getByTestId('judge-ok').click();
  await expect(toast(page)).toContainText('已保存切片质量评价');
  await expect(page.getByTestId(`slide-grade-${c.slideIds[0]}`)).toHaveText('D · 不合格');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(OUT, 'zh-CN-1440x900-slide-quality.png') });

  // A change of mind is an update of the same verdict.
  await page.getByTestId(`judge-slide-${c.slideIds[0]}`).click();
  await expect(dialog.getByTestId('judge-reason')).toHaveValue('刀痕明显，组织折叠');
  await dialog.getByText('C · 合格').click();
  await dialog.getByTestId('judge-ok').click();
  await expect(page.getByTestId(`slide-grade-${c.slideIds[0]}`)).toHaveText('C · 合格');

  await signInWithToken(page, 'site', { lang: 'en-US', to: `/case/detail/${c.id}` });
  await page.getByRole('tab', { name: /slides/ }).click();
  await expect(page.getByTestId(`slide-grade-${c.slideIds[0]}`)).toHaveText('C · Acceptable');
  await expect(page.getByTestId(`judge-slide-${c.slideIds[0]}`)).toHaveCount(0);
  await page.screenshot({ path: path.join(OUT, 'en-US-1440x900-site-slide-quality.png') });
});
