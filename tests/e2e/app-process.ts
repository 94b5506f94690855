// Signaldesk as a process and Debian's Chromium, for the end-to-end tests (harness.ts) and the benchmarks
// (bench/): `tsx server/src/server.ts` (what `npm start` runs) on free loopback ports and a fresh DATA_DIR, and
// headless Chromium through playwright-core (TOOLCHAIN.md "Browsers"), and the sign-up dialog. No test runner
// in here.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const REPO = path.resolve(import.meta.dirname, '../..');
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
  /** The X-Admin-Token its /admin/* changes need (DATA_DIR/paper-exchange/admin.token). */
  paperAdminToken: string;
  dataDir: string;
  /** PORT and PAPER_EXCHANGE_PORT of this process (a restart on the same DATA_DIR can keep them). */
  port: number;
  paperPort: number;
  /** The pid of the `tsx` launcher; the server itself runs in its child process (see kill). */
  pid: number;
  /** Milliseconds from spawn to the first answer of the API (a first start includes the 30-day backfill). */
  startMs: number;
  output: () => string;
  /**
   * `kill -9` of the server process itself (tsx runs server.ts in a child process, which a SIGKILL of the
   * launcher would leave running), then of the launcher; resolves when both are gone. DATA_DIR is kept, so
   * startApp({}, { restartOf }) can start again on it.
   */
  kill: () => Promise<void>;
  /** SIGTERM (SIGKILL after 10 s), then DATA_DIR is removed unless the app was started with keepDataDir. */
  stop: () => Promise<void>;
}

export interface StartAppOptions {
  /** Start on the DATA_DIR and ports of an app that was stopped or killed (a restart). */
  restartOf?: Pick<RunningApp, 'dataDir' | 'port' | 'paperPort'>;
  /** stop() leaves DATA_DIR in place (the caller removes it). */
  keepDataDir?: boolean;
  /** Node flags for the server process, e.g. ['--cpu-prof', '--cpu-prof-dir=…'] (refused in NODE_OPTIONS). */
  nodeArgs?: string[];
}

/** The pids of a process's children (Linux /proc). */
export function childPids(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
      .filter((text) => text !== '')
      .map(Number);
  } catch {
    return [];
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts `tsx server/src/server.ts` (what `npm start` runs) and waits until the API answers. `env` adds to the
 * process environment (STATIC_DIR serves another build than dist/).
 */
export async function startApp(
  env: Record<string, string> = {},
  { restartOf, keepDataDir = false, nodeArgs = [] }: StartAppOptions = {},
): Promise<RunningApp> {
  const staticDir = path.resolve(REPO, env.STATIC_DIR ?? process.env.STATIC_DIR ?? 'dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    throw new Error(`${staticDir} has no built SPA: run \`npm run build\` first`);
  }
  const started = performance.now();
  const port = restartOf?.port ?? (await freePort());
  const paperPort = restartOf?.paperPort ?? (await freePort());
  const dataDir = restartOf?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(
    path.join(REPO, 'node_modules/.bin/tsx'),
    [...nodeArgs, 'server/src/server.ts'],
    {
      cwd: REPO,
      env: {
        ...process.env,
        PORT: String(port),
        PAPER_EXCHANGE_PORT: String(paperPort),
        DATA_DIR: dataDir,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
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
  const exited = () =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const tokenFile = path.join(dataDir, 'paper-exchange', 'admin.token');
  return {
    baseUrl,
    paperUrl: `http://127.0.0.1:${paperPort}`,
    // Absent with EXCHANGE_URL or PAPER_EXCHANGE_URL: no embedded paper exchange.
    paperAdminToken: fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : '',
    dataDir,
    port,
    paperPort,
    pid: child.pid ?? 0,
    startMs: performance.now() - started,
    output: () => log,
    kill: async () => {
      const launcher = child.pid ?? 0;
      const servers = childPids(launcher);
      for (const pid of [...servers, launcher]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await exited();
      for (const pid of servers) {
        while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = exited();
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      if (!keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
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

/** The password every test and bench trader signs up with. */
export const PASSWORD = 'Abcdef1!';

/** Signs a new trader up through the 'Sign Up' dialog and waits for the profile block. */
export async function signUp(page: Page, email: string, nickname = 'trader'): Promise<void> {
  await page.getByTestId('sidebar').getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign Up' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Nickname').fill(nickname);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Repeat password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign Up' }).click();
  // The password's Argon2id hash and the first reads, on a 2-core machine where another file's server may be
  // starting (its backfill) or restarting (process-kill) at the same moment: 30 s was not always enough in CI.
  await page.getByTestId('profile-block').waitFor({ timeout: 90_000 });
}
