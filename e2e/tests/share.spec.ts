// Sharing a case by link as users do it: the expert makes a secret, de-identified
// 7-day share from the workspace; a visitor without an account (a fresh browser
// context) is refused with a wrong code, opens it with the right one, pans the slide
// and downloads the report, whose text holds no patient name; it measures, sees the
// expert's annotations read-only and compares the case's two slides side by side;
// the expert cancels the link and the visitor's open page gets no further tile or
// annotation. Then the screens (both languages and sizes under make screens), with
// axe-core checks.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { test, expect } from '../lib/test';
import { apiLogin, list, ok, unique, type Lang } from '../lib/api';
import { publishedCase, viewableSlide } from '../lib/cases';
import { settled, signInWithToken, AXE_SIZE, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'share');
test.describe.configure({ mode: 'serial' });

interface ShareRow {
  id: number;
  phase: string;
  visits: number;
  consult_no: string;
}

async function axe(page: Page, name: string, include: string) {
  await expectAccessible(page, name, include);
}

/** A browser context with no session, in lang. */
async function visitor(browser: Browser, lang: Lang): Promise<Page> {
  const ctx = await browser.newContext({ locale: lang, timezoneId: 'Asia/Shanghai', viewport: { width: 1600, height: 1000 } });
  await ctx.addInitScript((l) => localStorage.setItem('tp.language', l), lang);
  return ctx.newPage();
}

/** The expert shares case id from the workspace with the dialog's choices (secret, 7 days, report, de-identified). */
async function shareFromWorkspace(page: Page, id: number): Promise<{ link: string; code: string }> {
  await page.goto(`/diagnosis/item/${id}`);
  await settled(page);
  await page.getByTestId('action-more').click();
  await page.getByTestId('action-share').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('share-deidentify')).toHaveAttribute('aria-checked', 'true');
  // click, then wait: under load antd may draw the checked state after check()'s own read.
  const annotations = dialog.getByRole('checkbox', { name: '标注（只读）' });
  await annotations.click();
  await expect(annotations).toBeChecked();
  await dialog.locator('#share-ok').click();
  await expect(dialog.getByTestId('share-made')).toBeVisible();
  const link = (await dialog.getByTestId('share-link').innerText()).trim();
  const code = (await dialog.getByTestId('share-code').innerText()).trim();
  return { link, code };
}

const patient = unique('分享');
let caseId = 0;
let consultNo = '';

