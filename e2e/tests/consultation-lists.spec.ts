// The consultation screens beyond the main walk: the charge list and its Excel
// export, case messages, recall requests and their menu badge, the admin's case list
// filters with date shortcuts, timed-out markers and the case history.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect, test } from '../lib/test';
import { apiLogin, call, list } from '../lib/api';
import { caseFixture, chargeCase, getCase, recallCase, registerCase, submittedCase, type CaseFixture } from '../lib/cases';
import { pickOption } from '../lib/antd';
import { menuItem, openAllGroups, searchList, signInWithToken, toast } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const zh = JSON.parse(readFileSync(path.resolve(__dirname, '../../web/src/locales/zh-CN.json'), 'utf8')) as Record<string, string>;
const T = (key: string, vars: Record<string, string | number> = {}) => {
  if (zh[key] === undefined) throw new Error(`no zh-CN text ${key}`);
  return zh[key].replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));
};

let f: CaseFixture;
let site: string;
test.beforeAll(async () => {
  site = await apiLogin('site');
  f = await caseFixture(site);
});


/** The files of a zip archive (an xlsx is one), read from its central directory. */
function unzip(buf: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  let p = buf.readUInt32LE(eocd + 16);
  const n = buf.readUInt16LE(eocd + 10);
  for (let i = 0; i < n; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString();
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    out.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

test('the site exports its charges to an Excel file that opens and lists the case', async ({ page }) => {
  const c = await registerCase(site, f, { name: '导出测试' });
  await chargeCase(site, c.id, f.chargeItemId, 2);
  await signInWithToken(page, 'site', { to: '/case/charge' });
  await searchList(page, c.pathology_number);
  const row = page.getByRole('row').filter({ hasText: c.pathology_number });
  await expect(row).toContainText('¥600.00');
  // The export reads the search the page last rendered: the list of this case alone shows it has.
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(1);
  const download = page.waitForEvent('download');
  await page.getByTestId('charge-export').click();
  const file = await (await download).path();
  await expect(toast(page).getByText(T('case.charge.exported'))).toBeVisible();
  const parts = unzip(readFileSync(file));
  for (const p of ['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']) expect([...parts.keys()]).toContain(p);
  const text = (parts.get('xl/sharedStrings.xml') ?? '') + parts.get('xl/worksheets/sheet1.xml');
  expect(text).toContain(c.pathology_number);
  expect(text).toContain('导出测试');
  // The export follows the list's search: only this case's charge is in it.
  expect(text.match(/BL\d{4}-\d{5}/g)?.filter((n, i, a) => a.indexOf(n) === i)).toEqual([c.pathology_number]);
});

test('case messages: the site writes at most 150 characters, reads the center\'s reply and deletes its own message', async ({ page }) => {
  const c = await submittedCase(site, f, { name: '留言测试' });
  const alloc = await apiLogin('allocator');
  await signInWithToken(page, 'site', { to: '/case/message' });
  await page.getByPlaceholder(T('case.searchPlaceholder')).fill(c.pathology_number);
  await page.getByTestId(`message-case-${c.id}`).click();
  const thread = page.getByTestId('message-thread');
  await expect(thread.getByText(T('case.message.none'))).toBeVisible();
  await thread.getByTestId('message-input').fill('病'.repeat(160));
  await expect(thread.getByTestId('message-input')).toHaveValue('病'.repeat(150));
  await expect(thread.getByText('150 / 150')).toBeVisible();
  await thread.getByTestId('message-input').fill('请优先诊断此病例，患者下周手术。');
  await thread.getByTestId('message-send').click();
  // The box empties once the message is sent; then the text is the thread's own.
  await expect(thread.getByTestId('message-input')).toHaveValue('');
  await expect(thread.getByText('请优先诊断此病例，患者下周手术。')).toBeVisible();

  const reply = await call('POST', `/api/consultation/resources/${c.id}/message`, { token: alloc, body: { content: '收到，已安排专家。' } });
  expect(reply.status).toBe(200);
  await page.reload();
  await page.getByPlaceholder(T('case.searchPlaceholder')).fill(c.pathology_number);
  await page.getByTestId(`message-case-${c.id}`).click();
  const theirs = thread.locator('div').filter({ hasText: /^收到，已安排专家。$/ }).first();
  await expect(theirs).toBeVisible();
  // Only one's own messages can be deleted.
  await expect(thread.getByRole('button', { name: T('common.delete') })).toHaveCount(1);
  await thread.getByRole('button', { name: T('common.delete') }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: /^删\s*除$/ }).click();
  await expect(thread.getByText('请优先诊断此病例，患者下周手术。')).toBeHidden();
  await expect(theirs).toBeVisible();
});

test('recall requests: the admin menu badge counts them; the allocator rejects one with a reason on /distribute/recall', async ({ page }) => {
  const c = await submittedCase(site, f, { name: '驳回撤回' });
  await recallCase(site, c.id, '患者要求撤回');
  const admin = await apiLogin('admin');
  const pending = async (token: string) => ((await call<Record<string, number>>('GET', '/api/consultation/count', { token })).body.data ?? {}).recall_pending;

  await signInWithToken(page, 'admin', { to: '/admin/withdraw-manage' });
  await openAllGroups(page);
  const badge = menuItem(page, '撤回审核').first();
  await expect(badge).toContainText(String(await pending(admin)));

  await signInWithToken(page, 'allocator', { to: '/distribute/recall' });
  await searchList(page, c.pathology_number);
  const row = page.getByRole('row').filter({ hasText: c.pathology_number });
  await expect(row).toContainText('患者要求撤回');
  await page.getByTestId(`case-recall_reject-${c.id}`).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('reason-ok') });
  await dialog.getByTestId('reason-ok').click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toBeVisible();
  await dialog.getByTestId('reason-input').fill('专家已出具初步意见，不同意撤回');
  await dialog.getByTestId('reason-ok').click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeHidden();
  expect((await getCase(site, c.id)).status_label.key).toBe('to_allot');
  const log = (await call<{ action: string; detail?: string }[]>('GET', `/api/consultation/resources/${c.id}/log`, { token: site })).body.data!;
  expect(log.map((l) => l.action)).toEqual(['create', 'charge', 'submit', 'recall', 'recall_reject']);

  await signInWithToken(page, 'admin', { to: '/admin/withdraw-manage' });
  await openAllGroups(page);
  await expect(menuItem(page, '撤回审核').first()).toContainText(String(await pending(admin)));
});

