// The expert's work on a case, as the people involved do it in the browser: open the
// assigned case, view its slide, write the diagnosis from a template, ask a colleague,
// send it to review, have it approved, sign it; the site downloads the PDF, whose text
// and verification code are checked; a supplementary report then joins the original.
// Each test makes its own case (e2e/lib/cases.ts), so it can run beside the others.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { apiLogin, call, type Lang } from '../lib/api';
import { assignedCase, diagnosedCase, userId, type CreatedCase } from '../lib/cases';
import { expect, test } from '../lib/test';
import { picturesOnly, signInWithToken, toast, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');

/** A fresh signed-in page of another user in its own browser context. */
async function pageAs(browser: Browser, username: string, to: string, lang: Lang = 'zh-CN'): Promise<Page> {
  const ctx = await browser.newContext({ locale: lang, timezoneId: 'Asia/Shanghai', viewport: { width: 1600, height: 1000 } });
  const page = await ctx.newPage();
  await signInWithToken(page, username, { to, lang });
  return page;
}

/** pdftotext of a file, whitespace removed (the layout splits lines anywhere). */
function pdfText(file: string): string {
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
  return text.replace(/\s+/g, '');
}

const confirmDialog = (page: Page, title: RegExp | string) => page.locator('.ant-modal-confirm').filter({ hasText: title });

/** Waits for a download started by click and returns the saved file's path. */
async function download(page: Page, click: () => Promise<unknown>, dir: string): Promise<{ file: string; name: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = path.join(dir, d.suggestedFilename());
  await d.saveAs(file);
  return { file, name: d.suggestedFilename() };
}

/** The workspace's form texts. */
const field = (page: Page, key: string) => page.getByTestId(`field-${key}`);

test('expert diagnoses from a template, invites, has it reviewed and signs; the site gets a verifiable PDF; a supplement joins it', async ({ page, browser }, info) => {
  test.setTimeout(300_000);
  const c: CreatedCase = await assignedCase({ patient: '林雨桐' });
  const expertToken = await apiLogin('expert');
  // The expert's own template (the list of templates is the expert's to manage).
  const tplName = `胃炎模板${c.id}`;
  const tpl = await call<{ id: number }>('POST', '/api/config/template', {
    token: expertToken,
    body: { name: tplName, category: '消化', microscopic: '胃窦黏膜慢性炎，淋巴细胞浸润，局灶肠上皮化生。', opinion: '（胃窦）慢性萎缩性胃炎伴肠化。' },
  });
  expect(tpl.status).toBe(200);

  // 1. The expert finds the case in the worklist and opens it.
  await signInWithToken(page, 'expert', { to: '/diagnosis/manage' });
  await page.getByTestId(`open-${c.id}`).click();
  await expect(page).toHaveURL(new RegExp(`/diagnosis/item/${c.id}$`));
  await expect(page.getByRole('heading', { name: c.patient })).toBeVisible();
  await page.getByTestId('action-lock').click();
  await expect(toast(page).getByText('已锁定，可以开始诊断')).toBeVisible();
  await expect(page.getByTestId('lock-holder')).toBeVisible();

  // 2. Its slide opens in the viewer and a tile image arrives.
  // The first tab shows the slide's thumbnail; a click opens the viewer in a new tab.
  const thumb = page.getByTestId(`slide-thumb-${c.slideIds[0]}`).locator('img');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  const [viewer] = await Promise.all([page.waitForEvent('popup'), thumb.click()]);
  const tile = await viewer.waitForResponse((r) => /\/slide_files\/\d+\/\d+_\d+\.(jpe?g|png|webp)/.test(r.url()) && r.request().method() === 'GET');
  expect(tile.status()).toBe(200);
  expect(tile.headers()['content-type']).toMatch(/^image\//);
  await expect(viewer.getByTestId('slide-viewer')).toBeVisible();
  await viewer.close();

  // 3. One click inserts the template; the draft is saved.
  await page.getByTestId('template-picker').click();
  await page.locator('input[data-testid="template-search"], [data-testid="template-search"] input').first().fill(tplName);
  await page.getByTestId(`template-${tpl.body.data!.id}`).click();
  await expect(field(page, 'opinion')).toHaveValue('（胃窦）慢性萎缩性胃炎伴肠化。');
  await expect(field(page, 'microscopic')).toHaveValue(/局灶肠上皮化生/);
  await field(page, 'remark').fill('建议胃镜随访。');
  await page.getByTestId('action-save').click();
  await expect(toast(page).getByText(/已保存|保存成功/)).toBeVisible();

  // 4. The expert invites expert2, who answers on their invitations screen.
  await page.getByTestId('action-more').click();
  await page.getByRole('menuitem', { name: /邀请会诊/ }).click();
  const inviteDialog = page.getByRole('dialog').filter({ hasText: '邀请会诊' });
  await inviteDialog.locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '刘芳' }).click();
  await page.keyboard.press('Escape');
  await inviteDialog.getByRole('textbox').last().fill('请帮忙看一下 A2 块的腺体异型。');
  await inviteDialog.getByTestId('dialog-ok').click();
  await expect(toast(page).getByText('邀请已发送')).toBeVisible();

  const expert2 = await pageAs(browser, 'expert2', '/diagnosis/invited');
  const invites = (await call<{ id: number; consult_id: number }[]>('GET', '/api/diagnosis/invitations', { token: await apiLogin('expert2') })).body.data!;
  const inv = invites.find((i) => i.consult_id === c.id)!;
  expect(inv).toBeTruthy();
  // From the invitations list to the case: the invitation (invited/info) is answered beside it.
  await expect(expert2.getByTestId(`reply-${inv.id}`)).toBeVisible();
  await expert2.getByRole('button', { name: c.consultNo }).click();
  await expect(expert2).toHaveURL(new RegExp(`/diagnosis/item/${c.id}$`));
  const card = expert2.getByTestId(`invitation-${inv.id}`);
  await expect(card).toContainText('请帮忙看一下 A2 块的腺体异型。');
  await expect(field(expert2, 'opinion')).toHaveAttribute('readonly', '');
  await card.getByTestId(`reply-${inv.id}`).fill('同意慢性萎缩性胃炎伴肠化，未见异型增生。');
  await card.getByTestId(`reply-send-${inv.id}`).click();
  await expect(toast(expert2).getByText('回复已发送')).toBeVisible();
  await expect(card.getByTestId(`reply-${inv.id}`)).toHaveCount(0);
  await expect(card).toContainText('同意慢性萎缩性胃炎伴肠化，未见异型增生。');

  // The expert sees the answer on the case.
  await page.reload();
  await page.getByRole('tab', { name: /会诊邀请|邀请/ }).click();
  await expect(page.getByText('同意慢性萎缩性胃炎伴肠化，未见异型增生。')).toBeVisible();

  // 5. Sent to review with expert2 as the reviewer…
  await page.getByTestId('action-toreview').click();
  const reviewDialog = page.getByRole('dialog').filter({ hasText: '送审' });
  await reviewDialog.locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '刘芳' }).click();
  await reviewDialog.getByTestId('dialog-ok').click();
  await expect(toast(page).getByText('已送审')).toBeVisible();
  await expect(page.getByTestId('action-reviewrecall')).toBeVisible();
  await expect(field(page, 'opinion')).toHaveAttribute('readonly', '');

  // …who approves it.
  await expert2.goto(`/diagnosis/item/${c.id}`);
  await expect(field(expert2, 'opinion')).toHaveValue('（胃窦）慢性萎缩性胃炎伴肠化。');
  await expert2.getByTestId('action-approve').click();
  const approveDialog = expert2.getByRole('dialog').filter({ hasText: '审核通过' });
  await approveDialog.getByRole('textbox').fill('同意。');
  await approveDialog.getByTestId('dialog-ok').click();
  await expect(toast(expert2).getByText('已审核通过')).toBeVisible();
  await expert2.context().close();

  // 6. The expert signs it, released now (the slide was viewed: no prompt).
  await page.reload();
  await expect(page.getByText(/刘芳.*审核通过|审核通过.*刘芳/).first()).toBeVisible();
  await page.getByTestId('action-publish').click();
  const publishDialog = page.getByRole('dialog').filter({ hasText: '签发' });
  await publishDialog.getByTestId('release-now').click();
  await publishDialog.getByTestId('dialog-ok').click();
  await expect(toast(page).getByText('报告已签发')).toBeVisible();
  await expect(page.getByTestId('version-0-1')).toBeVisible();

  // 7. The site downloads the report from /case/report; its text holds the patient and the diagnosis.
  const dir = info.outputPath('reports');
  mkdirSync(dir, { recursive: true });
  const site = await pageAs(browser, 'site', '/case/report');
  await expect(site.getByTestId(`pdf-${c.id}`)).toBeVisible();
  const report = await download(site, () => site.getByTestId(`pdf-${c.id}`).click(), dir);
  expect(readFileSync(report.file).subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(report.file);
  expect(text).toContain(c.patient);
  expect(text).toContain('慢性萎缩性胃炎伴肠化');

  // 8. The verification code printed on it shows the report authentic on the public page.
  const code = text.match(/验证码([A-HJ-NP-Z2-9]{10})/)?.[1];
  expect(code, `no verification code in:\n${text}`).toBeTruthy();
  const verify = await (await browser.newContext({ locale: 'zh-CN' })).newPage();
  await verify.goto(`/verify/${code}`);
  await expect(verify.locator('h1.ok')).toContainText('真实');
  await expect(verify.getByText('林**')).toBeVisible();
  await verify.context().close();

  // 9. A supplementary report, written and signed, appears beside the original.
  await page.getByTestId('action-supplement').click();
  await field(page, 'opinion').fill('补充：免疫组化 CK(+)，Ki-67 约 5%，支持原诊断。');
  await page.getByTestId('action-supplement-publish').click();
  await confirmDialog(page, '签发补充报告').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('补充报告已签发')).toBeVisible();
  await expect(page.getByTestId('version-1-1')).toBeVisible();
  await expect(page.getByTestId('version-0-1')).toBeVisible();

  // The site sees both, each marked, each with its own PDF.
  await site.reload();
  await site.getByTestId(`view-${c.id}`).click();
  const drawer = site.locator('.ant-drawer-content');
  await expect(drawer.getByTestId('version-0-1')).toContainText('报告 v1');
  await expect(drawer.getByTestId('version-1-1')).toContainText('补充报告 v1');
  const versions = (await call<{ id: number; type: number }[]>('GET', `/api/diagnosis/${c.id}`, { token: await apiLogin('site') })).body.data!;
  const original = versions.find((v) => v.type === 0)!;
  const supplement = versions.find((v) => v.type === 1)!;
  const p1 = await download(site, () => drawer.getByTestId(`version-pdf-${original.id}`).click(), dir);
  const p2 = await download(site, () => drawer.getByTestId(`version-pdf-${supplement.id}`).click(), dir);
  expect(p1.name).not.toBe(p2.name);
  expect(pdfText(p1.file)).toContain('慢性萎缩性胃炎伴肠化');
  expect(pdfText(p2.file)).toContain('Ki-67');
  await site.context().close();
});