test('a secret de-identified share: wrong code refused, right code, pan, report without the name, cancel stops the tiles', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const site = await apiLogin('site');
  const c = await publishedCase({ patient, slideIds: [await viewableSlide(site), await viewableSlide(site)] });
  caseId = c.id;
  consultNo = c.consultNo;
  const expert = await signInWithToken(page, 'expert', { lang: 'zh-CN', to: '/diagnosis/manage' });
  const rect = { id: 1, tool: 'rect', points: [{ x: 100, y: 100 }, { x: 900, y: 700 }], color: '#FF6261', lineWidth: 2, description: '' };
  await ok('PUT', `/api/slides/${c.slideIds[0]}/annotations`, expert, { labels: [rect] });
  const { link, code } = await shareFromWorkspace(page, c.id);
  expect(link).toContain('/shareCase?c=');
  expect(code).toMatch(/^[A-Z0-9]{6}$/);

  // A visitor opens the link: the code first, a wrong one is refused.
  const v = await visitor(browser, 'zh-CN');
  const tiles: string[] = [];
  const annotations: string[] = [];
  v.on('response', (r) => {
    if (r.url().includes('/slide_files/') && r.status() === 200) tiles.push(r.url());
    if (r.url().endsWith('/annotations') && r.status() === 200) annotations.push(r.url());
  });
  await v.goto(link);
  await expect(v.getByTestId('share-code-form')).toBeVisible();
  await v.getByTestId('share-code-input').fill('AAAAAA');
  await v.getByTestId('share-code-submit').click();
  await expect(v.getByTestId('share-code-form')).toContainText('分享码错误');
  await v.getByTestId('share-code-input').fill(code);
  await v.getByTestId('share-code-submit').click();
  const shared = v.getByTestId('shared-case');
  await expect(shared).toBeVisible();
  await expect(v.getByTestId('shared-number')).toHaveText(/^SH-/);
  await expect(shared).not.toContainText(patient);
  await expect(v.getByTestId('share-watermark')).toBeAttached();

  // It pans the slide: tiles load.
  const canvas = v.getByTestId('slide-canvas').first();
  await expect(canvas.locator('canvas').first()).toBeVisible();
  const box = (await canvas.boundingBox())!;
  await v.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await v.mouse.wheel(0, -600);
  await v.mouse.down();
  await v.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2 - 120, { steps: 8 });
  await v.mouse.up();
  await settled(v);
  await expect.poll(() => tiles.length).toBeGreaterThan(0);

  // The expert's annotations come read-only; the visitor measures a distance of its own.
  await expect(v.getByTestId('shared-annotations')).toHaveAttribute('aria-checked', 'true');
  await expect.poll(() => annotations.length).toBeGreaterThan(0);
  await v.getByTestId('shared-tool-line').click();
  await v.mouse.move(box.x + 200, box.y + 200);
  await v.mouse.down();
  await v.mouse.move(box.x + 420, box.y + 300, { steps: 5 });
  await v.mouse.up();
  await expect(v.getByTestId('shared-pane').first().locator('svg text')).toContainText(/µm|mm/);
  await v.getByTestId('shared-tool-pan').click();
  // It compares the two slides side by side.
  await v.getByTestId('shared-split').click();
  await v.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option:not(.ant-select-item-option-disabled)').first().click();
  await expect(v.getByTestId('shared-pane')).toHaveCount(2);
  await expect(v.getByTestId('slide-canvas').nth(1).locator('canvas').first()).toBeVisible();

  // The report: its text (pdftotext) holds no patient name, and the neutral number.
  const number = (await v.getByTestId('shared-number').innerText()).trim();
  const href = await v.getByTestId('shared-report').getAttribute('href');
  const pdf = await v.request.get(href!);
  expect(pdf.status()).toBe(200);
  const text = execFileSync('pdftotext', ['-', '-'], { input: await pdf.body() }).toString();
  expect(text).not.toContain(patient);
  expect(text).toContain(number);

  // The expert sees the visits and cancels the link from the list.
  const rows = await list<ShareRow>(expert, '/api/share/list', { search: consultNo });
  expect(rows.data).toHaveLength(1);
  expect(rows.data[0].visits).toBeGreaterThanOrEqual(2);
  await page.goto('/share/list');
  await settled(page);
  await page.getByTestId(`share-cancel-${rows.data[0].id}`).click();
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.locator('tr').filter({ hasText: consultNo }).getByTestId('share-phase')).toHaveText('已取消');

  // The visitor's open page: the next tile it asks for is refused, and the annotations.
  const next = `${tiles[0]}?after=${Date.now()}`;
  expect(await v.evaluate(async (u) => (await fetch(u)).status, next)).toBe(403);
  expect(await v.evaluate(async (u) => (await fetch(u)).status, annotations[0])).toBe(404);
  // And the link now answers like an unknown one.
  await v.reload();
  await expect(v.getByTestId('share-gone')).toBeVisible();
  await v.context().close();
});

for (const lang of SCREEN_LANGUAGES) {
  test(`share screens in ${lang}`, async ({ page, browser }) => {
    test.setTimeout(180_000);
    const expert = await signInWithToken(page, 'expert', { lang, to: '/diagnosis/manage' });
    const made = await ok<{ token: string; code: string }>('POST', '/api/share', expert, { consult_id: caseId, secret: true, expiry_days: 30, with_report: true, with_clinical: true, with_annotations: true, deidentify: true });
    await ok('POST', '/api/share', expert, { consult_id: caseId, expiry_days: 0, with_report: true });
    const v = await visitor(browser, lang);
    for (const size of SCREEN_SIZES) {
      const { width } = size;
      await page.setViewportSize(size);
      await v.setViewportSize(size);

      await page.goto('/share/list');
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-list.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} share list`, 'main');

      await page.goto(`/diagnosis/item/${caseId}`);
      await settled(page);
      await page.getByTestId('action-more').click();
      await page.getByTestId('action-share').click();
      await expect(page.getByTestId('share-deidentify')).toBeVisible();
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-dialog.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} share dialog`, '.ant-modal');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
      if (size === AXE_SIZE) await axe(page, `${lang} workspace`, 'main .ant-card');

      await v.goto(`/shareCase?c=${encodeURIComponent(made.token)}`);
      await expect(v.getByTestId('share-code-form')).toBeVisible();
      await v.screenshot({ path: path.join(OUT, `${lang}-${width}-code.png`) });
      if (size === AXE_SIZE) await axe(v, `${lang} share code`, 'main');
      await v.getByTestId('share-code-input').fill(made.code);
      await v.getByTestId('share-code-submit').click();
      await expect(v.getByTestId('shared-case')).toBeVisible();
      await settled(v);
      await v.screenshot({ path: path.join(OUT, `${lang}-${width}-case.png`) });
      if (size === AXE_SIZE) await axe(v, `${lang} shared case`, 'main');
    }
    await v.context().close();
  });
}
