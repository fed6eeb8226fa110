import { defineConfig, devices } from '@playwright/test';

/** The test server's port (global-setup.ts starts bin/telepath on it). */
export const PORT = Number(process.env.TELEPATH_E2E_PORT || 18931);
process.env.TELEPATH_E2E_URL ??= `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  outputDir: './test-results',
  fullyParallel: true,
  // Two: beside the Go tests (scripts/test-all.sh) the machine is busy, and a third
  // walk made no run shorter, only each walk slower.
  workers: Number(process.env.TELEPATH_E2E_WORKERS || 2),
  // One retry: on two busy cores a walk can still lose a race with the machine. The list
  // reporter and the HTML report mark a walk that passed only on retry as "flaky"; those are
  // read and fixed (see the CI notes), and a walk that fails twice fails the run.
  retries: 1,
  forbidOnly: !!process.env.CI,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    ...devices['Desktop Chrome'],
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1600, height: 1000 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // The app follows the system's reduce-motion setting: dialogs and drawers open at once, so a
    // walk never clicks into a half-open one.
    reducedMotion: 'reduce',
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    // A trace records the page all along (snapshots, screencast): about a seventh of a walk's CPU.
    // Recorded on the retry of a failed walk only, where it shows what went wrong.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium headless shell (scripts/deps.sh); Playwright never downloads a browser
      // here. The same Blink as the full browser, without its windowing: the walks took 15% less
      // of the machine (554 s of CPU against 656) and 5.0 min against 5.8.
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
      // V8 without its optimizing tiers (Maglev, TurboFan): a walk's pages run each function a few
      // times, so compiling the hot ones cost more than it saved. Three heavy spec files alone on the
      // 2-core machine: 260 s of CPU and 141 s (twice the same) against 187 s and 106 s; lite mode 224 s.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic', '--js-flags=--no-opt --no-maglev'],
    },
  },
});
