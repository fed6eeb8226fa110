// Screenshots for people (not assertions): every admin screen in both languages at two
// sizes, under e2e/artifacts/screens/. With TELEPATH_E2E_DOCS=1 the Chinese users screen
// at 1440×900 is also written to docs/screenshot.png (used by the README).
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Lang } from '../lib/api';
import { expect, test } from '../lib/test';
import { signInWithToken } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const DOCS = path.resolve(__dirname, '..', '..', 'docs', 'screenshot.png');
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const SCREENS = ['/system/user', '/site/manage', '/department/manage', '/bank/manage', '/setting/chargeItem', '/setting/timeoutConfig', '/setting/other-config', '/log/operation', '/account'];

/** Waits until the page has its data: no request in flight, no spinner, no skeleton. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

const slug = (p: string) => p.replace(/^\//, '').replace(/\//g, '-') || 'root';

for (const lang of ['zh-CN', 'en-US'] as Lang[]) {
  for (const size of SIZES) {
    test(`screens in ${lang} at ${size.width}×${size.height}`, async ({ page }) => {
      test.setTimeout(300_000);
      mkdirSync(OUT, { recursive: true });
      const file = (name: string) => path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`);
      await page.setViewportSize(size);

      await page.goto('/login');
      await page.evaluate((l) => localStorage.setItem('tp.language', l), lang);
      await page.reload();
      await expect(page.getByTestId('captcha-image').locator('img')).toBeVisible();
      await settled(page);
      await page.screenshot({ path: file('login') });

      await signInWithToken(page, 'admin', { lang, to: SCREENS[0] });
      for (const screen of SCREENS) {
        await page.goto(screen);
        await expect(page.locator('main h4, .ant-typography h4, h4').first()).toBeVisible();
        await settled(page);
        await page.screenshot({ path: file(slug(screen)) });
        if (screen === '/system/user' && lang === 'zh-CN' && size.width === 1440 && process.env.TELEPATH_E2E_DOCS) {
          copyFileSync(file(slug(screen)), DOCS);
        }
      }

      await page.goto('/system/user');
      await page.getByTestId('user-create').click();
      await expect(page.getByTestId('drawer-submit')).toBeVisible();
      await settled(page);
      await page.screenshot({ path: file('user-drawer') });
    });
  }
}
