// Frozen sections as users work them: the allocator builds a week's duty with two
// experts, the site books a frozen section, the allocator accepts it, the site turns
// it into a frozen case with a slide, the expert on duty sees it with the running
// clock and publishes, the site sees the result, the turnaround is listed and exported.
// Then every new screen (both languages and sizes under make screens), with axe-core checks.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../lib/test';
import { apiLogin, list, ok, unique, type Lang } from '../lib/api';
import { bindExpert, caseFixture, chargeCase, diagnose, nextNumber, publish, registration, submitCase, tinySlide, uploadSlide, userId } from '../lib/cases';
import { settled, signInWithToken, toast, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';
import { formItem } from '../lib/antd';
import type { Locator } from '@playwright/test';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'frozen');
test.describe.configure({ mode: 'serial' });

interface Appt {
  id: number;
  phase: string;
  patient_name: string;
  expert_id: number | null;
  consultation_id: number | null;
  turnaround_seconds: number | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Local time in Asia/Shanghai (the browser's and the server's zone), "YYYY-MM-DD HH:mm". */
function shanghai(t: Date): string {
  const s = new Date(t.getTime() + 8 * 3600_000);
  return `${s.getUTCFullYear()}-${pad(s.getUTCMonth() + 1)}-${pad(s.getUTCDate())} ${pad(s.getUTCHours())}:${pad(s.getUTCMinutes())}`;
}

async function axe(page: Page, name: string, scope = 'main') {
  await expectAccessible(page, name, scope);
}

const patient = unique('冰冻');

/** Picks an option of a Select in a drawer without Escape (which would close the drawer). */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  const item = formItem(scope, label);
  if (await item.locator('.ant-select-selection-item').filter({ hasText: option }).count()) return;
  await item.locator('.ant-select-selector').click();
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await dropdown.locator('.ant-select-item-option').filter({ hasText: option }).click();
  // The drawer's title, which an open dropdown never covers, closes it.
  await page.locator('.ant-drawer-title').last().click();
}

