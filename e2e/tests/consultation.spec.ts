// The consultation workflow as its users live it (issue 3, "How it will be checked"):
// a site registers a case with two specimens, an attachment and a slide whose upload
// is interrupted and resumes, meets every validation message on the way, charges and
// submits it; the allocator assigns it to an expert; a second case is recalled and the
// admin agrees; a third is returned to the site, which finds it under /case/return.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { expect, test } from '../lib/test';
import { apiLogin, list } from '../lib/api';
import { bindExpert, caseFixture, centerExperts, getCase, idNumber, registerCase, submittedCase, tinySlide, uploadSlide, type CaseFixture } from '../lib/cases';
import { fieldError, formItem } from '../lib/antd';
import { slidegen } from '../lib/slidegen';
import { searchList, signInWithToken, toast } from '../lib/ui';

const zh = JSON.parse(readFileSync(path.resolve(__dirname, '../../web/src/locales/zh-CN.json'), 'utf8')) as Record<string, string>;
const T = (key: string, vars: Record<string, string | number> = {}) => {
  const s = zh[key];
  if (s === undefined) throw new Error(`no zh-CN text ${key}`);
  return s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));
};

const EXPERT = '张建国 主任医师';
let dir = '';
let slidePath = '';
let slideSha = '';
let slideSize = 0;
let f: CaseFixture;
let site: string;

