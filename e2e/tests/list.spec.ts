import { expect, test } from '../lib/test';
import { signInWithToken } from '../lib/ui';

test('users list: a custom condition (role in expert, username like "expert", except username like "2") leaves only expert, and the URL keeps it across a reload', async ({ page }) => {
  await signInWithToken(page, 'admin', { to: '/system/user' });
  const list = page.getByTestId('list-system.user');
  const usernames = list.locator('.ant-table-tbody tr.ant-table-row td:nth-child(3)');
  await expect(usernames.first()).toBeVisible();

  await list.getByRole('button', { name: '自定义条件' }).click();
  const builder = page.getByTestId('condition-builder');
  for (let i = 0; i < 3; i++) await builder.getByRole('button', { name: '添加条件' }).click();
  const rows = builder.locator(':scope > div').filter({ has: page.getByRole('textbox', { name: '值' }) });
  await expect(rows).toHaveCount(3);

  const choose = async (row: number, label: string, option: string) => {
    await rows.nth(row).locator('.ant-select').filter({ has: page.getByRole('combobox', { name: label }) }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().locator('.ant-select-item-option').filter({ hasText: new RegExp(`^${option}$`) }).click();
  };
  // Row 1: and · 角色 · 属于 · expert
  await choose(0, '字段', '角色');
  await choose(0, '运算符', '属于');
  await rows.nth(0).getByRole('textbox', { name: '值' }).fill('expert');
  // Row 2: and · 用户名 · 包含 · expert (other specs make experts of their own)
  await choose(1, '字段', '用户名');
  await choose(1, '运算符', '包含');
  await rows.nth(1).getByRole('textbox', { name: '值' }).fill('expert');
  // Row 3: except · 用户名 · 包含 · 2
  await choose(2, '条件关系', '排除');
  await choose(2, '字段', '用户名');
  await choose(2, '运算符', '包含');
  await rows.nth(2).getByRole('textbox', { name: '值' }).fill('2');

  await page.getByTestId('search-submit').click();
  await expect(usernames).toHaveText(['expert']);
  await expect(page.getByText('共 1 条')).toBeVisible();

  // The state is in the URL: constraints with the inverted operator for "except".
  const url = new URL(page.url());
  const constraints = JSON.parse(url.searchParams.get('constraints') ?? '[]');
  expect(constraints[0].constraint).toEqual([
    expect.objectContaining({ column: 'role', operator: 'in', value: ['expert'] }),
    expect.objectContaining({ column: 'username', operator: 'like', value: 'expert' }),
    expect.objectContaining({ column: 'username', operator: 'not like', value: '2' }),
  ]);

  await page.reload();
  await expect(usernames).toHaveText(['expert']);
  await expect(page.getByTestId('condition-builder').getByRole('textbox', { name: '值' }).first()).toHaveValue('expert');

  // Reset clears both the list filter and the URL.
  await page.getByTestId('search-form').getByRole('button', { name: /^重\s*置$/ }).click();
  await expect(page).not.toHaveURL(/constraints=/);
  await expect(usernames.nth(1)).toBeVisible();
});

test('users list: a search form field and the tab are kept in the URL, and Back restores the previous filter', async ({ page }) => {
  await signInWithToken(page, 'admin', { to: '/system/user' });
  const usernames = page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(3)');
  await expect(usernames.first()).toBeVisible();
  const total = await usernames.count();

  const search = page.getByTestId('search-form');
  await search.getByRole('textbox').first().fill('site');
  await page.getByTestId('search-submit').click();
  // The user-name field matches the whole name (site, not site2).
  await expect(usernames).toHaveText(['site']);
  expect(JSON.parse(new URL(page.url()).searchParams.get('params') ?? '{}')).toMatchObject({ username: 'site' });

  await page.getByTestId('tab-disabled').click();
  await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('tab-disabled').locator('xpath=ancestor::*[@role="tab"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();

  await page.goBack();
  await expect(usernames).toHaveText(['site']);
  await page.goBack();
  await expect(usernames).toHaveCount(total);
});