test('signing with an unviewed slide asks for confirmation first', async ({ page }) => {
  const c = await diagnosedCase({ patient: '周晓梅', diagnosis: { opinion: '（宫颈）慢性炎。' } });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await expect(field(page, 'opinion')).toHaveValue('（宫颈）慢性炎。');
  await page.getByTestId('action-publish').click();
  const publishDialog = page.getByRole('dialog').filter({ hasText: '签发' });
  await publishDialog.getByTestId('release-now').click();
  await publishDialog.getByTestId('dialog-ok').click();
  const ask = confirmDialog(page, '有切片未查看');
  await expect(ask).toContainText('1 张切片未查看');
  // Cancelling leaves the case unsigned.
  await ask.getByRole('button', { name: /取\s*消/ }).click();
  await expect(page.getByTestId('action-publish')).toBeVisible();
  expect((await call<{ status: string }[]>('GET', `/api/diagnosis/${c.id}`, { token: await apiLogin('expert') })).body.data![0].status).toBe('draft');
  // Confirming signs it.
  await page.getByTestId('action-publish').click();
  await publishDialog.getByTestId('release-now').click();
  await publishDialog.getByTestId('dialog-ok').click();
  await confirmDialog(page, '有切片未查看').getByRole('button', { name: '仍然签发' }).click();
  await expect(toast(page).getByText('报告已签发')).toBeVisible();
});

