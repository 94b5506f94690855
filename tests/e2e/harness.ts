// End-to-end harness: starts Signaldesk the way `npm start` does (after `npm run build`), on free ports
// and a fresh DATA_DIR, and launches Debian's Chromium through playwright-core (TOOLCHAIN.md "Browsers").
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningApp {
  baseUrl: string;
  /** The embedded paper exchange (loopback): its Binance-compatible API and its /admin/* endpoints. */
  paperUrl: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `tsx server/src/server.ts` (what `npm start` runs) and waits until the API answers. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  if (!fs.existsSync(path.join(repo, 'dist/index.html'))) {
    throw new Error('dist/ is missing: run `npm run build` before the end-to-end tests');
  }
  const port = await freePort();
  const paperPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(path.join(repo, 'node_modules/.bin/tsx'), ['server/src/server.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      PAPER_EXCHANGE_PORT: String(paperPort),
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${baseUrl}/api/public/get_bitcoin_public_information/`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    paperUrl: `http://127.0.0.1:${paperPort}`,
    dataDir,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium; playwright-core gives every launch a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a screenshot under screenshots/ (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(repo, 'screenshots', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * Starts the app and a browser before a test file's tests and stops both after them; the returned object's
 * `app` and `browser` are set once beforeAll has run.
 */
export function setupE2e(env: Record<string, string> = {}): { app: RunningApp; browser: Browser } {
  const context = {} as { app: RunningApp; browser: Browser };
  beforeAll(async () => {
    context.app = await startApp(env);
    context.browser = await launchBrowser();
  });
  afterAll(async () => {
    await context.browser?.close();
    await context.app?.stop();
  });
  return context;
}

/** Signs a new trader up through the 'Sign Up' dialog and waits for the profile block. */
export async function signUp(page: Page, email: string, nickname = 'trader'): Promise<void> {
  await page.getByTestId('sidebar').getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign Up' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Nickname').fill(nickname);
  await dialog.getByLabel('Password', { exact: true }).fill('Abcdef1!');
  await dialog.getByLabel('Repeat password').fill('Abcdef1!');
  await dialog.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByTestId('profile-block').waitFor({ timeout: 15_000 });
}
