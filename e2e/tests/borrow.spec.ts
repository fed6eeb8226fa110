// Borrowing a case's glass slides and blocks as users do it (/borrow/manage):
// the site asks to borrow its case's material; the center passes the request,
// lends the material with a deposit, moves its due date, prints the loan
// slip and takes it back;
// it then receives and stores the case's material in the archive. Then the
// screens (both languages and sizes under make screens), with axe-core checks.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../lib/test';
import { apiLogin, list, unique } from '../lib/api';
import { caseFixture, submittedCase } from '../lib/cases';
import { formItem, input } from '../lib/antd';
import { AXE_SIZE, SCREEN_LANGUAGES, SCREEN_SIZES, searchList, settled, signInWithToken } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'borrow');

async function axe(page: Page, name: string, include: string) {
  await expectAccessible(page, name, include);
}

/** Clicks OK in the open modal and waits for it to close. */
async function confirm(page: Page) {
  const dialog = page.locator('.ant-modal-wrap:not([style*="display: none"]) .ant-modal');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog).toBeHidden();
}

test('a site borrows slides and blocks; the center passes, lends, takes them back and archives the case', async ({ page }) => {
  test.setTimeout(360_000);
  const patient = unique('借阅');
  const siteToken = await apiLogin('site');
  const c = await submittedCase(siteToken, await caseFixture(siteToken), { name: patient });

  // The site asks to borrow the case's slides and blocks.
  await signInWithToken(page, 'site', { lang: 'zh-CN', to: '/borrow/manage' });
  await settled(page);
  await page.getByTestId('borrow-new').click();
  const drawer = page.locator('.ant-drawer-content').filter({ hasText: '申请借阅' });
  await formItem(drawer, '病例').locator('.ant-select-selector').click();
  await page.keyboard.type(c.consult_no);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: c.consult_no }).click();
  // (not pickOption: its Escape would close the drawer)
  await formItem(drawer, '借阅类型').locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: /^外院借阅$/ }).click();
  await input(drawer, '借阅人').fill('王医生（外院）');
  await input(drawer, '借阅用途').fill('外院会诊复核');
  await input(drawer, '蜡块数').fill('1');
  await page.getByTestId('borrow-submit').click();
  await expect(drawer).toBeHidden();
  await searchList(page, c.consult_no);
  const row = page.locator('tr').filter({ hasText: c.consult_no });
  await expect(row.getByTestId('borrow-status')).toHaveText('审核中');
  const loans = await list<{ id: number; status: string }>(siteToken, '/api/borrow/lists', { search: c.consult_no });
  expect(loans.data).toHaveLength(1);
  const id = loans.data[0].id;
  await expect(page.getByTestId(`borrow-approve-${id}`)).toHaveCount(0);

  // The center passes it, lends the material, prints the slip and takes it back.
  await signInWithToken(page, 'center_admin', { lang: 'zh-CN', to: '/borrow/manage' });
  await settled(page);
  await searchList(page, c.consult_no);
  await page.getByTestId(`borrow-approve-${id}`).click();
  await confirm(page);
  await expect(row.getByTestId('borrow-status')).toHaveText('审核通过');
  await page.getByTestId(`borrow-lend-${id}`).click();
  await page.getByTestId('borrow-deposit').fill('200');
  await page.getByTestId('borrow-payee').fill('周敏');
  await confirm(page);
  await expect(row.getByTestId('borrow-status')).toHaveText('借阅中');
  // The center moves the due date; the loan's detail keeps the change.
  const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId(`borrow-extend-${id}`).click();
  await page.getByTestId('borrow-new-due').fill(due);
  await page.keyboard.press('Enter');
  await page.getByTestId('borrow-extend-reason').fill('外院会诊延期');
  await confirm(page);
  await expect(row).toContainText(due);
  await row.locator('a').first().click();
  await expect(page.getByTestId('borrow-due-changes')).toContainText(`→ ${due}`);
  await expect(page.getByTestId('borrow-due-changes')).toContainText('外院会诊延期');
  await settled(page);
  await axe(page, 'loan detail with a due date change', '.ant-drawer-content');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('borrow-due-changes')).toBeHidden();
  const popup = page.waitForEvent('popup');
  const slip = page.waitForResponse((r) => r.url().includes(`/api/borrow/${id}/slip`));
  await page.getByTestId(`borrow-slip-${id}`).click();
  const res = await slip;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  await (await popup).close();
  await page.getByTestId(`borrow-return-${id}`).click();
  await confirm(page);
  await expect(row.getByTestId('borrow-status')).toHaveText('已归还');
  await expect(page.getByTestId(`borrow-return-${id}`)).toHaveCount(0);

  // The archive: receive the case's material, then store it.
  await page.getByTestId('borrow-view-archive').click();
  await expect(page).toHaveURL(/view=archive/);
  await expect(page.getByTestId('list-borrow.archive')).toBeVisible();
  await settled(page);
  await searchList(page, c.consult_no);
  const arow = page.locator('tr').filter({ hasText: c.consult_no });
  await expect(arow.getByTestId('archive-status')).toHaveText('待接收');
  await page.getByTestId(`archive-receive-${c.id}`).click();
  await confirm(page);
  await expect(arow.getByTestId('archive-status')).toHaveText('未归档');
  await page.getByTestId(`archive-store-${c.id}`).click();
  await page.getByTestId('archive-room').fill('档案室 A');
  await page.getByTestId('archive-box').fill('B-12');
  await confirm(page);
  await expect(arow.getByTestId('archive-status')).toHaveText('已归档');
  await expect(arow).toContainText('档案室 A / B-12');

  // The screens (both languages and sizes under make screens).
  for (const lang of SCREEN_LANGUAGES) {
    await signInWithToken(page, 'center_admin', { lang, to: '/borrow/manage' });
    for (const size of SCREEN_SIZES) {
      const { width } = size;
      await page.setViewportSize(size);
      await page.goto('/borrow/manage');
      await settled(page);
      await expect(page.getByTestId(`borrow-slip-${id}`)).toBeVisible();
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-loans.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} loans`, 'main');
      await page.getByTestId('borrow-new').click();
      await expect(page.getByTestId('borrow-purpose')).toBeVisible();
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-request.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} request drawer`, '.ant-drawer-content');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('borrow-purpose')).toBeHidden();
      await page.goto('/borrow/manage?view=archive');
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-archive.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} archive`, 'main');
    }
  }
});
