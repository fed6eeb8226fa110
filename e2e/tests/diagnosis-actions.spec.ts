// The expert's further actions in the browser: favourites, referral to another
// expert, saving a screenshot from the slide viewer to the case, and the
// publisher releasing a report in its hesitation period. Each test makes its
// own case through the API.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, call, setSystemSettings, type Lang } from '../lib/api';
import { assignedCase, publishedCase } from '../lib/cases';
import { expect, test } from '../lib/test';
import { menuItem, openAllGroups, signInWithToken, toast, SCREEN_SIZES } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const ok = () => /^\s*(确\s*定|OK)\s*$/;

/** Screens of this spec for people, in the page's language at every screen size. */
async function shoot(page: Page, lang: Lang, name: string) {
  mkdirSync(OUT, { recursive: true });
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}x${size.height}-actions-${name}.png`) });
  }
  await page.setViewportSize({ width: 1600, height: 1000 });
}

test('favourites: star a case, find it under My favourites, unstar it', async ({ page }) => {
  const c = await assignedCase({ patient: '钱收藏' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  const star = page.getByTestId('diagnosis-item').getByTestId(`collect-${c.id}`);
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');

  await openAllGroups(page);
  await menuItem(page, '我的收藏').click();
  await expect(page).toHaveURL(/\/diagnosis\/collect/);
  const row = page.locator('.ant-table-row').filter({ hasText: c.patient });
  await expect(row).toBeVisible();
  await shoot(page, 'zh-CN', 'collect');
  await row.getByTestId(`collect-${c.id}`).click();
  await expect(row).toHaveCount(0);
  const fav = await call<unknown[]>('GET', `/api/consultation/list?params=${encodeURIComponent('{"tab":"collected"}')}`, { token: await apiLogin('expert') });
  expect((fav.body.data ?? []).length).toBe(0);
});

test('referral: the expert refers a case to expert2 with a reason', async ({ page }) => {
  const c = await assignedCase({ patient: '孙转诊' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-referral').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('transfer-expert').click();
  const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
  await expect(option).toHaveCount(1); // the other expert of the center only
  await option.first().click();
  await dialog.getByTestId('transfer-ok').click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText(/请输入原因/); // reason required
  await dialog.getByTestId('transfer-text').fill('涉及软组织肿瘤，转亚专科专家');
  await shoot(page, 'zh-CN', 'referral-dialog');
  await dialog.getByTestId('transfer-ok').click();
  await expect(toast(page)).toContainText('已转诊');
  await expect(page).toHaveURL(/\/diagnosis\/manage/);

  const r = await call<{ expert_name: string; status_label: { key: string } }>('GET', `/api/consultation/resources/${c.id}`, { token: await apiLogin('expert2') });
  expect(r.status).toBe(200);
  expect(r.body.data?.status_label.key).toBe('pending_diagnosis');
  expect((await call('GET', `/api/consultation/resources/${c.id}`, { token: await apiLogin('expert') })).status).toBe(404);
  const log = await call<{ action: string; detail: string }[]>('GET', `/api/consultation/resources/${c.id}/log`, { token: await apiLogin('expert2') });
  expect(log.body.data?.some((l) => l.action === 'expert_referral' && l.detail === '涉及软组织肿瘤，转亚专科专家')).toBe(true);
});

test('save screenshot: the viewer saves the current view to the case, the workspace lists it for the report', async ({ page }) => {
  const c = await assignedCase({ patient: '周截图' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.goto(`/slide/view/${c.slideIds[0]}?case=${c.id}`); // the full-screen viewer, as the slide link opens it
  const save = page.getByTestId('save-shot');
  await expect(save).toBeVisible();
  await page.waitForLoadState('networkidle');
  await save.click();
  await expect(toast(page)).toContainText('截图已保存到病例');

  await page.goto(`/diagnosis/item/${c.id}`);
  const panel = page.getByTestId('shots-panel');
  await expect(panel.locator('[data-testid^="shot-select-"]')).toHaveCount(1);
  await expect(panel.locator('[data-testid^="shot-select-"]')).toBeChecked();
  await expect(panel.locator('img')).toBeVisible();
  await expect(page.getByTestId('shots-selected')).toContainText('1/6');
  await panel.scrollIntoViewIfNeeded();
  await shoot(page, 'zh-CN', 'workspace-shots');
  const shots = await call<{ selected: boolean; slide_id: number }[]>('GET', `/api/diagnosis/${c.id}/shots`, { token: await apiLogin('expert') });
  expect(shots.body.data).toEqual([expect.objectContaining({ selected: true, slide_id: c.slideIds[0] })]);
});

test('publisher: releases a report waiting in its hesitation period', async ({ page }) => {
  const c = await publishedCase({ patient: '吴发布', delayed: true });
  const site = await apiLogin('site');
  expect((await call<unknown[]>('GET', `/api/diagnosis/${c.id}`, { token: site })).body.data).toEqual([]);

  await signInWithToken(page, 'publisher', { lang: 'en-US', to: '/case/report' });
  await page.getByRole('tab', { name: /To publish/ }).click();
  const publish = page.getByTestId(`publisher-publish-${c.id}`);
  await expect(publish).toBeVisible();
  await shoot(page, 'en-US', 'publisher');
  await publish.click();
  await page.getByRole('dialog').getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('Report released to the site');
  await expect(publish).toHaveCount(0);
  const released = await call<{ status: string }[]>('GET', `/api/diagnosis/${c.id}`, { token: site });
  expect(released.body.data).toEqual([expect.objectContaining({ status: 'published' })]);
});

test('advice: the expert orders an exam, the site passes it to a third party, who answers', async ({ page }) => {
  await setSystemSettings({ allocate_to_third: true }); // off by default (spec 2 §3)
  const c = await assignedCase({ patient: '郑医嘱' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('advice-order').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('.ant-select').first().click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: /^免疫组化$/ }).click();
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText(/请填写标记物或染色/);
  await dialog.getByPlaceholder('如 CK、CD20、Ki-67').fill('CK, CD20, Ki-67');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('医嘱已发送给送检单位');
  const panel = page.getByTestId('advice-panel');
  await expect(panel.locator('.ant-table-row')).toHaveCount(1);

  const advice = await call<{ id: number }[]>('GET', `/api/consultation/advice/${c.id}`, { token: await apiLogin('site') });
  const adviceId = advice.body.data![0].id;
  await signInWithToken(page, 'site', { to: '/case/advices' });
  const row = page.locator('.ant-table-row').filter({ hasText: c.patient });
  await expect(row).toBeVisible();
  await shoot(page, 'zh-CN', 'site-advices');
  await row.getByTestId(`advice-transfer-${adviceId}`).click();
  const transfer = page.getByRole('dialog');
  await transfer.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click();
  await transfer.getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('已转给第三方');

  await signInWithToken(page, 'third', { lang: 'en-US', to: '/third/addadvice' });
  const answer = page.getByTestId(`third-answer-${adviceId}`);
  await expect(answer).toBeVisible();
  await shoot(page, 'en-US', 'third-advice');
  await answer.click();
  await page.getByTestId('advice-result').fill('CK(+), CD20(-), Ki-67 about 30%');
  await page.getByTestId('advice-result-ok').click();
  await expect(toast(page)).toContainText('Result recorded');

  await signInWithToken(page, 'expert', { lang: 'en-US', to: `/diagnosis/item/${c.id}` });
  await expect(page.getByTestId('advice-panel')).toContainText('CK(+), CD20(-), Ki-67 about 30%');
  await page.getByTestId('advice-panel').scrollIntoViewIfNeeded();
  await shoot(page, 'en-US', 'workspace-advice');
});

test('handover: the expert hands a case to expert2 and takes it back before they start', async ({ page }) => {
  const c = await assignedCase({ patient: '冯交接' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-handover').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('transfer-expert').click();
  // By name: experts other specs create in the same center are offered too.
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '刘芳' }).click();
  await dialog.getByTestId('transfer-text').fill('今晚值班，请继续诊断');
  await dialog.getByTestId('transfer-ok').click();
  await expect(toast(page)).toContainText('已交接');
  await expect(page.getByTestId('handover-pending')).toBeVisible();
  const expert2 = await apiLogin('expert2');
  expect((await call('GET', `/api/consultation/resources/${c.id}`, { token: expert2 })).status).toBe(200);

  await page.getByTestId('action-handover-recall').click();
  await page.getByRole('dialog').getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('已撤回交接');
  await expect(page.getByTestId('action-handover')).toBeVisible();
  await expect(page.getByTestId('handover-pending')).toHaveCount(0);
  expect((await call('GET', `/api/consultation/resources/${c.id}`, { token: expert2 })).status).toBe(404);
});

test('publisher: returns a report to the expert, who sees why', async ({ page }) => {
  const c = await publishedCase({ patient: '韩退回', delayed: true });
  await signInWithToken(page, 'publisher', { to: '/case/report' });
  await page.getByRole('tab', { name: /待发布/ }).click();
  await page.getByTestId(`publisher-return-${c.id}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText(/请输入原因/);
  await dialog.locator('textarea').fill('报告缺少免疫组化结果');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('报告已退回专家');

  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await expect(page.getByTestId('publisher-returned')).toContainText('报告缺少免疫组化结果');
  await expect(page.getByTestId('action-lock')).toBeVisible();
});

