// Screenshots for people (not assertions): every admin screen (both languages and sizes
// under make screens), under e2e/artifacts/screens/. With TELEPATH_E2E_DOCS=1 the Chinese users screen
// at 1440×900 is also written to docs/screenshot.png (used by the README).
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Lang } from '../lib/api';
import { expect, test } from '../lib/test';
import { picturesOnly, resize, settled, signInWithToken, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');
const DOCS = path.resolve(__dirname, '..', '..', 'docs', 'screenshot.png');
const SCREENS = ['/system/user', '/site/manage', '/department/manage', '/bank/manage', '/setting/chargeItem', '/setting/timeoutConfig', '/setting/other-config', '/log/operation', '/account'];

const slug = (p: string) => p.replace(/^\//, '').replace(/\//g, '-') || 'root';

// One walk per language; each screen is shot at every size without loading it again.
picturesOnly();
for (const lang of SCREEN_LANGUAGES) {
  test(`screens in ${lang} at ${SCREEN_SIZES.map((s) => `${s.width}×${s.height}`).join(' and ')}`, async ({ page }) => {
    test.setTimeout(300_000);
    mkdirSync(OUT, { recursive: true });
    const file = (size: { width: number; height: number }, name: string) => path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`);
    const shootAll = async (name: string) => {
      for (const size of SCREEN_SIZES) {
        await resize(page, size);
        await settled(page);
        await page.screenshot({ path: file(size, name) });
      }
    };
    await page.setViewportSize(SCREEN_SIZES[0]);

    await page.goto('/login');
    await page.evaluate((l) => localStorage.setItem('tp.language', l), lang);
    await page.reload();
    await expect(page.getByTestId('captcha-image').locator('img')).toBeVisible();
    await shootAll('login');

    await signInWithToken(page, 'admin', { lang, to: SCREENS[0] });
    for (const screen of SCREENS) {
      await page.goto(screen);
      await expect(page.locator('main h4, .ant-typography h4, h4').first()).toBeVisible();
      await shootAll(slug(screen));
      if (screen === '/system/user' && lang === 'zh-CN' && process.env.TELEPATH_E2E_DOCS) {
        copyFileSync(file(SCREEN_SIZES[0], slug(screen)), DOCS);
      }
    }

    await page.goto('/system/user');
    await page.getByTestId('user-create').click();
    await expect(page.getByTestId('drawer-submit')).toBeVisible();
    await shootAll('user-drawer');
  });
}
