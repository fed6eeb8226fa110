// The expert amends a released report: the case reopens with the released
// text, the new version is signed, and the hospital sees both, the first one
// marked as replaced.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, call } from '../lib/api';
import { publishedCase } from '../lib/cases';
import { fieldError } from '../lib/antd';
import { expect, test } from '../lib/test';
import { signInWithToken, toast } from '../lib/ui';

const field = (page: Page, key: string) => page.getByTestId(`field-${key}`);

test('the expert amends a released report with a reason; the hospital gets version 2 beside version 1', async ({ page }) => {
  const c = await publishedCase({ patient: '冯更正', diagnosis: { opinion: '（胃体）慢性浅表性胃炎。' } });
  await call('POST', `/api/slides/${c.slideIds[0]}/view`, { token: await apiLogin('expert') });

  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-more').click();
  await page.getByTestId('action-amend').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '更正原因' });
  await dialog.getByTestId('dialog-ok').click();
  await expect(fieldError(dialog, /原因/)).toBeVisible();
  await dialog.getByTestId('amend-reason').fill('免疫组化结果回报，更正诊断');
  await dialog.getByTestId('dialog-ok').click();
  await expect(toast(page)).toContainText('报告已进入更正');

  // The new version starts from the released text.
  await expect(field(page, 'opinion')).toHaveValue('（胃体）慢性浅表性胃炎。');
  await field(page, 'opinion').fill('（胃体）黏膜相关淋巴组织结外边缘区淋巴瘤。');
  await page.getByTestId('action-publish').click();
  const publish = page.getByRole('dialog').filter({ hasText: '签发' });
  await publish.getByTestId('release-now').click();
  await publish.getByTestId('dialog-ok').click();
  await expect(toast(page).getByText('报告已签发')).toBeVisible();
  await expect(page.getByTestId('version-0-2')).toBeVisible();
  await expect(page.getByTestId('version-0-1')).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('version-0-1').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.resolve(__dirname, '..', 'artifacts', 'screens', 'zh-CN-1440x900-amended.png') });

  const versions = (await call<{ version: number; opinion: string }[]>('GET', `/api/diagnosis/${c.id}`, { token: await apiLogin('site') })).body.data!;
  expect(versions.map((v) => [v.version, v.opinion])).toEqual([
    [1, '（胃体）慢性浅表性胃炎。'],
    [2, '（胃体）黏膜相关淋巴组织结外边缘区淋巴瘤。'],
  ]);
  const log = (await call<{ action: string; detail: string }[]>('GET', `/api/consultation/resources/${c.id}/log`, { token: await apiLogin('site') })).body.data!;
  expect(log.some((l) => l.action === 'diagnosis_amend' && l.detail === '免疫组化结果回报，更正诊断')).toBe(true);
});
