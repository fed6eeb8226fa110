// First-load benchmark (issue 17), not a test: starts the built bin/telepath with the demo data,
// and in headless Chromium measures with the Performance API, over several cold runs:
//   - /login: the script it loads (count, bytes as served, and gzip bytes from web/dist) and the
//     time until the sign-in button shows;
//   - sign-in: from submitting the form to the first case-list row on screen (site user);
//   - workspace: an expert opening a case from the worklist, from the click to the case's
//     heading and its actions on screen; and the same workspace opened cold by its URL.
// Targets: /login JS <= 200 KB gzip, rows < 1 s, workspace < 1.5 s.
// Usage: make build && make bench-web   (RUNS=5, TELEPATH_BENCH_PORT=18961 to change them)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const BIN = process.env.TELEPATH_E2E_BIN || path.join(root, 'bin', 'telepath');
const DIST = path.join(root, 'web', 'dist', 'assets');
const PORT = Number(process.env.TELEPATH_BENCH_PORT || 18961);
const RUNS = Number(process.env.RUNS || 5);
const URL0 = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Telepath@2026';
const CAPTCHA = '2468';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function startServer() {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "make build" first`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'telepath-bench-'));
  const child = spawn(BIN, ['serve'], {
    env: {
      ...process.env,
      TELEPATH_ADDR: `127.0.0.1:${PORT}`,
      TELEPATH_DATA_DIR: dataDir,
      TELEPATH_DATABASE_URL: '',
      TELEPATH_DEMO: '1',
      TELEPATH_CAPTCHA: 'on',
      TELEPATH_TEST_MODE: '1',
      TELEPATH_CAPTCHA_TEST_ANSWER: CAPTCHA,
      TELEPATH_LOGIN_RATE: '1000',
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${URL0}/healthz`)).status === 200) return stop;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('telepath did not become healthy');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

// In every page, before the app starts: the Performance-API time at which each target is first
// on screen, and the time the sign-in form was submitted.
const TARGETS = {
  loginShown: '[data-testid="login-submit"]',
  rows: 'tr.ant-table-row',
  // The workspace is usable once its action bar is on screen.
  workspace: '[data-testid="diagnosis-item"] [data-testid^="action-"]',
};
function instrument(targets) {
  const marks = (window.__bench = {});
  addEventListener('submit', () => (marks.submit = performance.now()), true);
  // Checked once a frame, when the page is about to paint: measuring on every mutation would force
  // a layout each time and slow the very load being measured.
  let pending = false;
  const check = () => {
    pending = false;
    for (const [name, selector] of Object.entries(targets)) {
      if (marks[name] !== undefined) continue;
      const el = document.querySelector(selector);
      const r = el?.getBoundingClientRect();
      if (r && r.width > 0 && r.height > 0) marks[name] = performance.now();
    }
  };
  const schedule = () => {
    if (!pending) (pending = true), requestAnimationFrame(check);
  };
  new MutationObserver(schedule).observe(document, { childList: true, subtree: true, attributes: true });
}
const mark = (page, name) => page.waitForFunction((n) => window.__bench?.[n], name, { timeout: 30_000 }).then((h) => h.jsonValue());

