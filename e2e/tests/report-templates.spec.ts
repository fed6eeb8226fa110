// Report templates (/setting/report, admin): the admin edits the routine
// template in use — renames a heading, hides a section, moves the diagnosis
// up — and a published case's PDF follows; bad input shows the localized
// error and writes nothing. Screenshots of the list and the editor (both
// languages and sizes under make screens) go to e2e/artifacts/screens/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, call, list, unique, type Lang } from '../lib/api';
import { publishedCase, reportPDF } from '../lib/cases';
import { expect, test } from '../lib/test';
import { menuItem, openAllGroups, signInWithToken, toast, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';

interface Template {
  id: number;
  kind: string;
  name: string;
  active: boolean;
  layout: { sections: { key: string; show: boolean; heading_zh?: string; heading_en?: string }[] } & Record<string, unknown>;
}

test.describe.configure({ mode: 'serial' });

async function routineInUse(token: string): Promise<Template> {
  const page = await list<Template>(token, '/api/setting/report/list', { params: JSON.stringify({ kind: 'routine', active: 1 }) });
  expect(page.data).toHaveLength(1);
  return page.data[0];
}

/** The PDF's text (pdftotext), whitespace removed; null when poppler-utils is missing. */
function pdfText(pdf: Buffer): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'tp-report-'));
  const file = path.join(dir, 'r.pdf');
  writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString().replace(/\s+/g, '');
  } catch {
    return null;
  }
}

const section = (page: Page, key: string) => page.getByTestId(`section-${key}`);

test('the admin edits the routine template and the report follows it', async ({ page }) => {
  const admin = await apiLogin('admin');
  const original = await routineInUse(admin);
  const heading = `显微镜下观察${unique('').slice(-3)}`;
  const c = await publishedCase({
    patient: '林秀梅',
    diagnosis: { microscopic: '镜下见腺体增生排列紊乱。', opinion: '（胃窦）慢性萎缩性胃炎伴肠化。', remark: '建议三个月后复查胃镜。' },
  });
  const site = await apiLogin('site');
  const before = pdfText(await reportPDF(site, c.id));
  if (before !== null) expect(before).toContain('建议三个月后复查胃镜');

  try {
    await signInWithToken(page, 'admin', { lang: 'zh-CN' });
    await openAllGroups(page);
    await menuItem(page, '报告模板').click();
    await expect(page).toHaveURL(/\/setting\/report$/);
    const row = page.getByRole('row').filter({ hasText: original.name });
    await expect(row).toContainText('使用中');
    await page.getByTestId(`report-template-actions-${original.id}`).getByRole('button', { name: '编辑' }).click();
    await expect(page.getByTestId('report-template-form')).toBeVisible();

    // Bad input first: an empty heading is refused with the localized message; nothing is written.
    await section(page, 'gross').getByLabel('大体所见 英文标题').fill('');
    await page.getByTestId('report-template-save').click();
    await expect(section(page, 'gross').locator('.ant-form-item-explain-error')).toHaveText('标题不能为空');
    await expect(toast(page)).toContainText('标题不能为空');
    expect((await routineInUse(admin)).layout).toEqual(original.layout);
    await section(page, 'gross').getByLabel('大体所见 英文标题').fill('Gross description');
    await expect(section(page, 'gross').locator('.ant-form-item-explain-error')).toHaveCount(0);

    // Rename a heading, hide a section, move the diagnosis above the microscopic findings.
    await section(page, 'microscopic').getByLabel('镜下所见 中文标题').fill(heading);
    await section(page, 'remark').getByRole('checkbox').uncheck();
    await section(page, 'diagnosis').getByRole('button', { name: '上移 诊断' }).click();
    await section(page, 'diagnosis').getByRole('button', { name: '上移 诊断' }).click();
    const outline = page.getByTestId('report-outline');
    await expect(outline).toContainText(heading);
    await expect(outline.getByTestId('outline-remark')).toHaveCount(0);
    const order = await outline.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(order.indexOf('outline-diagnosis')).toBeLessThan(order.indexOf('outline-microscopic'));
    await page.getByTestId('report-template-save').click();
    await expect(toast(page)).toContainText('保存成功');
    await expect(page).toHaveURL(new RegExp(`/setting/report/view/${original.id}$`));
    await expect(page.getByRole('cell', { name: heading })).toBeVisible();

    const text = pdfText(await reportPDF(site, c.id));
    test.skip(text === null, 'pdftotext (poppler-utils) is not installed');
    expect(text).toContain(heading);
    expect(text).not.toContain('镜下所见');
    expect(text).not.toContain('建议三个月后复查胃镜');
    expect(text).toContain('林秀梅');
    const d = text!.indexOf('慢性萎缩性胃炎伴肠化');
    const m = text!.indexOf('镜下见腺体增生排列紊乱');
    expect(d).toBeGreaterThan(-1);
    expect(d).toBeLessThan(m);

    const stored = await routineInUse(admin);
    const en = await call('POST', `/api/setting/report/${original.id}`, { token: admin, lang: 'en-US', body: { name: original.name, active: true, layout: { ...stored.layout, sections: stored.layout.sections.map((s) => (s.key === 'diagnosis' ? { ...s, show: false } : s)) } } });
    expect(en.status).toBe(422);
    expect(JSON.stringify(en.body.errors)).toContain('must include and show the diagnosis section');
  } finally {
    // Other specs read reports too: put the template back as it was.
    const r = await call('POST', `/api/setting/report/${original.id}`, { token: admin, body: { name: original.name, active: true, layout: original.layout } });
    expect(r.status).toBe(200);
  }
});