test('signing into the hesitation period asks for confirmation; the expert can recall the report', async ({ page }) => {
  const c = await diagnosedCase({ patient: '高文静', diagnosis: { opinion: '（乳腺）纤维腺瘤。' } });
  const token = await apiLogin('expert');
  await call('POST', `/api/slides/${c.slideIds[0]}/view`, { token });
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-publish').click();
  const publishDialog = page.getByRole('dialog').filter({ hasText: '签发' });
  await publishDialog.getByTestId('release-delayed').click();
  await publishDialog.getByTestId('dialog-ok').click();
  await confirmDialog(page, '签发并进入犹豫期').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('报告已签发，将在犹豫期结束后发布')).toBeVisible();
  await expect(page.getByTestId('hesitation')).toBeVisible();
  // The site does not see it yet.
  expect((await call<unknown[]>('GET', `/api/diagnosis/${c.id}`, { token: await apiLogin('site') })).body.data).toEqual([]);

  await page.getByTestId('action-recall').click();
  await confirmDialog(page, '撤回已签发的报告').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('已撤回签发')).toBeVisible();
  await expect(page.getByTestId('hesitation')).toHaveCount(0);
  await expect(field(page, 'opinion')).toHaveValue('（乳腺）纤维腺瘤。');
  await expect(page.getByTestId('action-publish')).toBeVisible();
});

