// Shared by the issue 9 benchmarks that need a running Signaldesk (bench/spa/trading.ts,
// bench/trading/signal-to-order.ts, bench/api/open-trades.ts): the built SPA, a real server process
// (`tsx server/src/server.ts`, what `npm start` runs) on free loopback ports and a fresh DATA_DIR, Debian's
// Chromium through playwright-core, the API as a script calls it, and the percentile / table printing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const PASSWORD = 'Abcdef1!';

export interface SpaCopy {
  /** The folder to serve (STATIC_DIR). */
  dir: string;
  /** Removes the copy. */
  remove: () => void;
}

/**
 * The built SPA, copied to a temporary folder so the run keeps serving one build even when dist/ is rebuilt
 * meanwhile (other work in this tree runs `npm run build`). The copy is of dist/ (as `npm start` and the
 * end-to-end tests serve it), built first with `npx vite build` when missing; with `sourcemap` a separate
 * build with source maps is made into the temporary folder instead (for profiles that name source files).
 */
export function prepareSpa({ sourcemap = false }: { sourcemap?: boolean } = {}): SpaCopy {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-spa-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const build = (args: string[]) => {
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', ...args], {
      cwd: REPO,
      stdio: 'inherit',
    });
    if (built.status !== 0) {
      remove();
      throw new Error(`vite build failed (${built.status})`);
    }
  };
  if (sourcemap) {
    console.log('SPA: building with source maps (npx vite build --sourcemap) into a temporary folder');
    build(['--sourcemap', '--outDir', dir, '--emptyOutDir']);
    return { dir, remove };
  }
  const dist = path.join(REPO, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.log('SPA: dist/index.html is missing: building it (npx vite build)');
    build([]);
  }
  const age = (Date.now() - fs.statSync(path.join(dist, 'index.html')).mtimeMs) / 60_000;
  fs.cpSync(dist, dir, { recursive: true });
  console.log(
    `SPA: dist/ as built ${age.toFixed(0)} min ago (delete dist/ for a fresh build), served from a copy`,
  );
  return { dir, remove };
}

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

export interface ServerProcess {
  baseUrl: string;
  /** The embedded paper exchange (loopback): its Binance-compatible API and /admin/*. */
  paperUrl: string;
  pid: number;
  /** Milliseconds from spawn to the first answer of the API (includes the 30-day backfill). */
  startMs: number;
  stop: () => Promise<void>;
}

/**
 * `tsx server/src/server.ts` on free ports with a fresh DATA_DIR (removed by stop); its log goes to a file
 * in that folder, as a deployment would write it (the default LOG_LEVEL, info: one line per request).
 */
export async function startServerProcess(staticDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const paperPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-'));
  const logFile = path.join(dataDir, 'server.log');
  const logFd = fs.openSync(logFile, 'a');
  const started = performance.now();
  const child: ChildProcess = spawn(path.join(REPO, 'node_modules/.bin/tsx'), ['server/src/server.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PAPER_EXCHANGE_PORT: String(paperPort),
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      ...env,
    },
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const response = await fetch(`${baseUrl}/api/public/get_bitcoin_public_information/`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('server did not become ready in 180 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-3000) : '';
    await stop();
    throw new Error(`${(error as Error).message}\n${tail}`, { cause: error });
  }
  const running: ServerProcess = {
    baseUrl,
    paperUrl: `http://127.0.0.1:${paperPort}`,
    pid: child.pid ?? 0,
    startMs: performance.now() - started,
    stop,
  };
  return running;
}

/** Headless Chromium, as tests/e2e/harness.ts launches it (a fresh temporary profile each launch). */
export function launchBrowser(): Promise<Browser> {
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

// ------------------------------------------------------------------------------------------- the API

export interface ApiUser {
  email: string;
  /** 'Bearer …', the Authorization header. */
  authorization: string;
}

export async function api<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  apiPath: string,
  authorization?: string,
  body?: object,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}/api/${apiPath}`, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api/${apiPath}: ${response.status} ${text}`);
  return (JSON.parse(text) as { result: T }).result;
}

export async function logIn(baseUrl: string, email: string): Promise<ApiUser> {
  const login = await api<{ token_type: string; access_token: string }>(baseUrl, 'POST', 'auth/login/', '', {
    user_email: email,
    user_password: PASSWORD,
  });
  return { email, authorization: `${login.token_type} ${login.access_token}` };
}

/** A new trader through POST /api/user/, logged in. */
export async function signUpApi(baseUrl: string, nickname: string): Promise<ApiUser> {
  const email = `${nickname}-${Date.now()}@example.com`;
  await api(baseUrl, 'POST', 'user/', '', {
    user_email: email,
    user_nickname: nickname,
    user_password: PASSWORD,
    user_password_repeat: PASSWORD,
  });
  return logIn(baseUrl, email);
}

/** Seconds until the access token in `authorization` expires (its JWT exp), Infinity when unreadable. */
export function secondsLeft(authorization: string): number {
  try {
    const payload = authorization.split(' ')[1]!.split('.')[1]!;
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp?: number };
    return exp === undefined ? Infinity : exp - Date.now() / 1000;
  } catch {
    return Infinity;
  }
}

/** Signs a new trader up through the SPA's 'Sign Up' dialog (as tests/e2e/harness.ts signUp). */
export async function signUpInPage(page: Page, email: string, nickname: string): Promise<void> {
  await page.getByTestId('sidebar').getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign Up' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Nickname').fill(nickname);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Repeat password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByTestId('profile-block').waitFor({ timeout: 30_000 });
}

// ------------------------------------------------------------------------------------------- figures

/** Nearest-rank percentile (p in 0…100) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export const ms = (value: number, digits = 1) =>
  Number.isFinite(value) ? `${value.toFixed(digits)} ms` : '—';

/** A plain text table: the first row is the header. */
export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const [index, row] of rows.entries()) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

/** The load average when a run starts and ends: these figures come from a shared 2-core machine. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}
