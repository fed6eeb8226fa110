// What a user does over and over: sign in, sign out, switch language, find the side menu.
import { expect, type Page } from '@playwright/test';
import { test } from './test';
import { apiLogin, CAPTCHA, PASSWORD, type Lang } from './api';

/**
 * The languages the screenshot walks run in. Every other walk runs in Chinese, so
 * make test walks the screens in English (layout, labels, axe; lib/test.ts skips the pictures); make screens
 * (TELEPATH_E2E_SCREENS=all) takes them in both, for people to look at.
 */
export const SCREEN_LANGUAGES: Lang[] = process.env.TELEPATH_E2E_SCREENS === 'all' ? ['zh-CN', 'en-US'] : ['en-US'];

/** The window sizes the screenshot walks shoot at: both under make screens, 1440×900 under make test. */
export const SCREEN_SIZES = process.env.TELEPATH_E2E_SCREENS === 'all'
  ? [{ width: 1440, height: 900 }, { width: 1920, height: 1080 }]
  : [{ width: 1440, height: 900 }];

/** Marks the walks of a file or group that only take pictures for people (no check of their own): make screens runs them, make test skips them. */
export function picturesOnly() {
  test.skip(process.env.TELEPATH_E2E_SCREENS !== 'all', 'pictures for people: make screens takes them');
}

/** The size at which a walk that shoots every size runs its axe check, once per screen: the last one shot. */
export const AXE_SIZE = SCREEN_SIZES[SCREEN_SIZES.length - 1];

const L = {
  username: /^(用户名|Username)$/,
  password: /^(密码|Password)$/,
  captcha: /^(验证码|Captcha)$/,
};

export const loginForm = (page: Page) => ({
  username: page.getByLabel(L.username),
  password: page.getByLabel(L.password),
  captcha: page.getByRole('textbox', { name: L.captcha }),
  captchaImage: page.getByTestId('captcha-image').locator('img'),
  submit: page.getByTestId('login-submit'),
});

/** Fills the sign-in form and submits it; does not wait for the outcome. */
export async function submitLogin(page: Page, username: string, password = PASSWORD, captcha = CAPTCHA) {
  const f = loginForm(page);
  await f.username.fill(username);
  await f.password.fill(password);
  await expect(f.captchaImage).toBeVisible();
  await f.captcha.fill(captcha);
  await f.submit.click();
}

/** Signs in through the login page and waits for the shell (leaves /login). */
export async function login(page: Page, username: string, password = PASSWORD) {
  if (!/\/login/.test(page.url())) await page.goto('/login');
  await submitLogin(page, username, password);
  await expect(page).not.toHaveURL(/\/login/);
  await expect(sideMenu(page).getByRole('menuitem').first()).toBeVisible();
}

/** A signed-in page without going through the form (for tests about something else). */
export async function signInWithToken(page: Page, username: string, opts: { lang?: Lang; to?: string } = {}) {
  const token = await apiLogin(username);
  // Any same-origin document gives access to the app's storage; a static file
  // spares booting the app only to leave it.
  await page.goto('/favicon.svg');
  await page.evaluate(
    ({ token, lang }) => {
      localStorage.setItem('tp.token', token);
      if (lang) localStorage.setItem('tp.language', lang);
    },
    { token, lang: opts.lang },
  );
  await page.goto(opts.to ?? '/manage');
  // The app's first load on a busy machine (the whole suite beside the Go tests) can take longer than a click.
  await expect(sideMenu(page).getByRole('menuitem').first()).toBeVisible({ timeout: 60_000 });
  return token;
}

/**
 * Searches the open list and waits for its answer (rows, and tab counts where the
 * list has tabs), so that a following click does not race the refreshed rows.
 */
export async function searchList(page: Page, text: string) {
  const box = page.getByTestId('list-search');
  const q = `search=${encodeURIComponent(text)}`;
  const hasTabs = (await page.locator('[data-testid^="tab-"]').count()) > 0;
  const answers = [page.waitForResponse((r) => r.url().includes(q) && !r.url().includes('/count?'))];
  if (hasTabs) answers.push(page.waitForResponse((r) => r.url().includes(q) && r.url().includes('/count?')));
  await box.fill(text);
  await box.press('Enter');
  await Promise.all(answers);
}

/** Waits until the page has its data: no request in flight, no spinner, no skeleton, fonts loaded. */
export async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** Sets the window size and lets the layout follow it (two frames). */
export async function resize(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export async function logout(page: Page) {
  const ok = page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ });
  // A click on the menu while it is still opening can be lost: open it again until the dialog shows.
  await expect(async () => {
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: /退出登录|Sign out/ }).click({ timeout: 5000 });
    await expect(ok).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 40_000 });
  await ok.click();
  await expect(page).toHaveURL(/\/login/);
}

/** Picks a language from the switch (login page or shell header). */
export async function switchLanguage(page: Page, lang: Lang) {
  const label = lang === 'en-US' ? 'English' : '简体中文';
  // The menu opens on hover with an animation; a click during it can miss on a busy machine: try again.
  await expect(async () => {
    await page.getByTestId('language-switch').hover();
    await page.getByRole('menuitem', { name: label }).click({ timeout: 5000 });
    await expect(page.getByTestId('language-switch')).toContainText(label, { timeout: 3000 });
  }).toPass({ timeout: 40_000 });
}

export const sideMenu = (page: Page) => page.getByTestId('side-menu');

/** Opens every collapsed group of the side menu, so all entries are visible. */
export async function openAllGroups(page: Page) {
  const closed = sideMenu(page).locator('.ant-menu-submenu-title[aria-expanded="false"]');
  // A title can be mid-animation; a missed click is retried on the next round.
  for (let i = 0; i < 20 && (await closed.count()) > 0; i++) await closed.first().click({ timeout: 3000 }).catch(() => {});
}

/** The side menu's entries (leaves and groups) by visible text. */
export const menuItem = (page: Page, name: string) =>
  sideMenu(page).getByRole('menuitem').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(name)}\\s*\\d*$`) });

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Shown by antd's message.error/success (toasts). */
export const toast = (page: Page) => page.locator('.ant-message');