test.beforeAll(async () => {
  // Made here, not when the file loads: Playwright may run this hook again in the same
  // worker after afterAll removed the last directory.
  dir = mkdtempSync(path.join(tmpdir(), 'tp-consult-'));
  // A slide bigger than one 16 MB tus chunk, so the upload has a second PATCH to interrupt.
  slidePath = path.join(dir, `胃窦-HE-${Date.now()}.tif`);
  slidegen(['-o', slidePath, '-w', '3000', '-h', '2400', '-compression', 'none']);
  const bytes = readFileSync(slidePath);
  slideSize = bytes.length;
  slideSha = createHash('sha256').update(bytes).digest('hex');
  expect(slideSize).toBeGreaterThan(16 * 1024 * 1024);
  writeFileSync(path.join(dir, '病例申请单.pdf'), '%PDF-1.4\n% application form\n');
  writeFileSync(path.join(dir, '全身像.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]));
  site = await apiLogin('site');
  f = await caseFixture(site);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));


/** Uploads the slide on /dss/uploading; its second PATCH is cut once and the upload resumes. */
async function uploadSlideResuming(page: Page): Promise<number> {
  const patches: { offset: number; outcome: string }[] = [];
  const heads: Request[] = [];
  let release!: () => void;
  const firstHeld = new Promise<void>((r) => (release = r));
  let cut = false;
  await page.route('**/api/uploads/**', async (route) => {
    const req = route.request();
    if (req.method() === 'HEAD') heads.push(req);
    if (req.method() !== 'PATCH') return route.continue();
    const offset = Number(req.headers()['upload-offset']);
    if (offset === 0) {
      // Hold the first chunk until the progress bar has been seen.
      await firstHeld;
    } else if (!cut) {
      cut = true;
      patches.push({ offset, outcome: 'aborted' });
      return route.abort('connectionreset');
    }
    patches.push({ offset, outcome: 'sent' });
    return route.continue();
  });

  await page.goto('/dss/uploading');
  await page.locator('.ant-upload-drag input[type=file]').setInputFiles(slidePath);
  const row = page.getByTestId('upload-queue').getByRole('row').filter({ hasText: path.basename(slidePath) });
  await expect(row.getByText(T('upload.state.uploading'))).toBeVisible();
  await expect(row.locator('.ant-progress')).toBeVisible();
  release();
  await expect(row.getByText(T('upload.state.uploaded'), { exact: true })).toBeVisible({ timeout: 90_000 });
  await page.unroute('**/api/uploads/**');

  // The cut chunk was sent again from where it stopped, after asking the server (HEAD).
  const cutAt = patches.find((p) => p.outcome === 'aborted')!;
  expect(cutAt.offset).toBe(16 * 1024 * 1024);
  expect(patches.filter((p) => p.offset === cutAt.offset).map((p) => p.outcome)).toEqual(['aborted', 'sent']);
  expect(patches.some((p) => p.offset === 0 && p.outcome === 'sent')).toBe(true);
  expect(heads.length).toBeGreaterThan(0);

  // The server checks the file in the background; its SHA-256 is recorded when that ends.
  const stored = async () =>
    (await list<{ id: number; filename: string; filesize: number; sha256: string; status: number }>(site, '/api/slides/uploads', {
      search: path.basename(slidePath),
      page_size: 5,
    })).data.find((s) => s.filename === path.basename(slidePath))!;
  await expect.poll(async () => (await stored()).sha256, { timeout: 60_000 }).toBe(slideSha);
  const slide = await stored();
  expect(slide.filesize).toBe(slideSize);
  return slide.id;
}

test('the site registers a case (two specimens, an attachment, a resumed slide upload) through every validation message, charges and submits it; the allocator assigns it to an expert', async ({ page }) => {
  test.setTimeout(240_000);
  await signInWithToken(page, 'site', { to: '/dss/uploading' });
  const slideId = await uploadSlideResuming(page);

  // Slides the picker must not offer: one already on a case, one of another hospital.
  const taken = await registerCase(site, f, { name: '已占用切片' });
  const foreignSlide = `他院切片-${Date.now()}.svs`;
  await uploadSlide(await apiLogin('site2'), tinySlide(), foreignSlide);

  await page.goto('/case/register/new');
  const form = page.getByTestId('case-register-form');
  await expect(formItem(form, T('case.field.inspectionHospital')).locator('input')).toHaveValue(f.hospitalName);

  // Everything empty: every required field says so.
  await page.getByTestId('save-case').click();
  await expect(toast(page).getByText(/有 \d+ 处需要修改/)).toBeVisible();
  for (const field of ['case.field.pathologyNumber', 'case.field.originalPathologyNumber', 'case.field.name', 'case.field.age', 'case.field.phone'])
    await expect(fieldError(form, T('validation.required', { field: T(field) }))).toBeVisible();
  await expect(fieldError(form, T('validation.required', { field: T('case.specimen.name') }))).toBeVisible();
  await expect(fieldError(form, T('validation.required', { field: T('case.block.name') }))).toBeVisible();

  // Bad formats, one by one.
  await form.getByTestId('phone-input').fill('1380013800');
  await expect(fieldError(form, T('case.rule.phone'))).toBeVisible();
  await form.getByTestId('phone-input').fill('13800138000');
  await expect(fieldError(form, T('case.rule.phone'))).toBeHidden();

  const good = idNumber('19810315');
  const badCheck = good.slice(0, 17) + (good[17] === '1' ? '2' : '1');
  await form.getByTestId('id-number-input').fill(badCheck);
  await form.getByTestId('id-number-input').blur();
  await expect(fieldError(form, T('case.rule.idCard'))).toBeVisible();
  await form.getByTestId('id-number-input').fill(good);
  await form.getByTestId('id-number-input').blur();
  await expect(fieldError(form, T('case.rule.idCard'))).toBeHidden();
  // The birthday comes from the ID number; another date contradicts it.
  const birthday = formItem(form, T('case.field.birthday')).locator('input');
  await expect(birthday).toHaveValue('1981-03-15');
  await birthday.click();
  await birthday.fill('1982-03-15');
  await birthday.press('Enter');
  await expect(fieldError(form, T('case.rule.birthdayMismatch'))).toBeVisible();
  await birthday.click();
  await birthday.fill('1981-03-15');
  await birthday.press('Enter');
  await expect(fieldError(form, T('case.rule.birthdayMismatch'))).toBeHidden();

  // Age: a whole number within its unit's limit (200 months is fine, 200 years is not).
  const age = form.getByTestId('age-input');
  await age.fill('4x');
  await expect(fieldError(form, T('case.rule.age'))).toBeVisible();
  await age.fill('200');
  await expect(fieldError(form, T('case.rule.age'))).toBeVisible();
  await formItem(form, T('case.field.age')).locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: T('case.ageUnitName.month') }).click();
  await expect(fieldError(form, T('case.rule.age'))).toBeHidden();
  await formItem(form, T('case.field.age')).locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: T('case.ageUnitName.year') }).click();
  await expect(fieldError(form, T('case.rule.age'))).toBeVisible();
  await age.fill('45');
  await expect(fieldError(form, T('case.rule.age'))).toBeHidden();

  // Pathology numbers: letters, digits, _ and - only; the library's next number is valid.
  const number = formItem(form, T('case.field.pathologyNumber')).locator('input');
  await number.fill('BL2026 #1');
  await expect(fieldError(form, T('case.rule.pathologyChars'))).toBeVisible();
  await formItem(form, T('case.field.library')).locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('常规病理库').click();
  await page.getByTestId('next-number').click();
  await expect(number).toHaveValue(/^BL\d{4}-\d{5}$/);
  await expect(fieldError(form, T('case.rule.pathologyChars'))).toBeHidden();
  // Other specs take the library's next numbers in parallel: keep the rule, pick a serial far above theirs.
  const pathologyNumber = (await number.inputValue()).replace(/\d{5}$/, String(90000 + Math.floor(Math.random() * 9999)));
  await number.fill(pathologyNumber);
  await formItem(form, T('case.field.originalPathologyNumber')).locator('input').fill('Y2026_0451');

  await formItem(form, T('case.field.name')).locator('input').fill('王芳');
  await expect(formItem(form, T('case.field.gender')).getByRole('radio', { name: T('case.gender.female') })).toBeChecked();

  // Specimens: the only one cannot be deleted; two specimens, three blocks.
  await expect(page.getByTestId('specimen-remove-0')).toBeDisabled();
  await page.getByTestId('specimen-remove-0').locator('..').hover();
  await expect(page.getByRole('tooltip').filter({ hasText: T('case.specimen.onlyOne') })).toBeVisible();
  await page.getByTestId('specimen-name-0').fill('胃窦');
  await page.getByTestId('block-name-0-0').fill('A1');
  await page.getByTestId('block-add-0').click();
  await page.getByTestId('block-name-0-1').fill('A2');
  await page.getByTestId('specimen-add').click();
  await expect(page.getByTestId('specimen-remove-0')).toBeEnabled();
  await page.getByTestId('specimen-name-1').fill('胃角');
  await page.getByTestId('block-name-1-0').fill('B1');

  // Attachments: an application form and one full-body image; a second one is refused.
  const attachments = page.locator('#sec-attachments');
  const nextType = attachments.locator('.ant-select').first();
  const pickNextType = async (label: string) => {
    await nextType.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: label }).first().click();
  };
  await pickNextType(T('case.attachmentType.2'));
  await attachments.locator('input[type=file]').setInputFiles(path.join(dir, '病例申请单.pdf'));
  await expect(attachments.getByRole('link', { name: '病例申请单.pdf' })).toBeVisible();
  await pickNextType(T('case.attachmentType.5'));
  await attachments.locator('input[type=file]').setInputFiles(path.join(dir, '全身像.jpg'));
  // Images show in the form's gallery, other files in its list.
  const fullBody = attachments.getByTestId('attachment-gallery').getByRole('listitem').filter({ hasText: '全身像.jpg' });
  await expect(fullBody).toBeVisible();
  await nextType.click();
  const secondFullBody = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: T('case.attachmentType.5') });
  await expect(secondFullBody).toHaveClass(/ant-select-item-option-disabled/);
  await expect(secondFullBody).toContainText(T('case.rule.oneFullBody'));
  await page.keyboard.press('Escape');
  // Only the form is kept as the case's attachment: remove the image again.
  await fullBody.getByRole('button', { name: `${T('common.delete')} 全身像.jpg` }).click();
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /^删\s*除$/ }).click();
  await expect(fullBody).toHaveCount(0);

  // Slides: the picker lists the hospital's unattached uploads; pick the one just uploaded.
  const slides = page.locator('#sec-slides');
  const slideRow = slides.getByRole('row').filter({ hasText: path.basename(slidePath) });
  await expect(slideRow).toBeVisible();
  await expect(slides.getByRole('row').filter({ hasText: `${taken.pathology_number}.svs` })).toHaveCount(0);
  await expect(slides.getByRole('row').filter({ hasText: foreignSlide })).toHaveCount(0);
  await slideRow.getByRole('checkbox').check();
  await expect(slides.getByText(T('case.slide.pickHint', { count: 1 }))).toBeVisible();

  // Save, charge and submit.
  await page.getByTestId('save-charge').click();
  const charge = page.getByRole('dialog').filter({ has: page.getByTestId('charge-ok') });
  await expect(charge).toBeVisible();
  await charge.getByTestId('charge-ok').click();
  await expect(charge.getByText(T('case.charge.needItem'))).toBeVisible();
  await charge.getByRole('spinbutton').first().fill('1');
  await expect(charge.getByTestId('charge-total')).not.toContainText('¥0.00');
  await charge.getByTestId('charge-ok').click();
  // The toast shows before the page navigates and lasts 3 s: look for it first.
  await expect(toast(page).getByText(T('case.charge.chargedSubmitted'))).toBeVisible();
  await expect(page).toHaveURL(/\/case\/manage/);

  const mine = await list<{ id: number; pathology_number: string }>(site, '/api/consultation/list', { search: pathologyNumber });
  const id = mine.data.find((c) => c.pathology_number === pathologyNumber)!.id;
  const saved = await getCase(site, id);
  expect(saved.status_label.key).toBe('to_allot');
  expect(saved.charge_status).toBe(2);
  expect(saved.specimens?.map((s) => [s.name, (s.blocks ?? []).map((b) => b.name)])).toEqual([
    ['胃窦', ['A1', 'A2']],
    ['胃角', ['B1']],
  ]);
  expect(saved.attachments?.map((a) => [a.filename, a.type])).toEqual([['病例申请单.pdf', 2]]);
  expect(saved.slides?.map((s) => s.id)).toEqual([slideId]);

  // The allocator assigns it to the expert.
  await signInWithToken(page, 'allocator', { to: '/distribute/manage' });
  await searchList(page, pathologyNumber);
  await page.getByTestId(`case-bind_expert-${id}`).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('expert-ok') });
  await dialog.getByTestId('expert-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: EXPERT }).click();
  await dialog.getByTestId('expert-ok').click();
  await expect(dialog).toBeHidden();
  await expect(toast(page).getByText(T('common.done'))).toBeVisible();
  const assigned = await getCase(site, id);
  const expert = (await centerExperts(site, f.centerId)).find((e) => e.name === EXPERT)!;
  expect(assigned.expert_id).toBe(expert.id);
  expect(assigned.status_label.key).toBe('pending_diagnosis');
  // It left the "to allot" tab for the "assigned" one, with the expert's name.
  await expect(page.getByRole('row').filter({ hasText: pathologyNumber })).toBeHidden();
  await page.getByTestId('tab-assigned').click();
  await expect(page.getByRole('row').filter({ hasText: pathologyNumber })).toContainText(EXPERT);
});

