import { expect, test } from '../lib/test';
import { apiLogin, menu, visibleMenuNames } from '../lib/api';
import { menuItem, openAllGroups, sideMenu, signInWithToken } from '../lib/ui';

// expert2 is left to lockout.spec.ts, which locks it and checks its menu after the unlock.
const ACCOUNTS = ['admin', 'center_admin', 'site', 'site2', 'allocator', 'expert', 'qc_expert', 'staff', 'publisher', 'third', 'clinical', 'uploader', 'root'];

const MUST: Record<string, { has: string[]; not?: string[] }> = {
  admin: { has: ['中心管理', '医院管理', '用户管理', '报告模板', '操作日志'] },
  center_admin: { has: ['医院管理', '用户管理'], not: ['中心管理', '报告模板', '操作日志'] },
  // Upload management (spec 1 §2 Site menus) belongs to sites only.
  site: { has: ['上传管理', '正在上传', '已上传', '上传设置', '个人设置'] },
  site2: { has: ['上传管理', '正在上传', '已上传', '上传设置'] },
  expert: { has: ['个人设置'], not: ['上传管理', '正在上传'] },
  uploader: { has: ['个人设置'], not: ['上传管理'] },
};

// Three walks of a few accounts each, one browser page per walk: the second and later accounts
// load the app from that page's cache instead of a fresh context's empty one (each account alone
// was a walk of about 17 s on the loaded machine, nearly all of it the app's cold load).
const GROUPS = [ACCOUNTS.slice(0, 5), ACCOUNTS.slice(5, 9), ACCOUNTS.slice(9)];

test.describe('every demo account signs in and sees its role menu', () => {
  for (const group of GROUPS) {
    test(group.join(', '), async ({ page, cspViolations }) => {
      test.setTimeout(240_000);
      for (const username of group) {
        await test.step(username, async () => {
          const expected = visibleMenuNames(await menu(await apiLogin(username)));
          for (const name of MUST[username]?.has ?? ['个人设置']) expect(expected).toContain(name);

          // Nothing of the previous account stays in the page's storage.
          await page.goto('/favicon.svg');
          await page.evaluate(() => {
            localStorage.clear();
            sessionStorage.clear();
          });
          // The sign-in form itself is login.spec.ts's walk; here the menu is what counts.
          await signInWithToken(page, username, { to: '/' });
          await openAllGroups(page);
          for (const name of expected) await expect(menuItem(page, name).first()).toBeVisible();
          for (const name of MUST[username]?.not ?? []) await expect(menuItem(page, name)).toHaveCount(0);
          // Nothing else: the sidebar holds exactly the entries of GET /api/menu.
          await expect(sideMenu(page).getByRole('menuitem')).toHaveCount(expected.length);
        });
      }
      expect(cspViolations).toEqual([]);
    });
  }
});

test('the API documentation renders from the binary under the app\'s Content-Security-Policy', async ({ page, cspViolations }) => {
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(process.env.TELEPATH_E2E_URL!)) outside.push(r.url());
  });
  await page.goto('/api/docs');
  await expect(page.getByText('Telepath API').first()).toBeVisible();
  await expect(page.getByText('Report templates', { exact: true }).first()).toBeVisible(); // the operations' groups, from /api/openapi.yaml
  expect(outside).toEqual([]);
  expect(cspViolations).toEqual([]);
});
