// Special exam results: the expert orders an immunohistochemistry, changes its
// markers while it is pending, the site executes it, the expert records the
// result of each marker and the report prints them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, call, ok, type Lang } from '../lib/api';
import { assignedCase, diagnose, reportPDF } from '../lib/cases';
import { expect, test } from '../lib/test';
import { signInWithToken, toast } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const okButton = () => /^\s*(确\s*定|OK)\s*$/;
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: new RegExp(`^${text}$`) });

/** The advice panel, in the page's language, 1440 wide. */
async function shoot(page: Page, lang: Lang, name: string) {
  mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.getByTestId('advice-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT, `${lang}-1440x900-advice-${name}.png`) });
  await page.getByTestId('advice-panel').screenshot({ path: path.join(OUT, `${lang}-advice-${name}-panel.png`) });
  await page.setViewportSize({ width: 1600, height: 1000 });
}

/** The report PDF's text (whitespace removed), as the expert previews it in lang. */
async function reportText(id: number, token: string, lang: Lang): Promise<string> {
  const file = path.join(tmpdir(), `advice-report-${id}-${lang}.pdf`);
  writeFileSync(file, await reportPDF(token, id, lang));
  return execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8').replace(/\s+/g, '');
}

test('advice results: order, edit, execute, record each marker, print', async ({ page }) => {
  const c = await assignedCase({ patient: '孙特检' });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  const panel = page.getByTestId('advice-panel');

  // 1. Order an immunohistochemistry on block A1.
  await page.getByTestId('advice-order').click();
  const order = page.getByRole('dialog');
  await order.getByRole('button', { name: /添加/ }).click();
  await page.locator('.ant-modal-content').filter({ hasText: '下达医嘱' }).screenshot({ path: path.join(OUT, 'zh-CN-advice-order-dialog.png') });
  await order.locator('.anticon-minus-circle').first().click();
  await expect(order.getByTestId('advice-markers')).toHaveCount(1);
  await order.getByTestId('advice-item').click();
  await option(page, '免疫组化').click();
  await order.getByTestId('advice-markers').fill('CK, CD20');
  await order.getByRole('button', { name: okButton() }).click();
  await expect(toast(page)).toContainText('医嘱已发送给送检单位');
  await expect(panel.locator('.ant-table-row')).toHaveCount(1);
  const site = await apiLogin('site');
  const adviceId = (await ok<{ id: number }[]>('GET', `/api/consultation/advice/${c.id}`, site))[0].id;

  // 2. Change its markers while it is pending: the dialog opens on the ordered values.
  await panel.getByTestId(`advice-edit-${adviceId}`).click();
  const edit = page.getByRole('dialog').filter({ hasText: '修改医嘱' });
  const markers = edit.getByTestId('advice-markers');
  await expect(markers).toHaveValue('CK, CD20');
  await markers.fill('');
  await edit.getByTestId('advice-edit-ok').click();
  await expect(edit.locator('.ant-form-item-explain-error')).toHaveText(/请填写标记物或染色/);
  await markers.fill('CK、CD20、Ki-67');
  await page.locator('.ant-modal-content').filter({ hasText: '修改医嘱' }).screenshot({ path: path.join(OUT, 'zh-CN-advice-edit-dialog.png') });
  await markers.press('Enter');
  await expect(toast(page)).toContainText('医嘱已修改');
  await expect(edit).toBeHidden();
  await expect(panel).toContainText('CK、CD20、Ki-67');

  // 3. The site executes it from its advice list.
  await signInWithToken(page, 'site', { to: '/case/advices' });
  const row = page.locator('.ant-table-row').filter({ hasText: c.patient });
  await expect(row).toContainText('CK、CD20、Ki-67');
  await row.getByTestId(`advice-execute-${adviceId}`).click();
  await page.getByTestId('advice-result').fill('已完成免疫组化染色并上传切片');
  await page.getByTestId('advice-result-ok').click();
  await expect(toast(page)).toContainText('已记录执行');

  // 4. The expert records the result of each marker (rows prefilled from the ordered markers).
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await expect(panel).toContainText('尚未录入标记物结果');
  await panel.getByTestId(`advice-results-edit-${adviceId}`).click();
  const results = page.getByRole('dialog').filter({ hasText: '特检结果' });
  for (const [i, m] of ['CK', 'CD20', 'Ki-67'].entries()) await expect(results.getByTestId(`advice-results-marker-${i}`)).toHaveValue(m);
  await results.getByTestId('advice-results-add').click();
  await results.getByTestId('advice-results-marker-3').fill('ck');
  await results.getByTestId('advice-results-ok').click();
  await expect(results.getByText('该标记物已在上面列出')).toBeVisible();
  await results.getByRole('button', { name: '删除行 4' }).click();
  await expect(results.getByTestId('advice-results-marker-3')).toHaveCount(0);
  for (const [i, r] of ['+', '-', '约30%+'].entries()) await results.getByRole('combobox', { name: `结果 ${i + 1}` }).fill(r);
  await results.getByTestId('advice-results-interpretation').fill('支持弥漫大B细胞淋巴瘤');
  await page.locator('.ant-modal-content').filter({ hasText: '特检结果' }).screenshot({ path: path.join(OUT, 'zh-CN-advice-results-dialog.png') });
  await results.getByTestId('advice-results-ok').click();
  await expect(toast(page)).toContainText('特检结果已保存');
  await expect(results).toBeHidden();
  const table = panel.getByTestId(`advice-results-${adviceId}`);
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table).toContainText('约30%+');
  await expect(table).toContainText('支持弥漫大B细胞淋巴瘤');
  await shoot(page, 'zh-CN', 'results');

  // 5. The site sees them read-only on its list.
  await signInWithToken(page, 'site', { lang: 'en-US', to: '/case/advices' });
  await page.getByRole('tab', { name: /Finished/ }).click();
  await expect(page.getByTestId(`advice-results-text-${adviceId}`)).toContainText('CK (+), CD20 (-), Ki-67 (约30%+)');
  await expect(page.getByTestId(`advice-results-edit-${adviceId}`)).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(OUT, 'en-US-1440x900-advice-site-list.png') });
  await page.setViewportSize({ width: 1600, height: 1000 });

  // 6. The report prints them after the diagnosis is written.
  const expert = await apiLogin('expert');
  await diagnose(expert, c.id, { microscopic: '弥漫淋巴样细胞。', opinion: '（胃体）弥漫大B细胞淋巴瘤。' });
  expect(await reportText(c.id, expert, 'zh-CN')).toContain('CK（+），CD20（-），Ki-67（约30%+）');
  expect(await reportText(c.id, expert, 'en-US')).toContain('CK(+),CD20(-),Ki-67(约30%+)');
  const stored = await call<{ marker_results: { marker: string; result: string }[] }[]>('GET', `/api/diagnosis/${c.id}/advice`, { token: expert });
  expect(stored.body.data![0].marker_results).toEqual([
    { marker: 'CK', result: '+' },
    { marker: 'CD20', result: '-' },
    { marker: 'Ki-67', result: '约30%+' },
  ]);

  await signInWithToken(page, 'expert', { lang: 'en-US', to: `/diagnosis/item/${c.id}` });
  await expect(panel.getByTestId(`advice-results-${adviceId}`)).toContainText('Ki-67');
  await shoot(page, 'en-US', 'results');
});
