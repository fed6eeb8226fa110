import { expect, test } from '../lib/test';
import { apiLogin, menu, type MenuEntry } from '../lib/api';
import { expectAccessible } from '../lib/axe';
import { signInWithToken } from '../lib/ui';

// Every screen of every role's menu, as the role sees it, passes axe-core's WCAG 2 A/AA
// rules with no critical or serious finding. A path is checked once, by the first account
// (in this order) whose menu holds it. About a hundred screens at two to six seconds of
// axe each: the sweep runs with `make screens` (and `make a11y`), not in `make test`, whose
// walks check the screens they touch, dialogs and drawers included.
const SWEEP = process.env.TELEPATH_E2E_SCREENS === 'all' || process.env.TELEPATH_E2E_A11Y === '1';
const ACCOUNTS = ['admin', 'center_admin', 'site', 'allocator', 'expert', 'qc_expert', 'staff', 'publisher', 'third', 'clinical', 'uploader'];

function leaves(entries: MenuEntry[]): string[] {
  return entries.flatMap((m) => (m.children?.length ? leaves(m.children) : m.is_show === '0' || m.menu === false || m.uri.includes(':') ? [] : [m.uri]));
}

const menuPaths = async (account: string) => leaves(await menu(await apiLogin(account)));

// Skipped here, before any browser page is made for it.
test.skip(!SWEEP, 'the sweep runs with make screens and make a11y');

for (const [i, account] of ACCOUNTS.entries()) {
  test(`every menu screen of ${account} passes axe`, async ({ page }) => {
    test.setTimeout(300_000);
    const earlier = new Set((await Promise.all(ACCOUNTS.slice(0, i).map(menuPaths))).flat());
    const paths = (await menuPaths(account)).filter((p) => !earlier.has(p));
    test.skip(paths.length === 0, 'every screen of this role is checked with an earlier role');
    await signInWithToken(page, account, { to: paths[0] });
    const failures: string[] = [];
    for (const path of paths) {
      // In-app navigation, as a click in the menu does: the app stays loaded.
      await page.evaluate((p) => {
        window.history.pushState({}, '', p);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await expect(page).toHaveURL((u) => u.pathname === path);
      await expect(page.locator('main')).toBeVisible();
      await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0, { timeout: 30_000 });
      try {
        // The shell (menu, header) is the same on every screen: checked once, on the first.
        await expectAccessible(page, path, path === paths[0] ? undefined : 'main');
      } catch (e) {
        failures.push(...String(e).split('\n').filter((l) => l.includes(`"${path}: `)));
      }
    }
    expect(failures).toEqual([]);
  });
}
