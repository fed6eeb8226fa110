// Statistics as users read them: the administrator opens the consultation
// statistics, changes the period and a hospital, sees the chart and table follow,
// exports the Excel file and finds the screen's numbers in it; the QC targets
// move the HE screen's target; qc_expert and site see their screens and only their
// scope. Then every statistics screen (both languages and sizes under make
// screens), with axe-core checks.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from '../lib/test';
import { apiLogin, call, menu, ok, visibleMenuNames, type Lang } from '../lib/api';
import { settled, signInWithToken, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';
import { publishedCase, tinySlide, uploadSlide } from '../lib/cases';
import { sheetRows } from '../lib/xlsx';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'statistics');
test.describe.configure({ mode: 'serial' });

interface Stats {
  start: string;
  end: string;
  granularity: string;
  cards: { key: string; label: string; value: number | null }[];
  tables: { key: string; rows: { key: string; label: string; values: (number | null)[] }[] }[];
}
interface Options {
  hospitals: { id: number; name: string }[];
}

async function axe(page: Page, name: string) {
  await expectAccessible(page, name, 'main');
}

// The demo cases are registered, submitted and assigned, never published: two
// published cases (one per hospital), their slides graded, give every screen numbers.
test.beforeAll(async () => {
  test.setTimeout(120_000);
  for (const [site, expert, grades] of [['site', 'expert', ['A', 'B']], ['site2', 'expert2', ['C', 'D']]] as const) {
    const token = await apiLogin(site);
    const slides = [await uploadSlide(token, tinySlide(), 'stat-1.svs'), await uploadSlide(token, tinySlide(), 'stat-2.svs')];
    const c = await publishedCase({ site, expert, slideIds: slides });
    const e = await apiLogin(expert);
    for (const [i, grade] of grades.entries()) {
      await ok('POST', '/api/judge/slide/store', e, { consult_id: c.id, slide_id: slides[i], grade, reason: grade === 'D' ? '切片刀痕，组织折叠' : '' });
    }
  }
});

const cardValue = async (page: Page, key: string) => (await page.getByTestId(`stat-card-${key}`).locator('.ant-statistic-content-value').innerText()).trim();
const digits = (s: string) => s.replace(/[^\d.]/g, '');
const statsReply = (page: Page, screen: string, has: string) =>
  page.waitForResponse((r) => r.url().includes(`/api/statistical/${screen}?`) && r.url().includes(has) && r.status() === 200);

test('the administrator changes period and hospital, and exports the numbers the screen shows', async ({ page }) => {
  await signInWithToken(page, 'admin', { lang: 'zh-CN', to: '/statistical/consultation' });
  await expect(page.getByTestId('stat-card-registered')).toBeVisible();
  await expect(page.getByTestId('stat-echart-case_trend').locator('svg')).toBeVisible();

  // This year: the trend turns to weeks, the numbers are the API's for the same days.
  const year = statsReply(page, 'consultation', '-01-01');
  await page.getByTestId('stat-shortcuts').getByText('本年').click();
  const yearly = ((await (await year).json()) as { data: Stats }).data;
  expect(yearly.granularity).toBe(yearly.end.slice(5) <= '03-03' ? 'day' : 'week');
  const registered = yearly.cards.find((c) => c.key === 'registered')!.value!;
  expect(registered).toBeGreaterThan(0);
  await expect(page.getByTestId('stat-card-registered')).toContainText(String(registered));

  // One hospital: its row and the total are left, the total is its count.
  const admin = await apiLogin('admin');
  const options = await ok<Options>('GET', '/api/statistical/options', admin);
  const h1 = options.hospitals.find((h) => h.name === '明州市第一人民医院')!;
  const filtered = statsReply(page, 'consultation', `hospital_id=${h1.id}`);
  await page.getByTestId('stat-filter-hospital').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: h1.name }).click();
  const one = ((await (await filtered).json()) as { data: Stats }).data;
  const table = page.getByTestId('stat-table-by_hospital');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(one.tables[0].rows.length);
  for (const r of one.tables[0].rows) expect(['明州市第一人民医院', '合计']).toContain(r.label);
  const shown = await cardValue(page, 'registered');
  expect(Number(digits(shown))).toBe(one.cards.find((c) => c.key === 'registered')!.value);

  // The export holds exactly what is shown: the cards on the first sheet, the table on the second.
  const download = page.waitForEvent('download');
  await page.getByTestId('stat-export').click();
  const buf = readFileSync(await (await download).path());
  const summary = sheetRows(buf, 1);
  for (const c of one.cards) {
    const row = summary.find((r) => r[0] === c.label);
    expect(row, c.label).toBeTruthy();
    expect(row![1]).toBe(c.value === null ? '' : String(c.value));
  }
  const sheet = sheetRows(buf, 2);
  expect(sheet.slice(1).map((r) => r[0])).toEqual(one.tables[0].rows.map((r) => r.label));
  expect(sheet.slice(1).map((r) => r[1])).toEqual(one.tables[0].rows.map((r) => String(r.values[0])));

  // A bad period is refused in the reader's language.
  const bad = await call('GET', '/api/statistical/consultation?start=2026-03-10&end=2026-03-01', { token: admin, lang: 'en-US' });
  expect(bad.status).toBe(422);
  expect(JSON.stringify(bad.body)).toContain('The end of the period is before its start');
});

