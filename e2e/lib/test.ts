// The test object every spec uses: Playwright's, plus a watcher that records API
// replies with a server error (5xx) or 429, and prints them when a test fails.
import path from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts') + path.sep;
let picturesPatched = false;

/**
 * The pictures for people (files under e2e/artifacts/) are taken under make screens
 * (TELEPATH_E2E_SCREENS=all) only: under make test nobody looks at them, and each shot cost the
 * busy machine up to a couple of seconds. The walk around a shot (settling, axe, its checks)
 * still runs; a shot for anything else (Playwright's own on a failure) is untouched.
 */
function skipPicturesOutsideScreens(page: Page) {
  if (picturesPatched || process.env.TELEPATH_E2E_SCREENS === 'all') return;
  picturesPatched = true;
  const locator = page.locator('body');
  for (const proto of [Object.getPrototypeOf(page) as Page, Object.getPrototypeOf(locator) as Locator]) {
    const shoot = proto.screenshot;
    proto.screenshot = async function (this: Page & Locator, options?: { path?: string }) {
      if (options?.path && path.resolve(options.path).startsWith(ARTIFACTS)) return Buffer.alloc(0);
      return shoot.call(this, options as never);
    } as typeof shoot;
  }
}

export const test = base.extend<{ apiErrors: string[]; cspViolations: string[] }>({
  // Content-Security-Policy violations on any page of the test (the app's own, new tabs too):
  // the securitypolicyviolation events and Chromium's "Refused to …" console errors. Specs that
  // cover the main screens assert the list stays empty.
  cspViolations: [
    async ({ context }, use) => {
      const seen: string[] = [];
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));
      });
      context.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|CSP violation/i.test(m.text())) seen.push(`${m.page()?.url() ?? ''}: ${m.text()}`);
      });
      await use(seen);
    },
    { auto: true },
  ],
  apiErrors: [
    async ({ page }, use, testInfo) => {
      skipPicturesOutsideScreens(page);
      const seen: string[] = [];
      page.on('response', async (r) => {
        if (!r.url().includes('/api/') || (r.status() < 500 && r.status() !== 429)) return;
        let body = '';
        try {
          body = (await r.text()).slice(0, 300);
        } catch {
          // body gone with the page
        }
        seen.push(`${r.request().method()} ${new URL(r.url()).pathname} → ${r.status()} ${body}`);
      });
      page.on('requestfailed', (r) => {
        if (r.url().includes('/api/')) seen.push(`${r.method()} ${new URL(r.url()).pathname} failed: ${r.failure()?.errorText}`);
      });
      await use(seen);
      if (seen.length && testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('api-errors', { body: seen.join('\n'), contentType: 'text/plain' });
        console.log(`API errors during "${testInfo.title}":\n  ${seen.join('\n  ')}`);
      }
    },
    { auto: true },
  ],
});

export { expect };