test('the site recalls a submitted case and the admin agrees; the case waits under /case/recall', async ({ page }) => {
  const alloc = await apiLogin('allocator');
  const c = await submittedCase(site, f, { name: '撤回测试' });
  const expert = (await centerExperts(alloc, f.centerId)).find((e) => e.name === EXPERT)!;
  await bindExpert(alloc, c.id, expert.id);

  await signInWithToken(page, 'site', { to: '/case/manage' });
  await searchList(page, c.pathology_number);
  await page.getByTestId(`case-recall-${c.id}`).click();
  const reason = page.getByRole('dialog').filter({ has: page.getByTestId('reason-ok') });
  await reason.getByTestId('reason-ok').click();
  await expect(reason.locator('.ant-form-item-explain-error')).toBeVisible();
  await reason.getByTestId('reason-input').fill('临床资料填写有误，需要补充免疫组化结果');
  await reason.getByTestId('reason-ok').click();
  await expect(reason).toBeHidden();
  expect((await getCase(site, c.id)).status_label.key).toBe('withdraw_unconfirmed');

  await signInWithToken(page, 'admin', { to: '/admin/withdraw-manage' });
  await searchList(page, c.pathology_number);
  const row = page.getByRole('row').filter({ hasText: c.pathology_number });
  await expect(row).toContainText('临床资料填写有误');
  await page.getByTestId(`case-recall_agree-${c.id}`).click();
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page).getByText(T('common.done'))).toBeVisible();
  await expect(row).toBeHidden();
  expect((await getCase(site, c.id)).status_label.key).toBe('recalled');

  await signInWithToken(page, 'site', { to: '/case/recall' });
  await searchList(page, c.pathology_number);
  await expect(page.getByTestId(`case-consult_again-${c.id}`)).toBeVisible();
});

test('the allocator returns a case to the site with a reason; the site finds it under /case/return with the reason', async ({ page }) => {
  const c = await submittedCase(site, f, { name: '退回测试' });
  const why = '切片染色不清晰，请重新制片扫描后再提交';

  await signInWithToken(page, 'allocator', { to: '/distribute/manage' });
  await searchList(page, c.pathology_number);
  await page.getByTestId(`case-return_to_site-${c.id}`).click();
  const reason = page.getByRole('dialog').filter({ has: page.getByTestId('reason-ok') });
  await reason.getByTestId('reason-input').fill(why);
  await reason.getByTestId('reason-ok').click();
  await expect(reason).toBeHidden();
  await expect(toast(page).getByText(T('common.done'))).toBeVisible();

  await signInWithToken(page, 'site', { to: '/case/return' });
  await searchList(page, c.pathology_number);
  const row = page.getByRole('row').filter({ hasText: c.pathology_number });
  await expect(row).toContainText(why.slice(0, 8));
  await expect(page.getByTestId(`case-consult_again-${c.id}`)).toBeVisible();
  expect((await getCase(site, c.id)).return_reason).toBe(why);
});