test('the QC target moves the HE screen and is validated', async ({ page }) => {
  const admin = await apiLogin('admin');
  await signInWithToken(page, 'admin', { lang: 'zh-CN', to: '/setting/qcConfig' });
  await page.getByTestId('qc-he_excellent-qc_value').fill('96');
  await page.getByTestId('qc-save').click();
  await expect(page.getByText('目标值不能低于质控值')).toBeVisible();
  await page.getByTestId('qc-he_excellent-qc_value').fill('85');
  await page.getByTestId('qc-he_excellent-goal_value').fill('92');
  await page.getByTestId('qc-save').click();
  await expect(page.locator('.ant-message')).toContainText('保存成功');
  await page.goto('/statistical/he');
  await expect(page.getByTestId('stat-card-qc_value')).toContainText('85');
  await expect(page.getByTestId('stat-card-goal_value')).toContainText('92');
  await ok('POST', '/api/config/qc/store_many', admin, { items: [{ rate_key: 'he_excellent', qc_value: 90, goal_value: 95 }] });
});

test('qc_expert and site see their screens and only their scope', async ({ page }) => {
  const qc = await apiLogin('qc_expert');
  const names = visibleMenuNames(await menu(qc));
  for (const n of ['质量与及时率', 'HE切片质量', '院外统计', '诊断质量']) expect(names).toContain(n);
  for (const n of ['会诊统计', '病理库统计', '专家统计']) expect(names).not.toContain(n);
  expect((await call('GET', '/api/statistical/consultation', { token: qc })).status).toBe(403);
  const qcHospitals = (await ok<Options>('GET', '/api/statistical/options', qc)).hospitals.map((h) => h.name);
  expect(qcHospitals).not.toContain('青山市中心医院'); // the western center's hospital
  await signInWithToken(page, 'qc_expert', { lang: 'zh-CN', to: '/statistical/he' });
  await expect(page.getByTestId('stat-card-he_excellent')).toBeVisible();
  for (const r of await page.getByTestId('stat-table-grades_by_hospital').locator('tbody tr.ant-table-row td:first-child').allInnerTexts()) {
    expect(r).not.toContain('青山市中心医院');
  }

  const site = await apiLogin('site');
  const siteOptions = await ok<Options>('GET', '/api/statistical/options', site);
  expect(siteOptions.hospitals.map((h) => h.name)).toEqual(['明州市第一人民医院']);
  const other = (await ok<Options>('GET', '/api/statistical/options', await apiLogin('admin'))).hospitals.find((h) => h.name === '临江县人民医院')!;
  expect((await call('GET', `/api/statistical/consultation?hospital_id=${other.id}`, { token: site })).status).toBe(422);
  await signInWithToken(page, 'site', { lang: 'zh-CN', to: '/statistical/consultation' });
  await expect(page.getByTestId('stat-card-registered')).toBeVisible();
  await expect(page.getByTestId('stat-filter-hospital')).toHaveCount(0);
  for (const r of await page.getByTestId('stat-table-by_hospital').locator('tbody tr.ant-table-row td:first-child').allInnerTexts()) {
    expect(['明州市第一人民医院', '合计']).toContain(r.trim());
  }
  await page.goto('/statistical/expert-consultation');
  await expect(page.getByTestId('stat-table-by_expert')).toBeVisible();
});

const SCREENS = [
  { user: 'admin', path: '/statistical/consultation', name: 'consultation' },
  { user: 'admin', path: '/statistical/bank', name: 'bank' },
  { user: 'admin', path: '/statistical/expert', name: 'expert' },
  { user: 'allocator', path: '/statistical/expert-consultation', name: 'expert-consultation' },
  { user: 'qc_expert', path: '/statistical/quality', name: 'quality' },
  { user: 'qc_expert', path: '/statistical/he', name: 'he' },
  { user: 'qc_expert', path: '/statistical/outside', name: 'outside' },
  { user: 'qc_expert', path: '/statistical/diagnosis', name: 'diagnosis' },
  { user: 'expert', path: '/statistical/quality', name: 'expert-quality' },
  { user: 'admin', path: '/setting/qcConfig', name: 'qc-targets' },
];

for (const lang of SCREEN_LANGUAGES) {
  test(`every statistics screen in ${lang}`, async ({ page }) => {
    test.setTimeout(300_000);
    for (const s of SCREENS) {
      await signInWithToken(page, s.user, { lang, to: s.path });
      await expect(page.locator('main .ant-card').first()).toBeVisible();
      if (s.name !== 'qc-targets') await expect(page.locator('[data-testid^="stat-echart-"] svg').first()).toBeVisible();
      for (const size of SCREEN_SIZES) {
        const { width } = size;
        await page.setViewportSize(size);
        await settled(page);
        await page.screenshot({ path: path.join(OUT, `${lang}-${width}-${s.name}.png`), fullPage: true });
      }
      await axe(page, `${lang} ${s.path}`);
    }
  });
}

test('the wall view shows today when the system configuration turns it on', async ({ page }) => {
  const admin = await apiLogin('admin');
  const cfg = await ok<Record<string, unknown>>('GET', '/api/config/setting', admin);
  const keys = ['language', 'page_title', 'page_icon', 'title', 'copyright', 'captcha_enable', 'need_upload_slide', 'watermark', 'delay_report', 'timeout_reason'];
  const put = (on: boolean) => ok('PUT', '/api/config/setting', admin, { ...Object.fromEntries(keys.map((k) => [k, cfg[k]])), big_screen: on });
  await put(true);
  try {
    await signInWithToken(page, 'admin', { lang: 'zh-CN', to: '/statistical/consultation' });
    await page.getByTestId('stat-wall').click();
    await expect(page.getByTestId('big-screen')).toContainText('登记病例');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await settled(page);
    await page.screenshot({ path: path.join(OUT, 'zh-CN-1920-big-screen.png') });
  } finally {
    await put(false);
  }
});
