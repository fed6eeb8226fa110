// Diagnosis terms: the expert keeps their own on /setting/diagnosisTemplate
// (terms tab) and inserts one in a click where they are writing, at the caret.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, call } from '../lib/api';
import { assignedCase } from '../lib/cases';
import { input } from '../lib/antd';
import { expect, test } from '../lib/test';
import { signInWithToken, toast } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const field = (page: Page, key: string) => page.getByTestId(`field-${key}`);
const search = (page: Page) => page.locator('input[data-testid="term-search"], [data-testid="term-search"] input').first();
const popover = (page: Page) => page.getByTestId('term-popover');
const caretOf = (page: Page, key: string) =>
  field(page, key).evaluate((el: HTMLTextAreaElement) => (document.activeElement === el ? [el.selectionStart, el.selectionEnd] : null));

/** Public terms an administrator keeps, shown to every expert. */
async function publicTerms() {
  const admin = await apiLogin('admin');
  const terms: [string, string][] = [
    ['乳腺', '导管原位癌'],
    ['乳腺', 'ER（+），PR（+），HER-2（1+）'],
    ['胃肠', '管状腺癌，中分化'],
    ['胃肠', '浸润至浆膜下层'],
    ['通用', '切缘未见癌累及'],
    ['通用', '淋巴结（0/12）未见转移'],
    ['通用', 'Ki-67 阳性率约 %'],
    ['通用', '建议结合临床及影像学检查'],
  ];
  for (const [i, [category, text]] of terms.entries()) {
    const r = await call('POST', '/api/config/term', { token: admin, body: { category, text, sort_order: i, public: true } });
    expect([200, 422]).toContain(r.status); // 422: already there from an earlier test of this run
  }
}

test('the expert adds a term and inserts it at the caret of the diagnosis; the draft keeps it', async ({ page }) => {
  const c = await assignedCase({ patient: '褚术语' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // 1. The terms tab: empty at first, then the expert's own term.
  await signInWithToken(page, 'expert', { to: '/setting/diagnosisTemplate' });
  await page.getByRole('tab', { name: '常用术语' }).click();
  await expect(page).toHaveURL(/\?tab=terms$/);
  await expect(page.getByTestId('term-table')).toContainText('还没有常用术语');
  await page.screenshot({ path: path.join(OUT, 'zh-CN-1440x900-terms-empty.png') });
  await page.getByTestId('term-new').click();
  const drawer = page.getByTestId('term-form');
  await input(drawer, '术语').fill('浸润性导管癌');
  await input(drawer, '分类').fill('乳腺');
  await page.screenshot({ path: path.join(OUT, 'zh-CN-1440x900-terms-drawer.png') });
  await drawer.getByTestId('drawer-submit').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await expect(page.getByTestId('term-table').getByRole('row').filter({ hasText: '浸润性导管癌' })).toContainText('乳腺');
  await publicTerms();
  await page.reload();
  await expect(page.getByRole('tab', { name: '常用术语', selected: true })).toBeVisible();
  await expect(page.getByTestId('term-table')).toContainText('淋巴结（0/12）未见转移');
  await page.screenshot({ path: path.join(OUT, 'zh-CN-1440x900-terms-tab.png') });

  // 2. The case, locked; the caret inside the opinion.
  await page.goto(`/diagnosis/item/${c.id}`);
  await page.getByTestId('action-lock').click();
  await expect(toast(page).getByText('已锁定，可以开始诊断')).toBeVisible();
  await field(page, 'opinion').fill('（左乳肿物）。');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  expect(await caretOf(page, 'opinion')).toEqual([6, 6]);

  // 3. The popover: its search has the focus; a click inserts at the caret and
  // gives the focus back to the opinion with the caret after the term.
  await page.getByTestId('term-picker').click();
  await expect(search(page)).toBeFocused();
  await popover(page).getByTestId('term-categories').getByText('乳腺').click();
  await expect(popover(page).getByText('切缘未见癌累及')).toHaveCount(0);
  await expect(popover(page).locator('.ant-segmented-item-selected')).toHaveText('乳腺');
  await page.screenshot({ path: path.join(OUT, 'zh-CN-1440x900-terms-popover.png') });
  await popover(page).getByText('浸润性导管癌', { exact: true }).click();
  await expect(popover(page)).toBeHidden();
  await expect(field(page, 'opinion')).toHaveValue('（左乳肿物）浸润性导管癌。');
  expect(await caretOf(page, 'opinion')).toEqual([12, 12]);
  await page.keyboard.type('（非特殊类型）');
  await expect(field(page, 'opinion')).toHaveValue('（左乳肿物）浸润性导管癌（非特殊类型）。');

  // 4. Keyboard: Enter inserts the first match into the field last focused, over its selection; Esc closes.
  await field(page, 'microscopic').fill('镜下见癌组织呈巢状浸润，XX。');
  await field(page, 'microscopic').evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(12, 14));
  await page.getByTestId('term-picker').click();
  await popover(page).getByTestId('term-categories').getByText('全部').click();
  await search(page).fill('切缘');
  await page.keyboard.press('Enter');
  await expect(field(page, 'microscopic')).toHaveValue('镜下见癌组织呈巢状浸润，切缘未见癌累及。');
  expect(await caretOf(page, 'microscopic')).toEqual([19, 19]);
  await page.getByTestId('term-picker').click();
  await expect(search(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(popover(page)).toBeHidden();

  // 5. Saved like typed text; a reload shows it.
  await page.getByTestId('action-save').click();
  await expect(toast(page).getByText(/已保存|保存成功/)).toBeVisible();
  await page.reload();
  await expect(field(page, 'opinion')).toHaveValue('（左乳肿物）浸润性导管癌（非特殊类型）。');
  await expect(field(page, 'microscopic')).toHaveValue('镜下见癌组织呈巢状浸润，切缘未见癌累及。');
  const saved = (await call<{ opinion: string; status: string }[]>('GET', `/api/diagnosis/${c.id}`, { token: await apiLogin('expert') })).body.data!;
  expect(saved.at(-1)?.opinion).toBe('（左乳肿物）浸润性导管癌（非特殊类型）。');

  // 6. The same screens in English.
  await page.evaluate(() => localStorage.setItem('tp.language', 'en-US'));
  await page.goto('/setting/diagnosisTemplate?tab=terms');
  await expect(page.getByRole('tab', { name: 'Terms', selected: true })).toBeVisible();
  await expect(page.getByTestId('term-table')).toContainText('浸润性导管癌');
  await page.screenshot({ path: path.join(OUT, 'en-US-1440x900-terms-tab.png') });
  await page.goto(`/diagnosis/item/${c.id}`);
  await page.getByTestId('term-picker').click();
  await expect(search(page)).toBeFocused();
  await expect(popover(page)).toContainText('Enter inserts the first');
  await page.screenshot({ path: path.join(OUT, 'en-US-1440x900-terms-popover.png') });
});
