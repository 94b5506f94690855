// Shared by the issue 9 benchmarks that need a running Signaldesk (bench/spa/trading.ts,
// bench/trading/signal-to-order.ts, bench/api/open-trades.ts): the built SPA, a real server process
// (`tsx server/src/server.ts`, what `npm start` runs) on free loopback ports and a fresh DATA_DIR, Debian's
// Chromium through playwright-core, the API as a script calls it, and the percentile / table printing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PASSWORD, REPO, startApp, type RunningApp } from '../../tests/e2e/app-process';

export { CHROMIUM_PATH, freePort, launchBrowser, PASSWORD, REPO, signUp } from '../../tests/e2e/app-process';

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

/** A Signaldesk server process (the end-to-end tests' startApp) serving the SPA in `staticDir`. */
export type ServerProcess = RunningApp;

export function startServerProcess(
  staticDir: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
) {
  return startApp({ HOST: '127.0.0.1', STATIC_DIR: staticDir, ...env }, { nodeArgs });
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
