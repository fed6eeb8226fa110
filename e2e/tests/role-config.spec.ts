// Typed role configuration (issue 16; spec 2 §6, §8): the administrator binds
// an expert's subspecialties and turns off "takes new cases" in the user
// form; the allocator's assign dialog then leaves that expert out and says
// that no expert is bound to the case's subspecialty. Screenshots of the user
// form and the assign dialog (both sizes under make screens), and axe (no critical/serious).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../lib/test';
import { apiLogin, call, encryptPassword, ok, PASSWORD, unique, type Lang } from '../lib/api';
import { caseFixture, submittedCase } from '../lib/cases';
import { resize, searchList, settled, signInWithToken, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const EXPERT2 = '刘芳 副主任医师'; // the demo's cytology expert
const CHIEF = '张建国 主任医师';

async function shootAndCheck(page: Page, lang: Lang, name: string, only: string) {
  mkdirSync(OUT, { recursive: true });
  for (const size of SCREEN_SIZES) {
    await resize(page, size);
    await settled(page);
    await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`) });
  }
  const r = await new AxeBuilder({ page }).include(only).analyze();
  const bad = r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(bad.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((x) => x.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

test('an expert who takes no cases is not offered for assignment, and the dialog says nobody reads the subspecialty', async ({ page }) => {
  test.setTimeout(240_000);
  const admin = await apiLogin('admin');
  const site = await apiLogin('site');
  const f = await caseFixture(site);
  const libs = await ok<{ id: number; prefix: string; name: string }[]>('GET', '/api/config/library?tree=true&page_size=1000', admin);
  const frozen = libs.find((l) => l.prefix === 'BD')!; // no demo expert reads it
  // An expert of the demo center of its own (the other walks count the demo
  // experts), created disabled: no list offers them until the form is saved.
  const username = unique('rc_expert');
  const name = unique('王亚专');
  const created = await ok<{ id: number }>('POST', '/api/user', admin, {
    username, name, password: await encryptPassword(PASSWORD), status: 0, roles: ['expert'], center_ids: [f.centerId],
  });
  try {
    // The administrator enables them, binds the frozen library and stops their new cases.
    for (const [i, lang] of SCREEN_LANGUAGES.entries()) {
      await signInWithToken(page, 'admin', { lang, to: '/system/user' });
      await searchList(page, username);
      await page.getByTestId(`user-actions-${username}`).getByRole('button').first().click();
      const drawer = page.getByTestId('user-drawer');
      const section = drawer.getByTestId('role-config-expert');
      await expect(section).toBeVisible();
      const takes = section.getByTestId('config-takes-cases');
      if (i === 0) {
        await drawer.locator('input[type="radio"][value="1"]').check();
        await section.getByTestId('config-subspecialties').click();
        await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').filter({ hasText: frozen.name }).click();
        await drawer.locator('.ant-drawer-title').click(); // closes the tree (Escape would close the drawer)
        await expect(takes).toHaveAttribute('aria-checked', 'true');
        await takes.click();
      }
      await expect(section.locator('.ant-select-selection-item').filter({ hasText: frozen.name })).toBeVisible();
      await expect(takes).toHaveAttribute('aria-checked', 'false');
      await shootAndCheck(page, lang, 'user-role-config', '[data-testid="user-drawer"]');
      if (i === 0) {
        const saved = page.waitForResponse((r) => r.url().endsWith(`/api/user/${created.id}`) && r.request().method() === 'POST');
        await drawer.getByTestId('drawer-submit').click();
        expect((await saved).status()).toBe(200);
        const after = await ok<{ roles: { role: string; config: { subspecialties?: number[]; takes_cases?: boolean } }[] }>('GET', `/api/user/role/config?user_id=${created.id}`, admin);
        expect(after.roles.find((r) => r.role === 'expert')!.config).toEqual({ subspecialties: [frozen.id], takes_cases: false });
      } else {
        await drawer.getByRole('button', { name: /Cancel|取\s*消/ }).first().click();
      }
    }

    // A frozen-library case: its only bound expert takes no cases.
    const sc = await submittedCase(site, { ...f, libraryId: frozen.id }, { name: unique('亚专科') });
    for (const lang of SCREEN_LANGUAGES) {
      await signInWithToken(page, 'allocator', { lang, to: '/distribute/manage' });
      await searchList(page, sc.pathology_number);
      await page.getByTestId(`case-bind_expert-${sc.id}`).click();
      const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('expert-ok') });
      await expect(dialog.getByTestId('expert-no-subspecialty')).toBeVisible();
      await dialog.getByTestId('expert-select').click();
      const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await expect(options.filter({ hasText: CHIEF })).toHaveCount(1);
      await expect(options.filter({ hasText: EXPERT2 })).toHaveCount(1);
      await expect(options.filter({ hasText: name })).toHaveCount(0);
      await shootAndCheck(page, lang, 'assign-expert-subspecialty', '.ant-modal-content');
      await dialog.locator('.ant-modal-title').click(); // closes the list, which covers the buttons
      await dialog.getByRole('button', { name: /Cancel|取\s*消/ }).click();
    }
    // The server refuses them too.
    const refused = await call('POST', `/api/distribute/${sc.id}/bindexpert`, { token: await apiLogin('allocator'), body: { expert_id: created.id }, lang: 'en-US' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('does not take new cases');
  } finally {
    await call('DELETE', `/api/user/${created.id}`, { token: admin });
  }
});