test('a frozen section from the duty schedule to the published frozen diagnosis', async ({ page }) => {
  test.setTimeout(300_000);
  // The allocator builds a week's schedule with two experts.
  await signInWithToken(page, 'allocator', { lang: 'zh-CN', to: '/schedule/duty' });
  await page.getByTestId('duty-group-create').click();
  const drawer = page.getByTestId('duty-group-drawer');
  await expect(drawer).toBeVisible();
  await choose(page, drawer, '中心', '华东远程病理会诊中心');
  await drawer.getByTestId('duty-group-name').fill('冰冻值班组');
  await drawer.getByTestId('duty-group-period').fill('全天');
  await drawer.getByTestId('duty-group-office').fill('病理科三楼冰冻室');
  await choose(page, drawer, '参与人', '张建国 主任医师');
  await choose(page, drawer, '参与人', '刘芳 副主任医师');
  await drawer.getByLabel('上班').fill('00:00');
  await drawer.getByLabel('下班').fill('23:59');
  await drawer.getByTestId('drawer-submit').click();
  await expect(drawer).toBeHidden();
  await page.locator('[data-testid^="duty-schedule-"]').first().click();
  const sched = page.getByTestId('duty-schedule-drawer');
  await expect(sched).toBeVisible();
  await sched.getByTestId('duty-fill').click();
  await sched.getByTestId('drawer-submit').click();
  await expect(sched).toBeHidden();
  const today = shanghai(new Date()).slice(0, 10);
  await expect(page.getByTestId(`duty-day-${today}`)).toContainText(/刘芳|张建国/);

  // The site books a frozen section for a slot in half an hour.
  const site = await signInWithToken(page, 'site', { lang: 'zh-CN', to: '/frozen-case/apply' });
  await page.getByTestId('frozen-book').click();
  const book = page.getByTestId('frozen-book-drawer');
  await expect(book).toBeVisible();
  await choose(page, book, '中心', '华东远程病理会诊中心');
  await book.getByTestId('frozen-patient').fill(patient);
  await book.getByTestId('frozen-age').fill('52');
  const at = formItem(book, '手术时间').locator('input');
  await at.click();
  await at.fill(shanghai(new Date(Date.now() + 30 * 60_000)));
  await at.press('Enter');
  await book.getByTestId('frozen-room').fill('OR-3');
  await book.getByTestId('frozen-surgeon').fill('王医生');
  await book.getByTestId('frozen-phone').fill('13800001234');
  await book.getByTestId('frozen-specimen-site').fill('甲状腺左叶结节');
  await book.getByTestId('frozen-question').fill('良恶性？');
  await book.getByTestId('drawer-submit').click();
  await expect(book).toBeHidden();
  const row = page.locator('tr').filter({ hasText: patient });
  await expect(row.getByTestId('frozen-phase')).toHaveText('申请中');
  const appt = (await list<Appt>(site, '/api/frozen/appointment/lists', { search: patient })).data[0];

  // The allocator accepts it.
  await signInWithToken(page, 'allocator', { lang: 'zh-CN', to: '/frozen-distribute/manage' });
  await page.getByTestId(`frozen-accept-${appt.id}`).click();
  await expect(page.getByTestId(`frozen-accept-${appt.id}`)).toBeHidden();

  // The tissue is ready: the site turns it into a frozen case with a slide.
  const slideName = `${unique('FZ')}-HE.svs`;
  await uploadSlide(site, tinySlide(), slideName);
  await signInWithToken(page, 'site', { lang: 'zh-CN', to: '/frozen-case/todo' });
  await expect(page.locator('tr').filter({ hasText: patient }).getByTestId('frozen-countdown')).toContainText('还有');
  const submitted = Date.now();
  await page.getByTestId(`frozen-arrive-${appt.id}`).click();
  const modal = page.getByRole('dialog').filter({ hasText: '组织就绪' });
  await expect(modal.getByTestId('frozen-pathology-number')).not.toHaveValue('');
  await modal.locator('tr').filter({ hasText: slideName }).locator('input[type=checkbox]').check();
  await modal.getByRole('button', { name: '提交冰冻病例' }).click();
  await expect(modal).toBeHidden();
  const arrived = await ok<Appt>('GET', `/api/frozen/appointment/${appt.id}`, site);
  expect(arrived.phase).toBe('arrived');
  expect(arrived.expert_id).not.toBeNull();
  const onDuty = arrived.expert_id === (await userId('expert')) ? 'expert' : 'expert2';

  // It lands on the on-duty expert's list with the running clock.
  const expertToken = await signInWithToken(page, onDuty, { lang: 'zh-CN', to: '/frozen-expert/manage' });
  const mine = page.locator('tr').filter({ hasText: patient });
  await expect(mine.getByTestId('frozen-elapsed')).toBeVisible();
  const landed = Date.now() - submitted;
  console.log(`submit → on the expert's list: ${landed} ms (including the page load)`);
  await expect(mine.getByTestId('frozen-elapsed')).toHaveAttribute('data-level', 'ok');
  await page.getByTestId(`frozen-open-${appt.id}`).click();
  await expect(page).toHaveURL(new RegExp(`/diagnosis/item/${arrived.consultation_id}`));
  await settled(page);
  // The workspace header shows the same running clock.
  await expect(page.getByTestId('diagnosis-item').getByTestId('frozen-elapsed')).toHaveAttribute('data-level', 'ok');
  // With the intra-operative verdict as a quick choice above the text.
  await expect(page.getByTestId('frozen-verdict')).toBeVisible();

  // The expert writes the frozen diagnosis and publishes it: released at once.
  await diagnose(expertToken, arrived.consultation_id!, { frozen_verdict: 'malignant', opinion: '（甲状腺左叶）恶性，乳头状癌；石蜡切片进一步分型。' });
  await publish(expertToken, arrived.consultation_id!);

  // The site sees it at once, with the turnaround.
  await signInWithToken(page, 'site', { lang: 'zh-CN', to: '/frozen-case/todo' });
  await page.getByTestId('tab-reported').click();
  const done = page.locator('tr').filter({ hasText: patient });
  await expect(done.getByTestId('frozen-phase')).toHaveText('已报告');
  await expect(done).toContainText('分钟');
  const label = await ok<{ status_label?: string }>('GET', `/api/consultation/resources/${arrived.consultation_id}`, site);
  expect(JSON.stringify(label)).toContain('published');

  // The site registers the paraffin case that follows: a draft prefilled from the frozen case.
  await done.getByTestId(`frozen-after_frozen_paraffin_block-${appt.id}`).click();
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/case\/register\/\d+$/);
  const paraffinId = Number(page.url().split('/').pop());
  await expect(page.getByLabel('患者姓名')).toHaveValue(patient);
  await expect(page.getByLabel('原病理号')).not.toHaveValue('');
  // Completed and submitted (the registration form has walks of its own), read by the other expert.
  const f = await caseFixture(site);
  const number = await nextNumber(site, f.libraryId);
  await ok('POST', `/api/consultation/${paraffinId}`, site, registration(f, number, { name: patient, slide_ids: [await uploadSlide(site, tinySlide(), `${number}.svs`)] }));
  await chargeCase(site, paraffinId, f.chargeItemId);
  await submitCase(site, paraffinId);
  const paraffinExpert = onDuty === 'expert' ? 'expert2' : 'expert';
  await bindExpert(await apiLogin('allocator'), paraffinId, await userId(paraffinExpert));
  const pe = await apiLogin(paraffinExpert);
  await diagnose(pe, paraffinId, { opinion: '（甲状腺左叶）结节性甲状腺肿，未见恶性。' });
  await publish(pe, paraffinId);

  // In the paraffin case's workspace its expert sees the frozen diagnosis and judges the concordance.
  await signInWithToken(page, paraffinExpert, { lang: 'zh-CN', to: `/diagnosis/item/${paraffinId}` });
  const card = page.getByTestId('frozen-comparison');
  await expect(card.getByTestId('frozen-opinion')).toContainText('乳头状癌');
  await card.getByText('不符', { exact: true }).click();
  await card.getByTestId('concordance-save').click();
  await expect(card.locator('.ant-form-item-explain-error')).toContainText('不符时必填');
  await card.getByTestId('concordance-note').fill('冰冻诊断为乳头状癌，石蜡为结节性甲状腺肿');
  await card.getByTestId('concordance-save').click();
  await expect(toast(page)).toContainText('已记录冰冻与石蜡对照结果');
  await expect(card.getByTestId('concordance-tag')).toHaveText('不符');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT, 'zh-CN-1600-paraffin-comparison.png') });
  await axe(page, 'paraffin comparison', '[data-testid="frozen-comparison"]');

  // The administrator's appointment list shows the turnaround and exports it.
  await signInWithToken(page, 'center_admin', { lang: 'zh-CN', to: '/admin/appointment-manage' });
  await expect(page.locator('tr').filter({ hasText: patient })).toContainText('分钟');
  await expect(page.locator('tr').filter({ hasText: patient })).toContainText('恶性');
  await expect(page.locator('tr').filter({ hasText: patient }).getByTestId('concordance-tag')).toHaveText('不符');
  const download = page.waitForEvent('download');
  await page.getByTestId('frozen-export').click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
});

