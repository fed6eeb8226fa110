// Screenshots for people (not assertions beyond "the page has its data"): the
// consultation screens of the site, the allocator and the admin (both languages and
// sizes under make screens), under e2e/artifacts/screens/consultation/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Lang } from '../lib/api';
import { expect, test } from '../lib/test';
import { picturesOnly, resize, settled, signInWithToken, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens', 'consultation');
const SCREENS: Record<string, string[]> = {
  site: ['/case/register/new', '/case/manage', '/case/return', '/case/recall', '/case/charge', '/case/message'],
  allocator: ['/distribute/manage', '/distribute/recall', '/distribute/return'],
  admin: ['/admin/withdraw-manage', '/admin/consultation-manage'],
};

const slug = (p: string) => p.replace(/^\//, '').replace(/\//g, '-');

// One walk per language; each screen is shot at every size without loading it again.
picturesOnly();
for (const lang of SCREEN_LANGUAGES) {
  test(`consultation screens in ${lang} at ${SCREEN_SIZES.map((s) => `${s.width}×${s.height}`).join(' and ')}`, async ({ page }) => {
    test.setTimeout(300_000);
    mkdirSync(OUT, { recursive: true });
    const file = (size: { width: number }, name: string) => path.join(OUT, `${lang}-${size.width}-${name}.png`);
    await page.setViewportSize(SCREEN_SIZES[0]);
    for (const [user, screens] of Object.entries(SCREENS)) {
      await signInWithToken(page, user, { lang, to: screens[0] });
      for (const screen of screens) {
        await page.goto(screen);
        await expect(page.locator('main h4').first()).toBeVisible();
        for (const size of SCREEN_SIZES) {
          await resize(page, size);
          await settled(page);
          await page.screenshot({ path: file(size, slug(screen)) });
          if (screen === '/case/register/new') {
            // The form after a save with nothing filled in, and its specimens part.
            await page.getByTestId('save-case').click();
            await expect(page.locator('.ant-form-item-explain-error').first()).toBeVisible();
            await page.locator('#sec-pathology').scrollIntoViewIfNeeded();
            await page.screenshot({ path: file(size, 'case-register-errors') });
            await page.locator('#sec-specimens').evaluate((el) => el.scrollIntoView({ block: 'start' }));
            await page.screenshot({ path: file(size, 'case-register-specimens') });
            await page.evaluate(() => window.scrollTo(0, 0));
          }
          if (screen === '/case/manage') {
            // The case drawer with its log.
            await page.locator('main [data-testid^=case-open-]').first().click();
            await expect(page.locator('.ant-drawer-content')).toBeVisible();
            await settled(page);
            await page.screenshot({ path: file(size, 'case-drawer') });
            await page.keyboard.press('Escape');
            await expect(page.locator('.ant-drawer-content')).toBeHidden();
          }
        }
      }
    }
  });
}
