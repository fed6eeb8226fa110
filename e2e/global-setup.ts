// Starts the built binary on a fresh data directory with the demo data and a fixed
// captcha answer, waits for /healthz, and stops it (by PID) after the run.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { CAPTCHA } from './lib/api';
import { PORT } from './playwright.config';

// TELEPATH_E2E_BIN lets a second checkout or build run its own binary.
const BIN = process.env.TELEPATH_E2E_BIN || path.resolve(__dirname, '..', 'bin', 'telepath');
const ARTIFACTS = path.resolve(__dirname, 'artifacts');

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer()
      .once('error', () => resolve(false))
      .once('listening', () => srv.close(() => resolve(true)))
      .listen(port, '127.0.0.1');
  });
}

async function waitHealthy(url: string, exited: () => string | null, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`telepath exited before it was healthy (${why}); see e2e/artifacts/server.log`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`telepath did not answer ${url}/healthz with 200 within ${timeoutMs / 1000}s`);
}

export default async function globalSetup(_config: FullConfig) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "make build" first (make test-e2e does)`);
  if (!(await portIsFree(PORT))) throw new Error(`port ${PORT} is in use; set TELEPATH_E2E_PORT to a free port`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'telepath-e2e-'));
  // The slide generator, built once here for the specs that make slides (lib/slidegen.ts):
  // a "go run" in each worker's hook compiled it up to three times beside the Go tests.
  const tools = mkdtempSync(path.join(tmpdir(), 'telepath-e2e-tools-'));
  process.env.TELEPATH_E2E_SLIDEGEN = path.join(tools, 'slidegen');
  execFileSync('go', ['build', '-o', process.env.TELEPATH_E2E_SLIDEGEN, './internal/slide/slidegen/cmd/slidegen'], { cwd: path.resolve(__dirname, '..'), stdio: 'inherit' });
  const url = `http://127.0.0.1:${PORT}`;
  const log = createWriteStream(path.join(ARTIFACTS, 'server.log'));
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exit: string | null = null;
  child.on('exit', (code, signal) => (exit = `code ${code}, signal ${signal}`));

  const stop = async () => {
    if (exit === null && child.pid) {
      const gone = new Promise((r) => child.once('exit', r));
      process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(() => exit === null && child.pid && process.kill(child.pid, 'SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(tools, { recursive: true, force: true });
  };
  try {
    await waitHealthy(url, () => exit);
  } catch (e) {
    await stop();
    throw e;
  }
  process.env.TELEPATH_E2E_URL = url;
  return stop;
}