test('the admin adds a frozen template from the built-in layout, out of use', async ({ page }) => {
  const admin = await signInWithToken(page, 'admin', { lang: 'zh-CN', to: '/setting/report' });
  const before = await list<Template>(admin, '/api/setting/report/list', { params: JSON.stringify({ kind: 'frozen' }) });
  await page.getByTestId('report-template-new').hover();
  await page.getByRole('menuitem', { name: '冰冻报告' }).click();
  await expect(page).toHaveURL(/\/setting\/report\/frozen$/);
  await expect(page.getByRole('heading', { name: '新建冰冻报告模板' })).toBeVisible();
  await expect(section(page, 'diagnosis').getByLabel('诊断 中文标题')).toHaveValue('冰冻诊断');
  await page.getByTestId('report-template-save').click();
  await expect(page.getByText('请输入模板名称')).toBeVisible();
  const name = unique('术中快速');
  await page.getByLabel('模板名称').fill(name);
  await page.getByTestId('report-template-save').click();
  await expect(page).toHaveURL(/\/setting\/report\/view\/\d+$/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('未使用')).toBeVisible();
  const after = await list<Template>(admin, '/api/setting/report/list', { params: JSON.stringify({ kind: 'frozen' }) });
  expect(after.data).toHaveLength(before.data.length + 1);
  expect(after.data.filter((t) => t.active)).toHaveLength(1);
});

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
for (const lang of SCREEN_LANGUAGES) {
  for (const size of SCREEN_SIZES) {
    test(`report template screens in ${lang} at ${size.width}`, async ({ page }) => {
      mkdirSync(OUT, { recursive: true });
      const file = (name: string) => path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`);
      await page.setViewportSize(size);
      const token = await signInWithToken(page, 'admin', { lang, to: '/setting/report' });
      const tpl = await routineInUse(token);
      await expect(page.getByTestId(`report-template-actions-${tpl.id}`)).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: file('setting-report') });
      await page.goto(`/setting/report/edit/${tpl.id}`);
      await expect(page.getByTestId('report-outline')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: file('setting-report-edit'), fullPage: true });
      await page.goto(`/setting/report/view/${tpl.id}`);
      await expect(page.getByTestId('report-outline')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: file('setting-report-view') });
    });
  }
}
