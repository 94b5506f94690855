// Signaldesk as a process and Debian's Chromium, for the end-to-end tests (harness.ts) and the benchmarks
// (bench/): `tsx server/src/server.ts` (what `npm start` runs) on free loopback ports and a fresh DATA_DIR, and
// headless Chromium through playwright-core (TOOLCHAIN.md "Browsers"). No test runner in here.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

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
  dataDir: string;
  pid: number;
  /** Milliseconds from spawn to the first answer of the API (a first start includes the 30-day backfill). */
  startMs: number;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `tsx server/src/server.ts` (what `npm start` runs) and waits until the API answers. `env` adds to the
 * process environment (STATIC_DIR serves another build than dist/).
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const staticDir = path.resolve(REPO, env.STATIC_DIR ?? 'dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    throw new Error(`${staticDir} has no built SPA: run \`npm run build\` first`);
  }
  const started = performance.now();
  const port = await freePort();
  const paperPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(path.join(REPO, 'node_modules/.bin/tsx'), ['server/src/server.ts'], {
    cwd: REPO,
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
  return {
    baseUrl,
    paperUrl: `http://127.0.0.1:${paperPort}`,
    dataDir,
    pid: child.pid ?? 0,
    startMs: performance.now() - started,
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