test('a supplementary draft survives a reload and can be discarded; the report stays', async ({ page }) => {
  const c = await diagnosedCase({ patient: '钱明远', diagnosis: { opinion: '（甲状腺）结节性甲状腺肿。' } });
  const token = await apiLogin('expert');
  expect((await call('POST', `/api/diagnosis/${c.id}/publish`, { token, body: { confirm_unviewed: true } })).status).toBe(200);
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-supplement').click();
  await field(page, 'opinion').fill('补充：BRAF V600E 检测待回报。');
  await page.getByTestId('action-supplement-save').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await page.reload();
  await expect(field(page, 'opinion')).toHaveValue('补充：BRAF V600E 检测待回报。');
  await page.getByTestId('action-supplement-discard').click();
  await confirmDialog(page, '放弃这份未签发的补充报告').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('已放弃补充报告')).toBeVisible();
  await expect(page.getByTestId('action-supplement')).toBeVisible();
  await expect(page.getByTestId('version-0-1')).toBeVisible();
  await expect(page.getByTestId('version-1-1')).toHaveCount(0);
});

test('a supplementary report goes to review: rejected with a reason, edited, sent again, accepted and published; the site sees both', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const c = await diagnosedCase({ patient: '韩思远', diagnosis: { opinion: '（乳腺）浸润性导管癌，II 级。' } });
  expect((await call('POST', `/api/diagnosis/${c.id}/publish`, { token: await apiLogin('expert'), body: { confirm_unviewed: true } })).status).toBe(200);
  const status = (p: Page) => p.getByTestId('supplement-status');
  const reviewState = (p: Page) => p.getByTestId('supplement-review-state');
  const sendTo = async (name: string) => {
    await page.getByTestId('action-supplement-toreview').click();
    const dialog = page.getByRole('dialog').filter({ hasText: '补充报告送审' });
    await dialog.locator('.ant-select-selector').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: name }).click();
    await dialog.getByTestId('dialog-ok').click();
    await expect(toast(page).getByText('补充报告已送审')).toBeVisible();
    await expect(status(page)).toHaveText('待审核');
    return Date.now();
  };

  // 1. The expert writes a supplement and sends it to expert2; it is read-only under review.
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await page.getByTestId('action-supplement').click();
  await field(page, 'opinion').fill('补充：ER(+)，PR(+)。');
  const firstSent = await sendTo('刘芳');
  await expect(field(page, 'opinion')).toHaveAttribute('readonly', '');
  await expect(reviewState(page)).toContainText('刘芳');
  await expect(page.getByTestId('action-supplement-reviewrecall')).toBeVisible();
  await expect(page.getByTestId('action-supplement-publish')).toHaveCount(0);
  await expect(page.getByTestId('action-supplement-discard')).toHaveCount(0);

  // 2. expert2 finds it under the to-review tab, marked as a supplement, and rejects it with a reason.
  const expert2 = await pageAs(browser, 'expert2', '/diagnosis/manage');
  await expert2.getByTestId('tab-to_review').click();
  const row = expert2.locator('.ant-table-row').filter({ has: expert2.getByTestId(`open-${c.id}`) });
  await expect(row).toContainText('补充报告待审核');
  await expert2.getByTestId(`open-${c.id}`).click();
  await expect(expert2).toHaveURL(new RegExp(`/diagnosis/item/${c.id}$`));
  await expect(status(expert2)).toHaveText('待审核');
  await expect(field(expert2, 'opinion')).toHaveValue('补充：ER(+)，PR(+)。');
  await expect(field(expert2, 'opinion')).toHaveAttribute('readonly', '');
  await expect(expert2.getByTestId('version-0-1')).toBeVisible(); // the original report stays
  await expert2.getByTestId('action-supplement-reviewreturn').click();
  const reject = expert2.getByRole('dialog').filter({ hasText: '退回补充报告' });
  await reject.getByTestId('dialog-ok').click();
  await expect(reject.getByText('请输入原因')).toBeVisible(); // a reason is required
  await reject.getByRole('textbox').fill('请补充 HER2 免疫组化结果。');
  await reject.getByTestId('dialog-ok').click();
  await expect(toast(expert2).getByText('补充报告已退回')).toBeVisible();
  // Answered: it leaves the reviewer's panel and stays marked among the versions.
  await expect(expert2.getByTestId('action-supplement-approve')).toHaveCount(0);
  await expect(expert2.getByTestId('version-1-1')).toContainText('审核退回');

  // 3. The expert sees the reason, cannot publish, edits (the reason stays) and sends it again.
  await page.reload();
  await expect(status(page)).toHaveText('审核退回');
  await expect(reviewState(page)).toContainText('请补充 HER2 免疫组化结果。');
  await expect(page.getByTestId('action-supplement-publish')).toHaveCount(0);
  await field(page, 'opinion').fill('补充：ER(+)，PR(+)，HER2(1+)。');
  await page.getByTestId('action-supplement-save').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await expect(status(page)).toHaveText('草稿');
  await expect(reviewState(page)).toContainText('请补充 HER2 免疫组化结果。');
  await expect(page.getByTestId('action-supplement-publish')).toHaveCount(0);
  // The same send URL again: past the client's 5 s guard against a repeated write.
  await page.waitForTimeout(Math.max(0, 5500 - (Date.now() - firstSent)));
  await sendTo('刘芳');

  // 4. expert2 accepts it.
  await expert2.reload();
  await expect(field(expert2, 'opinion')).toHaveValue('补充：ER(+)，PR(+)，HER2(1+)。');
  await expert2.getByTestId('action-supplement-approve').click();
  await expert2.getByRole('dialog').filter({ hasText: '补充报告审核通过' }).getByTestId('dialog-ok').click();
  await expect(toast(expert2).getByText('补充报告已审核通过')).toBeVisible();
  await expert2.context().close();

  // 5. The expert publishes it beside the original.
  await page.reload();
  await expect(status(page)).toHaveText('审核通过');
  await expect(reviewState(page)).toContainText('刘芳');
  await page.getByTestId('action-supplement-publish').click();
  await confirmDialog(page, '签发补充报告').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText('补充报告已签发')).toBeVisible();
  await expect(page.getByTestId('version-1-1')).toContainText('已签发');
  await expect(page.getByTestId('version-0-1')).toBeVisible();

  // 6. The site sees both reports.
  const site = await pageAs(browser, 'site', '/case/report');
  await site.getByTestId(`view-${c.id}`).click();
  const drawer = site.locator('.ant-drawer-content');
  await expect(drawer.getByTestId('version-0-1')).toContainText('报告 v1');
  await expect(drawer.getByTestId('version-1-1')).toContainText('补充报告 v1');
  await expect(drawer).toContainText('HER2(1+)');
  await site.context().close();
});

