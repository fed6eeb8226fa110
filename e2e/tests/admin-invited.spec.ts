// Administration of invitations and expert availability (issue 16): the
// admin finds an invitation on /admin/invited-manage, narrows the list by
// invitee and exports it; an expert marks themselves away in their account
// settings and the allocator's assign dialog shows it. Screenshots (both
// languages and sizes under make screens) and an accessibility check (axe-core).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../lib/test';
import { apiLogin, call, ok, unique, type Lang } from '../lib/api';
import { pickOption } from '../lib/antd';
import { assignedCase, caseFixture, submittedCase, userId } from '../lib/cases';
import { resize, searchList, settled, signInWithToken, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';
import { sheetRows } from '../lib/xlsx';
import { expectAccessible } from '../lib/axe';

// The walks set expert2 away and back: one at a time, or one walk's "back" undoes another's "away".
test.describe.configure({ mode: 'serial' });

const INVITEE = '刘芳 副主任医师'; // expert2 of the demo center
const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');

async function shootAndCheck(page: Page, lang: Lang, name: string, only?: string) {
  mkdirSync(OUT, { recursive: true });
  for (const size of SCREEN_SIZES) {
    await resize(page, size);
    await settled(page);
    await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`) });
  }
  await expectAccessible(page, name, only);
}

/** A case the demo expert asked expert2 about; expert2 answered with reply. */
async function invitedCase(reply: string) {
  const c = await assignedCase({ patient: unique('邀请') });
  await ok('POST', `/api/diagnosis/${c.id}/invited`, await apiLogin('expert'), { invitee_ids: [await userId('expert2')], message: '请协助判断切缘' });
  const expert2 = await apiLogin('expert2');
  const mine = await ok<{ id: number }[]>('GET', `/api/diagnosis/${c.id}/invited/info`, expert2);
  await ok('POST', `/api/diagnosis/${c.id}/invited/${mine[0].id}`, expert2, { reply });
  return c;
}

test('the admin finds an answered invitation, narrows it by invitee and exports it', async ({ page }) => {
  const reply = unique('同意腺癌');
  const c = await invitedCase(reply);
  await signInWithToken(page, 'admin', { to: '/admin/invited-manage' });
  await searchList(page, c.consultNo);
  const row = page.locator('main .ant-table-row').filter({ hasText: c.consultNo });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(INVITEE);
  await expect(row).toContainText(reply);
  await expect(row).toContainText('已回复');

  // Narrowed by invitee (chosen by name) and the answered tab: still there.
  const form = page.getByTestId('search-form');
  await pickOption(page, form, '受邀专家', INVITEE);
  await form.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/invitee_id/);
  await page.getByTestId('tab-answered').click();
  await expect(row).toHaveCount(1);
  await page.getByTestId('tab-unanswered').click();
  await expect(row).toHaveCount(0);
  await page.getByTestId('tab-answered').click();

  const download = page.waitForEvent('download');
  await page.getByTestId('invited-export').click();
  const rows = sheetRows(readFileSync(await (await download).path()));
  expect(rows[0]).toEqual(['会诊编号', '患者', '邀请人', '受邀专家', '邀请时间', '邀请说明', '状态', '回复', '回复时间']);
  const line = rows.find((r) => r[0] === c.consultNo);
  expect(line?.slice(2, 4)).toEqual(['张建国 主任医师', INVITEE]);
  expect(line?.[7]).toBe(reply);
  expect(rows.slice(1).every((r) => r[3] === INVITEE && r[6] === '已回复')).toBe(true);
});

test('an expert marks themselves away and the allocator sees it when assigning', async ({ page }) => {
  const expert2 = await apiLogin('expert2');
  try {
    await signInWithToken(page, 'expert2', { to: '/account' });
    const card = page.getByTestId('account-availability');
    const patched = () => page.waitForResponse((r) => r.url().endsWith('/api/user/diagnosis/status') && r.request().method() === 'PATCH');
    const answer = patched();
    await card.getByTestId('availability-switch').click();
    expect((await answer).status()).toBe(200);
    await expect(card.getByTestId('availability-note')).toBeVisible();
    const now = await ok<{ away: boolean; away_note?: string }>('GET', '/api/user/diagnosis/status', expert2);
    expect(now).toMatchObject({ away: true });

    const site = await apiLogin('site');
    const sc = await submittedCase(site, await caseFixture(site), { name: unique('分配') });
    await signInWithToken(page, 'allocator', { to: '/distribute/manage' });
    await searchList(page, sc.pathology_number);
    await page.getByTestId(`case-bind_expert-${sc.id}`).click();
    const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('expert-ok') });
    await dialog.getByTestId('expert-select').click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: INVITEE });
    await expect(option).toContainText('暂停接诊');
    await option.click();
    await expect(dialog.getByTestId('expert-away-warning')).toContainText(`${INVITEE} 暂停接诊`);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
  } finally {
    await call('PATCH', '/api/user/diagnosis/status', { token: expert2, body: { away: false } });
  }
});

for (const lang of SCREEN_LANGUAGES) {
  test(`screenshots and accessibility of the invitation list and availability (${lang})`, async ({ page }) => {
    await invitedCase(lang === 'en-US' ? 'Agree: adenocarcinoma, margins clear' : '同意：腺癌，切缘阴性');
    await page.setViewportSize(SCREEN_SIZES[0]);
    await signInWithToken(page, 'admin', { lang, to: '/admin/invited-manage' });
    await expect(page.locator('main .ant-table-row').first()).toBeVisible();
    await shootAndCheck(page, lang, 'admin-invited-manage');

    const expert2 = await apiLogin('expert2');
    try {
      await ok('PATCH', '/api/user/diagnosis/status', expert2, { away: true, away_note: lang === 'en-US' ? 'At a conference' : '外出开会' });
      await signInWithToken(page, 'expert2', { lang, to: '/account' });
      await expect(page.getByTestId('availability-note')).toBeVisible();
      await shootAndCheck(page, lang, 'account-availability', '[data-testid="account-availability"]');

      const site = await apiLogin('site');
      const sc = await submittedCase(site, await caseFixture(site), { name: unique('截图') });
      await signInWithToken(page, 'allocator', { lang, to: '/distribute/manage' });
      await searchList(page, sc.pathology_number);
      await page.getByTestId(`case-bind_expert-${sc.id}`).click();
      const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('expert-ok') });
      await dialog.getByTestId('expert-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: INVITEE }).click();
      await expect(dialog.getByTestId('expert-away-warning')).toBeVisible();
      await shootAndCheck(page, lang, 'assign-expert-away', '.ant-modal-content');
    } finally {
      await call('PATCH', '/api/user/diagnosis/status', { token: expert2, body: { away: false } });
    }
  });
}
