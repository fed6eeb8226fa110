// Screenshots for people (not assertions beyond "the page has its data"): the
// consultation screens of the site, the allocator and the admin in both languages at
// two sizes, under e2e/artifacts/screens/consultation/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Lang } from '../lib/api';
import { expect, test } from '../lib/test';
import { signInWithToken } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens', 'consultation');
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const SCREENS: Record<string, string[]> = {
  site: ['/case/register/new', '/case/manage', '/case/return', '/case/recall', '/case/charge', '/case/message'],
  allocator: ['/distribute/manage', '/distribute/recall', '/distribute/return'],
  admin: ['/admin/withdraw-manage', '/admin/consultation-manage'],
};

async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

const slug = (p: string) => p.replace(/^\//, '').replace(/\//g, '-');

for (const lang of ['zh-CN', 'en-US'] as Lang[]) {
  for (const size of SIZES) {
    test(`consultation screens in ${lang} at ${size.width}×${size.height}`, async ({ page }) => {
      test.setTimeout(300_000);
      mkdirSync(OUT, { recursive: true });
      const file = (name: string) => path.join(OUT, `${lang}-${size.width}-${name}.png`);
      await page.setViewportSize(size);
      for (const [user, screens] of Object.entries(SCREENS)) {
        await signInWithToken(page, user, { lang, to: screens[0] });
        for (const screen of screens) {
          await page.goto(screen);
          await expect(page.locator('main h4').first()).toBeVisible();
          await settled(page);
          await page.screenshot({ path: file(slug(screen)) });
          if (screen === '/case/register/new') {
            // The form after a save with nothing filled in, and its specimens part.
            await page.getByTestId('save-case').click();
            await expect(page.locator('.ant-form-item-explain-error').first()).toBeVisible();
            await page.locator('#sec-pathology').scrollIntoViewIfNeeded();
            await page.screenshot({ path: file('case-register-errors') });
            await page.locator('#sec-specimens').evaluate((el) => el.scrollIntoView({ block: 'start' }));
            await page.screenshot({ path: file('case-register-specimens') });
          }
          if (screen === '/case/manage') {
            // The case drawer with its log.
            await page.locator('main [data-testid^=case-open-]').first().click();
            await expect(page.locator('.ant-drawer-content')).toBeVisible();
            await settled(page);
            await page.screenshot({ path: file('case-drawer') });
            await page.keyboard.press('Escape');
          }
        }
      }
    });
  }
}