test('counter-audit: the admin asks, records the first result, the expert rejects with a reason', async ({ page }) => {
  const c = await publishedCase({ patient: '秦反审' });
  await signInWithToken(page, 'admin', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-counter-audit').click();
  let dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText(/请输入原因/);
  await dialog.locator('textarea').fill('与免疫组化结果不符，请复核');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('已请专家复核报告');
  await page.getByTestId('action-first-result').click();
  dialog = page.getByRole('dialog');
  await dialog.getByText('不符合', { exact: true }).click();
  await dialog.locator('textarea').fill('免疫组化提示淋巴瘤');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('初诊结果已记录');
  await expect(page.getByTestId('first-result')).toContainText('不符合');

  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await expect(page.getByTestId('counter-audit-request')).toContainText('与免疫组化结果不符');
  await shoot(page, 'zh-CN', 'counter-audit');
  await page.getByTestId('action-counter-audit-reject').click();
  dialog = page.getByRole('dialog');
  await dialog.locator('textarea').fill('诊断无误，免疫组化已复核');
  await dialog.getByRole('button', { name: ok() }).click();
  await expect(toast(page)).toContainText('已驳回反审核');
  const r = await call<{ status_label: { key: string } }>('GET', `/api/consultation/resources/${c.id}`, { token: await apiLogin('admin') });
  expect(r.body.data?.status_label.key).toBe('counter_audit_rejected');
});