test('the admin narrows all cases by hospital and a date shortcut; the timed-out tabs mark their cases; a case shows its history', async ({ page }) => {
  await signInWithToken(page, 'admin', { to: '/admin/consultation-manage' });
  const form = page.getByTestId('search-form');
  await pickOption(page, form, T('case.field.hospital'), '临江县人民医院');
  await form.getByTestId('search-submit').click();
  const rows = page.locator('main .ant-table-row');
  await expect(page).toHaveURL(/hospital_id/);
  await expect.poll(async () => (await rows.allInnerTexts()).every((r) => r.includes('临江县人民医院'))).toBe(true);
  await expect(rows.first()).toBeVisible();

  // Date shortcut: registered today (the demo cases were).
  const registered = form.locator('.ant-form-item').filter({ hasText: T('case.field.createdAt') });
  await registered.locator('.ant-picker').click();
  await page.locator('.ant-picker-dropdown:visible .ant-picker-presets li').filter({ hasText: T('date.today') }).click();
  await form.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/created_at/);
  const admin = await apiLogin('admin');
  const url = new URL(page.url());
  const expected = await list(admin, '/api/consultation/list', Object.fromEntries([...url.searchParams].filter(([k]) => ['params', 'constraints'].includes(k))));
  await expect(page.locator('main .ant-pagination-total-text')).toContainText(String(expected.meta?.pagination?.total));

  await form.getByRole('button', { name: /^重\s*置$/ }).click();
  await page.getByTestId('tab-timeout').click();
  await expect(page).toHaveURL(/timeout/);
  await expect(rows.first()).toBeVisible();
  await expect.poll(async () => (await rows.allInnerTexts()).every((r) => r.includes(T('case.timing.timeout')))).toBe(true);
  await page.getByTestId('tab-more').click();
  await page.locator('.ant-dropdown:visible').getByTestId('tab-soon_timeout').click();
  await expect(page).toHaveURL(/soon_timeout/);
  await expect.poll(async () => (await rows.allInnerTexts()).every((r) => r.includes(T('case.timing.soon')))).toBe(true);
  await expect(rows.first()).toBeVisible();

  await page.locator('main [data-testid^=case-open-]').first().click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByRole('tab', { name: T('case.tabs.log') }).click();
  await expect(drawer.locator('.ant-timeline-item').first()).toBeVisible();
  await expect(drawer.locator('.ant-timeline')).toContainText('登记病例');
});

test('the admin\'s case views fit one bar at 1440 px in both languages; the rarer ones are under More views with exact counts, kept in the address', async ({ page }) => {
  const admin = await apiLogin('admin');
  const counts = (await call<Record<string, number>>('GET', '/api/consultation/count', { token: admin })).body.data!;
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const lang of ['en-US', 'zh-CN'] as const) {
    await signInWithToken(page, 'admin', { lang, to: '/admin/consultation-manage' });
    await expect(page.getByTestId('tab-all')).toBeVisible();
    // Every tab lies inside the bar: nothing is left to antd's overflow button.
    const fit = await page.locator('main .ant-tabs-nav').first().evaluate((nav) => {
      const wrap = nav.querySelector('.ant-tabs-nav-wrap')!;
      const list = nav.querySelector('.ant-tabs-nav-list')!;
      return { list: list.scrollWidth, wrap: wrap.clientWidth };
    });
    expect(fit.list, `${lang}: ${fit.list} px of tabs in a ${fit.wrap} px bar`).toBeLessThanOrEqual(fit.wrap);
  }
  await expect(page.locator('main [role=tab]')).toHaveCount(7);
  await page.getByTestId('tab-more').click();
  const item = page.locator('.ant-dropdown:visible').getByTestId('tab-returned_site');
  await expect(item).toContainText(String(counts.returned_site));
  await item.click();
  await expect(page).toHaveURL(/returned_site/);
  const more = page.getByTestId('tab-more');
  await expect(more).toContainText(T('case.tab.returned_site'));
  await expect(more).toContainText(String(counts.returned_site));
  if (counts.returned_site > 0) await expect(page.locator('main .ant-pagination-total-text')).toContainText(String(counts.returned_site));
  await expect(page.locator('main [role=tab][aria-selected=true]')).toHaveCount(0);
  await expectAccessible(page, 'consultation-manage, a view from More views', 'main');
  // The address keeps the view: loaded again, the menu's button still names it.
  await page.reload();
  await expect(page.getByTestId('tab-more')).toContainText(T('case.tab.returned_site'));
  await page.getByTestId('tab-timeout').click();
  await expect(page.getByTestId('tab-more')).toHaveText(T('list.moreViews'));
});