test('the worklist keeps the chosen tab when searching', async ({ page }) => {
  const c = await diagnosedCase({ patient: '欧阳小满', diagnosis: { opinion: '（皮肤）脂溢性角化病。' } });
  await signInWithToken(page, 'expert', { to: '/diagnosis/manage' });
  await page.getByTestId('tab-diagnosing').click();
  await expect(page).toHaveURL(/diagnosing/);
  // The tab's rows are shown (the search form has taken the tab's state) before typing.
  await expect(page.getByTestId(`open-${c.id}`)).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The search form…
  const form = page.getByTestId('search-form');
  const name = form.locator('.ant-form-item').filter({ hasText: '患者姓名' }).locator('input');
  await name.fill(c.patient);
  await expect(name).toHaveValue(c.patient);
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/diagnosing/);
  await expect(page.locator('.ant-tabs-tab-active')).toContainText('诊断中');
  await expect(page.getByTestId(`open-${c.id}`)).toBeVisible();
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  // …and the free-text search.
  await page.getByTestId('list-reset').or(page.getByRole('button', { name: /重\s*置/ })).first().click();
  await page.getByTestId('tab-diagnosing').click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByTestId('list-search').fill(c.consultNo);
  await page.getByTestId('list-search').press('Enter');
  await expect(page).toHaveURL(/search=/);
  await expect(page).toHaveURL(/diagnosing/);
  await expect(page.locator('.ant-tabs-tab-active')).toContainText('诊断中');
  await expect(page.getByTestId(`open-${c.id}`)).toBeVisible();
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
});

