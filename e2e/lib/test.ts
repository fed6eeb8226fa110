// The test object every spec uses: Playwright's, plus a watcher that records API
// replies with a server error (5xx) or 429, and prints them when a test fails.
import { test as base, expect } from '@playwright/test';

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
