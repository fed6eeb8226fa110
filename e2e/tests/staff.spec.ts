// The technician of a case: the allocator names the staff member on the
// distribution screen; the staff member finds the case on /diagnosis/manage,
// reads it, opens its slide and messages the expert, who reads the message in
// the workspace. The technician has no diagnosis buttons and no draft to read.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { apiLogin, call, type Lang } from '../lib/api';
import { assignedCase, diagnosedCase } from '../lib/cases';
import { expect, test } from '../lib/test';
import { searchList, signInWithToken, toast, SCREEN_LANGUAGES } from '../lib/ui';

const STAFF = '孙丽（技术员）';
const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');


test('the allocator names the staff member, who reads the case, opens its slide and messages the expert', async ({ page, browser }) => {
  test.setTimeout(180_000);
  // The expert has started on a draft the technician must not see.
  const c = await diagnosedCase({ patient: '周若汐', diagnosis: { opinion: '（胃窦）草稿意见，尚未签发。' } });

  // 1. The allocator names the staff member from the center's technicians.
  await signInWithToken(page, 'allocator', { to: '/distribute/manage' });
  await searchList(page, c.pathologyNumber);
  await page.getByTestId('tab-assigned').click();
  await page.getByTestId(`case-bind_staff-${c.id}`).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('staff-ok') });
  await expect(dialog).toContainText(c.consultNo);
  await dialog.getByTestId('staff-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: STAFF }).click();
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, 'zh-CN-staff-bind.png') });
  await dialog.getByTestId('staff-ok').click();
  await expect(dialog).toBeHidden();
  await expect(toast(page).getByText('操作成功')).toBeVisible();
  const detail = await call<{ staff_name: string }>('GET', `/api/consultation/resources/${c.id}`, { token: await apiLogin('allocator') });
  expect(detail.body.data?.staff_name).toBe(STAFF);

  // 2. The staff member finds it among their open cases (and only there).
  await signInWithToken(page, 'staff', { to: '/diagnosis/manage' });
  await expect(page.getByTestId('tab-submitted')).toContainText('进行中');
  await expect(page.getByTestId('tab-pending')).toHaveCount(0);
  await searchList(page, c.pathologyNumber);
  const row = page.getByRole('row').filter({ hasText: c.pathologyNumber });
  await expect(row).toContainText('周若汐');
  await expect(row).toContainText('张建国');
  await page.getByTestId(`open-${c.id}`).click();
  await expect(page).toHaveURL(new RegExp(`/diagnosis/item/${c.id}$`));

  // 3. The case reads, the staff tag shows, and there is nothing to act on.
  await expect(page.getByRole('heading', { name: '周若汐' })).toBeVisible();
  await expect(page.getByTestId('case-staff')).toContainText(STAFF);
  await expect(page.getByTestId('case-expert')).toContainText('张建国');
  await expect(page.getByTestId('diagnosis-item')).toContainText('胃窦溃疡，待排恶性');
  await expect(page.getByTestId('diagnosis-form')).toContainText('诊断报告由专家签发后在此显示');
  await expect(page.getByTestId('diagnosis-form')).not.toContainText('草稿意见');
  await expect(page.getByTestId('action-bar')).toHaveCount(0);
  await expect(page.locator('[data-testid^="action-"]')).toHaveCount(0);
  await expect(page.getByTestId('template-picker')).toHaveCount(0);
  await expect(page.getByTestId('prev-case')).toHaveCount(0);

  // 4. The slide's thumbnail loads and opens the viewer.
  const thumb = page.getByTestId(`slide-thumb-${c.slideIds[0]}`).locator('img');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  const [viewer] = await Promise.all([page.waitForEvent('popup'), thumb.click()]);
  await expect(viewer.getByTestId('slide-viewer')).toBeVisible();
  await viewer.close();

  // 5. A message to the expert.
  await page.getByRole('tab', { name: /留言/ }).click();
  const thread = page.getByTestId('message-thread');
  await expect(thread).toContainText('还没有留言');
  await thread.getByTestId('message-input').fill('A2 蜡块已重新切片染色，新切片已上传。');
  await thread.getByTestId('message-send').click();
  await expect(thread.getByTestId('message-input')).toHaveValue('');
  await expect(thread.getByTestId('message-item')).toHaveCount(1);
  await expect(thread.getByTestId('message-item')).toContainText('A2 蜡块已重新切片染色');
  await expect(thread.getByTestId('message-delete')).toHaveCount(1);
  await page.screenshot({ path: path.join(OUT, 'zh-CN-staff-message.png') });

  // 6. The expert reads it in the workspace, under the staff member's name.
  const ctx = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1600, height: 1000 } });
  const expert = await ctx.newPage();
  await signInWithToken(expert, 'expert', { to: `/diagnosis/item/${c.id}` });
  await expert.getByRole('tab', { name: /留言/ }).click();
  const theirs = expert.getByTestId('message-thread').getByTestId('message-item');
  await expect(theirs).toHaveCount(1);
  await expect(theirs).toContainText(STAFF);
  await expect(theirs).toContainText('A2 蜡块已重新切片染色');
  await expect(expert.getByTestId('message-thread').getByTestId('message-delete')).toHaveCount(0);
  await ctx.close();
});

for (const lang of SCREEN_LANGUAGES) {
  test(`staff screens in ${lang} at 1440 wide`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    const c = await assignedCase({ patient: '许清欢' });
    const staffId = (await call<{ id: number; name: string }[]>('GET', `/api/distribute/${c.id}/staff`, { token: await apiLogin('allocator') })).body.data!.find((s) => s.name === STAFF)!.id;
    expect((await call('POST', `/api/distribute/${c.id}/bindstaff`, { token: await apiLogin('allocator'), body: { staff_id: staffId } })).status).toBe(200);
    await page.setViewportSize({ width: 1440, height: 900 });
    const settled = async () => {
      await page.waitForLoadState('networkidle');
      await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
    };
    await signInWithToken(page, 'staff', { lang, to: '/diagnosis/manage' });
    await expect(page.getByTestId(`open-${c.id}`)).toBeVisible();
    await settled();
    await page.screenshot({ path: path.join(OUT, `${lang}-1440-staff-manage.png`) });
    await page.goto(`/diagnosis/item/${c.id}`);
    await expect(page.getByTestId('case-staff')).toBeVisible();
    await settled();
    await page.screenshot({ path: path.join(OUT, `${lang}-1440-staff-item.png`) });
  });
}