// PROFILE=1: the main thread's CPU from the submit to the rows, by script and function (self time).
async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}
async function printProfile(cdp) {
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url || '')}:${f.lineNumber}`;
    self.set(key, (self.get(key) || 0) + (dt[i] || 0) / 1000);
  });
  const byScript = new Map();
  for (const [k, v] of self) {
    const script = k.split(' ').pop().split(':')[0] || '(native)';
    byScript.set(script, (byScript.get(script) || 0) + v);
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('  CPU by script (ms):');
  for (const [k, v] of top(byScript, 15)) console.log(`    ${v.toFixed(0).padStart(6)}  ${k}`);
  console.log('  CPU by function (ms, self):');
  for (const [k, v] of top(self, 25)) console.log(`    ${v.toFixed(0).padStart(6)}  ${k}`);
}

async function loginRun(browser) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.addInitScript(instrument, TARGETS);
  await page.goto(`${URL0}/login?redirect=${encodeURIComponent('/case/manage')}`);
  const shown = await mark(page, 'loginShown');
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.js'))
      .map((e) => ({ name: e.name, encoded: e.encodedBodySize, transfer: e.transferSize })),
  );
  const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0].toJSON());
  const gzip = scripts.reduce((n, s) => {
    const f = path.join(DIST, path.basename(new URL(s.name).pathname));
    return n + (existsSync(`${f}.gz`) ? statSync(`${f}.gz`).size : existsSync(f) ? statSync(f).size : 0);
  }, 0);

  await page.getByLabel(/^(用户名|Username)$/).fill('site');
  await page.getByLabel(/^(密码|Password)$/).fill(PASSWORD);
  await page.getByRole('textbox', { name: /^(验证码|Captcha)$/ }).fill(CAPTCHA);
  const profiler = process.env.PROFILE ? await startProfile(page) : null;
  await page.getByTestId('login-submit').click();
  const rows = await mark(page, 'rows');
  if (profiler) await printProfile(profiler);
  const submit = await page.evaluate(() => window.__bench.submit);
  // Where the time goes: the requests made after the submit, by start and duration.
  const after = await page.evaluate(
    (t) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime >= t)
        .map((e) => ({ name: new URL(e.name).pathname, start: e.startTime - t, duration: e.duration, wait: e.requestStart - e.startTime, server: e.responseStart - e.requestStart })),
    submit,
  );
  if (process.env.VERBOSE) for (const e of after) console.log(`  +${Math.round(e.start)} ms ${Math.round(e.duration)} ms (queued ${Math.round(e.wait)}, server ${Math.round(e.server)}) ${e.name}`);
  const loginApi = after.find((e) => e.name === '/api/auth/login');
  await ctx.close();
  return {
    scripts: scripts.length,
    served: scripts.reduce((n, s) => n + s.encoded, 0),
    gzip,
    loginShown: shown,
    domContentLoaded: nav.domContentLoadedEventEnd,
    signInToRows: rows - submit,
    loginApi: loginApi ? loginApi.start + loginApi.duration : 0,
  };
}

async function workspaceRun(browser) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.addInitScript(instrument, TARGETS);
  await page.goto(`${URL0}/login?redirect=${encodeURIComponent('/diagnosis/manage')}`);
  await page.getByLabel(/^(用户名|Username)$/).fill('expert');
  await page.getByLabel(/^(密码|Password)$/).fill(PASSWORD);
  await page.getByRole('textbox', { name: /^(验证码|Captcha)$/ }).fill(CAPTCHA);
  await page.getByTestId('login-submit').click();
  const open = page.locator('[data-testid^="open-"]').first();
  await open.waitFor({ timeout: 30_000 });
  const id = (await open.getAttribute('data-testid')).slice('open-'.length);
  const clicked = await page.evaluate(() => performance.now());
  await open.click();
  const usable = await mark(page, 'workspace');
  await page.getByRole('heading').first().waitFor();

  // The same workspace opened cold by its address (a new tab: every script fetched again).
  const cold = await ctx.browser().newContext({ viewport: { width: 1440, height: 900 }, storageState: await ctx.storageState() });
  const p2 = await cold.newPage();
  await p2.addInitScript(instrument, TARGETS);
  await p2.goto(`${URL0}/diagnosis/item/${id}`);
  const coldUsable = await mark(p2, 'workspace');
  await cold.close();
  await ctx.close();
  return { fromList: usable - clicked, coldByUrl: coldUsable };
}

const stop = await startServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true });
try {
  const logins = [];
  const workspaces = [];
  for (let i = 0; i < RUNS; i++) {
    logins.push(await loginRun(browser));
    workspaces.push(await workspaceRun(browser));
  }
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  const ms = (x) => `${Math.round(x)} ms`;
  const col = (xs, k) => xs.map((x) => x[k]);
  console.log(`first load, ${RUNS} cold runs each, medians (all runs)`);
  console.log(`/login scripts:            ${logins[0].scripts} files, ${kb(median(col(logins, 'gzip')))} gzip, ${kb(median(col(logins, 'served')))} as served (brotli)   target <= 200 KB gzip`);
  console.log(`/login sign-in button:     ${ms(median(col(logins, 'loginShown')))}   (${col(logins, 'loginShown').map(ms).join(', ')})`);
  console.log(`/login DOMContentLoaded:   ${ms(median(col(logins, 'domContentLoaded')))}`);
  console.log(`submit -> case-list rows:  ${ms(median(col(logins, 'signInToRows')))}   (${col(logins, 'signInToRows').map(ms).join(', ')})   target < 1000 ms`);
  console.log(`  of which sign-in answer:  ${ms(median(col(logins, 'loginApi')))}   (password check on the server; set VERBOSE=1 for every request)`);
  console.log(`open case -> workspace:    ${ms(median(col(workspaces, 'fromList')))}   (${col(workspaces, 'fromList').map(ms).join(', ')})   target < 1500 ms`);
  console.log(`workspace cold by URL:     ${ms(median(col(workspaces, 'coldByUrl')))}   (${col(workspaces, 'coldByUrl').map(ms).join(', ')})`);
} finally {
  await browser.close();
  await stop();
}