test.describe('pictures for people', () => {
  picturesOnly();

  // The supplement panel under review, as its reviewer and its author see it, for people to look at.
  for (const lang of SCREEN_LANGUAGES) {
    test(`supplement review panel in ${lang} at 1440`, async ({ browser }) => {
      mkdirSync(OUT, { recursive: true });
      const c = await diagnosedCase({ patient: '许清和', diagnosis: { opinion: '（甲状腺）乳头状癌。' } });
      const [expert, expert2] = [await apiLogin('expert'), await apiLogin('expert2')];
      const ok = async (token: string, p: string, body?: unknown) => expect((await call('POST', `/api/diagnosis/${c.id}${p}`, { token, body })).status).toBe(200);
      await ok(expert, '/publish', { confirm_unviewed: true });
      await ok(expert, '/append_diagnosis', { opinion: '补充：BRAF V600E 突变阳性。', remark: '分子检测结果回报后补充。' });
      await ok(expert, '/append_diagnosis/toreview', { reviewer_id: await userId('expert2') });
      const shot = async (user: string, name: string) => {
        const ctx = await browser.newContext({ locale: lang, timezoneId: 'Asia/Shanghai', viewport: { width: 1440, height: 900 } });
        const p = await ctx.newPage();
        await signInWithToken(p, user, { lang, to: `/diagnosis/item/${c.id}` });
        await expect(p.getByTestId('supplement-status')).toBeVisible();
        await p.waitForLoadState('networkidle');
        await p.screenshot({ path: path.join(OUT, `${lang}-1440-supplement-${name}.png`) });
        await ctx.close();
      };
      await shot('expert2', 'reviewer');
      await ok(expert2, '/append_diagnosis/reviewreturn', { note: '请注明检测方法与平台。' });
      await shot('expert', 'rejected');
    });
  }

  // Screens for people to look at (not assertions): the expert's three screens (both
  // languages and widths under make screens), under e2e/artifacts/screens/.
  for (const lang of SCREEN_LANGUAGES) {
    for (const size of SCREEN_SIZES) {
      test(`expert screens in ${lang} at ${size.width}×${size.height}`, async ({ page }) => {
        mkdirSync(OUT, { recursive: true });
        const c = await diagnosedCase({ patient: '孙嘉怡', diagnosis: { opinion: '（胃窦）慢性浅表性胃炎。' } });
        await page.setViewportSize(size);
        const file = (name: string) => path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`);
        const settled = async () => {
          await page.waitForLoadState('networkidle');
          await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
        };
        await signInWithToken(page, 'expert', { lang, to: '/dashboard' });
        await settled();
        await page.screenshot({ path: file('dashboard') });
        await page.goto('/diagnosis/manage');
        await expect(page.getByTestId(`open-${c.id}`).or(page.locator('.ant-table-row').first())).toBeVisible();
        await settled();
        await page.screenshot({ path: file('diagnosis-manage') });
        await page.goto(`/diagnosis/item/${c.id}`);
        await expect(page.getByTestId('diagnosis-form')).toBeVisible();
        await settled();
        await page.screenshot({ path: file('diagnosis-item') });
      });
    }
  }
});
