// What traders share stays theirs (issue 38): two figures on a real server process (`tsx server/src/server.ts`,
// fresh DATA_DIR, its embedded paper exchange and backfill), as an attacker with ordinary accounts would try it.
// 1. One account asks for 16 31-day analyses at once, again and again for DURATION_MS; meanwhile another trader's
//    requests (GET /api/auth/me/, one every 25 ms) are timed: their p50, p99 and max. Goal: p99 < 50 ms.
// 2. Eight loops of logins for unknown e-mails, each from a new address (X-Forwarded-For, TRUST_PROXY=loopback as
//    behind a proxy), go on for DURATION_MS; meanwhile a trader whose browser logged in before (its login-device
//    cookie) logs in every 2 s with the right password: how long until it is in (retrying on 429 as the SPA's
//    user would, after Retry-After). Goal: ≤ 5 s.
// Prints one line per figure.
//   npx tsx bench/api/shared-resources.ts [--seconds 15]
//   scripts/with-postgres npx tsx bench/api/shared-resources.ts   (the same on PostgreSQL)
import {
  api,
  percentile,
  prepareSpa,
  signUpApi,
  startServerProcess,
  type ServerProcess,
} from '../spa/harness';
import { PASSWORD } from '../../tests/e2e/app-process';
import { createScratchDatabase } from '../../server/src/db/scratch-database';

const args = process.argv.slice(2);
const at = args.indexOf('--seconds');
const DURATION_MS = (at >= 0 ? Number(args[at + 1]) : 15) * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function analysesAndOthers(server: ServerProcess): Promise<string> {
  const hog = await signUpApi(server.baseUrl, 'analysis-hog');
  const other = await signUpApi(server.baseUrl, 'bystander');
  const end = Date.now();
  let running = true;
  const statuses = new Map<number, number>();
  const hogLoop = (async () => {
    while (running) {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          fetch(`${server.baseUrl}/api/analysis/get_analysis/`, {
            method: 'POST',
            headers: { authorization: hog.authorization, 'content-type': 'application/json' },
            body: JSON.stringify({
              datatime_start: new Date(end - 31 * DAY_MS + i * 5 * 60_000 + 60_000).toISOString(),
              datatime_end: new Date(end).toISOString(),
            }),
          }).then((response) => response.status),
        ),
      );
      for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  })();
  const latencies: number[] = [];
  const until = Date.now() + DURATION_MS;
  while (Date.now() < until) {
    const started = performance.now();
    await api(server.baseUrl, 'GET', 'auth/me/', other.authorization);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  running = false;
  await hogLoop;
  const codes = [...statuses].map(([status, count]) => `${status}×${count}`).join(' ');
  return (
    `shared-resources: another trader's requests while one account runs 16 analyses at once ` +
    `p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))} ` +
    `(n=${latencies.length}; the analyses answered ${codes})`
  );
}

async function loginUnderFlood(server: ServerProcess): Promise<string> {
  const trader = await signUpApi(server.baseUrl, 'owner');
  const login = (email: string, password: string, address: string, cookie?: string) =>
    fetch(`${server.baseUrl}/api/auth/login/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': address,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify({ user_email: email, user_password: password }),
    });
  // This browser's earlier login: its login-device cookie.
  const first = await login(trader.email, PASSWORD, '203.0.113.10');
  const device = /login_device=[^;]+/.exec(first.headers.get('set-cookie') ?? '')?.[0];
  if (!device) throw new Error('no login-device cookie');
  let flooding = true;
  let sent = 0;
  let busy = 0;
  const loops = Array.from({ length: 8 }, async (_, loop) => {
    while (flooding) {
      sent += 1;
      const response = await login(
        `flood.${loop}.${sent}@example.com`,
        'Wrong#1a',
        `198.18.${(sent >> 8) & 255}.${sent & 255}`,
      );
      if (response.status === 429) busy += 1;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const waits: number[] = [];
  const until = Date.now() + DURATION_MS;
  while (Date.now() < until) {
    const started = performance.now();
    for (;;) {
      const response = await login(trader.email, PASSWORD, '203.0.113.10', device);
      if (response.status === 200) break;
      if (response.status !== 429) throw new Error(`login: ${response.status} ${await response.text()}`);
      await new Promise((resolve) =>
        setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000),
      );
    }
    waits.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  flooding = false;
  await Promise.all(loops);
  return (
    `shared-resources: the right password gets in during a login flood median ${ms(percentile(waits, 50))}, ` +
    `max ${ms(Math.max(...waits))} (n=${waits.length}; the flood sent ${sent} logins, ${busy} refused busy)`
  );
}

async function main() {
  const spa = prepareSpa();
  let server: ServerProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  try {
    // Under scripts/with-postgres the server runs on that PostgreSQL (a fresh database), else on PGlite.
    const database = process.env.TEST_DATABASE_URL
      ? await createScratchDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    dropDatabase = database?.drop;
    server = await startServerProcess(spa.dir, {
      TRUST_PROXY: 'loopback',
      ...(database && { DATABASE_URL: database.url }),
    });
    console.log(`database: ${database ? 'PostgreSQL' : 'PGlite'}`);
    console.log(`server pid ${server.pid} ready in ${(server.startMs / 1000).toFixed(1)} s`);
    const lines = [await analysesAndOthers(server), await loginUnderFlood(server)];
    console.log('');
    for (const line of lines) console.log(line);
  } finally {
    await server?.stop();
    await dropDatabase?.();
    spa.remove();
  }
}

await main();