const SCREENS: { user: string; path: string; name: string }[] = [
  { user: 'site', path: '/frozen-case/apply', name: 'apply' },
  { user: 'site', path: '/frozen-case/todo', name: 'todo' },
  { user: 'allocator', path: '/frozen-distribute/manage', name: 'distribute-manage' },
  { user: 'allocator', path: '/frozen-distribute/done', name: 'distribute-done' },
  { user: 'allocator', path: '/frozen-distribute/recall', name: 'distribute-recall' },
  { user: 'allocator', path: '/frozen-distribute/return', name: 'distribute-return' },
  { user: 'allocator', path: '/schedule/duty', name: 'schedule-duty' },
  { user: 'center_admin', path: '/admin/appointment-manage', name: 'admin-appointments' },
];

for (const lang of SCREEN_LANGUAGES) {
  test(`frozen screens in ${lang}`, async ({ page }) => {
    test.setTimeout(300_000);
    // Something in every tab the screens open on: one applying, one accepted, one being read.
    const site = await apiLogin('site');
    const alloc = await apiLogin('allocator');
    if ((await list<Appt>(site, '/api/frozen/appointment/lists', { params: JSON.stringify({ tab: 'pending' }) })).data.length === 0) {
      const book = async (name: string) =>
        ok<Appt>('POST', '/api/frozen/appointment', site, { center_id: 1, patient_name: name, gender: 'female', age: '47', operation_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
          operating_room: 'OR-5', surgeon: '陈医生', phone: '13800005678', specimen_site: '乳腺右侧肿物', clinical_question: '良恶性？切缘？' });
      await book('赵敏');
      const b = await book('孙倩');
      await ok('POST', `/api/frozen/appointment/${b.id}/accept`, alloc);
      const c = await book('周婷');
      await ok('POST', `/api/frozen/appointment/${c.id}/accept`, alloc);
      await ok('POST', `/api/frozen/appointment/${c.id}/arrive`, site, { case: {} });
    }
    const expertOnList = await apiLogin('expert');
    const hasFrozen = (await list<Appt>(expertOnList, '/api/frozen/appointment/lists', { params: JSON.stringify({ tab: 'reading' }) })).data.length > 0;
    const screens = [...SCREENS, { user: hasFrozen ? 'expert' : 'expert2', path: '/frozen-expert/manage', name: 'expert' }];
    for (const s of screens) {
      await signInWithToken(page, s.user, { lang, to: s.path });
      await settled(page);
      for (const size of SCREEN_SIZES) {
        const { width } = size;
        await page.setViewportSize(size);
        await settled(page);
        await page.screenshot({ path: path.join(OUT, `${lang}-${width}-${s.name}.png`) });
      }
      await axe(page, `${lang} ${s.path}`);
    }
    // The drawers, at the last size: booking and the duty group.
    const { width } = page.viewportSize()!;
    await signInWithToken(page, 'site', { lang, to: '/frozen-case/apply' });
    await page.getByTestId('frozen-book').click();
    await expect(page.getByTestId('frozen-book-drawer')).toBeVisible();
    await page.screenshot({ path: path.join(OUT, `${lang}-${width}-book-drawer.png`) });
    await signInWithToken(page, 'allocator', { lang, to: '/schedule/duty' });
    await page.locator('[data-testid^="duty-schedule-"]').first().click();
    await expect(page.getByTestId('duty-schedule-drawer')).toBeVisible();
    await settled(page);
    await page.screenshot({ path: path.join(OUT, `${lang}-${width}-schedule-drawer.png`) });
  });
}
