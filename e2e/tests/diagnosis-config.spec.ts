// Diagnosis settings and reagents: the administrator adds a delay reason, an
// infectious specimen option and a reagent; the expert's delay dialog offers
// the reason, a case carrying the option warns in the expert's workspace, and
// the special exam dialog's reagent picker offers the reagent. Both screens are photographed
// (both languages and sizes under make screens) and checked with axe.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, ok, type Lang } from '../lib/api';
import { bindExpert, caseFixture, submittedCase, userId, viewableSlide } from '../lib/cases';
import { expect, test } from '../lib/test';
import { SCREEN_LANGUAGES, SCREEN_SIZES, signInWithToken, toast } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: text });

async function axe(page: Page, name: string) {
  await expectAccessible(page, name, 'main');
}

/** Both screens in lang, at every screen size; axe once per screen. */
async function shootScreens(page: Page, lang: Lang, reagent: string) {
  mkdirSync(OUT, { recursive: true });
  await signInWithToken(page, 'admin', { lang, to: '/setting/diagnosisConfig' });
  for (const [screen, ready] of [
    ['diagnosis-config', () => page.getByTestId('diagnosis-config-delay_report')],
    ['reagent', () => page.locator('.ant-table-row').filter({ hasText: reagent })],
  ] as const) {
    if (screen === 'reagent') await page.goto('/setting/reagent');
    await expect(ready()).toBeVisible();
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    await axe(page, `${lang} ${screen}`);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}x${size.height}-${screen}.png`), fullPage: screen === 'diagnosis-config' });
    }
    await page.setViewportSize({ width: 1600, height: 1000 });
  }
}

test('diagnosis settings and reagents: the delay dialog offers the reason, the advice picker the reagent', async ({ page }) => {
  const tag = String(Date.now() % 1_000_000);
  const reason = `切片需加做免疫组化${tag}`;
  const reagent = `Ki67-${tag}`;
  const agent = `乙肝${tag}`;
  const admin = await apiLogin('admin');
  const was = (await ok<{ settings: { delay_report: string[] | null; infectious_specimen: string[] | null } }>('GET', '/api/config/common/setting', admin)).settings;
  const before = was.delay_report ?? [];

  // 1. The administrator adds a delay reason to the global diagnosis settings.
  // The form fills in the stored settings when they arrive: type after that,
  // or a slow answer resets what was typed.
  const loaded = page.waitForResponse((r) => r.url().includes('/api/config/common/setting') && r.request().method() === 'GET');
  await signInWithToken(page, 'admin', { to: '/setting/diagnosisConfig' });
  await loaded;
  for (const [key, text] of [['delay_report', reason], ['infectious_specimen', agent]]) {
    const select = page.getByTestId(`diagnosis-config-${key}`);
    await select.click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await expect(select).toContainText(text);
  }
  await page.getByTestId('diagnosis-config-save').click();
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  // A case registered with the option, for the expert.
  const site = await apiLogin('site');
  const nc = await submittedCase(site, await caseFixture(site), { name: '邓配置', infectious_specimen: true, infectious_agents: [agent], slide_ids: [await viewableSlide(site)] });
  await bindExpert(await apiLogin('allocator'), nc.id, await userId('expert'));
  const c = { id: nc.id };

  // 2. … and a reagent: a past expiry cannot be picked; a valid one saves.
  await page.goto('/setting/reagent');
  await page.getByTestId('reagent-create').click();
  const drawer = page.getByTestId('reagent-drawer');
  await drawer.getByTestId('reagent-name').fill(reagent);
  await drawer.getByTestId('reagent-clone').fill('MIB-1');
  await drawer.getByTestId('reagent-vendor').fill('Dako');
  await drawer.getByTestId('reagent-lot').fill(`L${tag}`);
  const expiry = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  await drawer.getByTestId('reagent-expires').click();
  await page.keyboard.type(expiry);
  await page.keyboard.press('Enter'); // takes the date and submits the drawer's form
  await expect(toast(page).getByText('保存成功')).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(page.locator('.ant-table-row').filter({ hasText: reagent })).toContainText(expiry);

  // 3. The expert's workspace warns of the infectious specimen; the delay dialog offers the reason.
  await signInWithToken(page, 'expert', { to: `/diagnosis/item/${c.id}` });
  await expect(page.getByTestId('infectious-alert')).toContainText(agent);
  await page.getByTestId('action-more').click();
  await page.getByTestId('action-delay').click();
  const delay = page.getByRole('dialog');
  const choices = delay.getByTestId('reason-choices-reason');
  await expect(choices).toContainText(reason);
  await choices.getByRole('button', { name: reason }).click();
  await expect(delay.getByTestId('delay-reason')).toHaveValue(reason);
  await page.locator('.ant-modal-content').filter({ has: page.getByTestId('reason-choices-reason') }).screenshot({ path: path.join(OUT, 'zh-CN-delay-dialog-reasons.png') });
  await delay.getByRole('button', { name: /取\s*消/ }).click();
  await expect(delay).toBeHidden();

  // 4. The special exam dialog's picker offers the reagent and adds it to the markers.
  await page.getByTestId('advice-order').click();
  const order = page.getByRole('dialog');
  await order.getByTestId('advice-reagent').click();
  await option(page, reagent).click();
  await expect(order.getByTestId('advice-markers')).toHaveValue(reagent);
  await page.locator('.ant-modal-content').filter({ hasText: '下达医嘱' }).screenshot({ path: path.join(OUT, 'zh-CN-advice-reagent-picker.png') });
  await order.getByRole('button', { name: /取\s*消/ }).click();

  // 5. Both screens (both languages under make screens).
  for (const lang of SCREEN_LANGUAGES) await shootScreens(page, lang, reagent);

  // The shared demo settings go back as they were; the reagent goes.
  await ok('POST', '/api/config/common/setting', admin, { settings: { delay_report: before, infectious_specimen: was.infectious_specimen ?? [] } });
  const rows = await ok<{ id: number; name: string }[]>('GET', `/api/reagent/lists?search=${encodeURIComponent(reagent)}`, admin);
  await ok('DELETE', '/api/reagent/destroy', admin, { ids: rows.filter((r) => r.name === reagent).map((r) => r.id) });
});
