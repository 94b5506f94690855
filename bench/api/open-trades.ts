// GET /api/trade/get_trades/open/ under a fixed load (issue 9 item 2): "p99 under 20 ms at 500 requests a
// second". One real server process (`tsx server/src/server.ts` on a fresh DATA_DIR: the embedded paper
// exchange, the 30-day backfill with its house trades, the market feed and the trade monitor all running; log
// level info, one log line per request, to a file), one trader with OPEN_TRADES open client-mode trades made
// from real stored signals (GET /signal/get_recent_signal_list/ → POST /trade_client/create_trade/), then
// a steady load from this process (constant-rate.ts: one request due every 1/RATE s, open loop, latency from
// when it was due) over CONNECTIONS keep-alive connections with the trader's bearer token: WARMUP_S seconds not
// counted, then DURATION_S seconds measured, whose p99 decides PASS/FAIL. Then the same rate from autocannon,
// printed beside it: autocannon sends each second's requests as one burst (constant-rate.ts says why). The token
// is renewed (a new login) first when it would expire during the runs (access tokens live 15 minutes).
// DATABASE_URL passes through to the server (PostgreSQL instead of PGlite), e.g. for a comparison:
//   scripts/with-postgres sh -c 'DATABASE_URL=$TEST_DATABASE_URL npx tsx bench/api/open-trades.ts'
//   npx tsx bench/api/open-trades.ts [rate=500] [duration_s=20] [open_trades=20] [--profile]
// --profile: the server runs with --cpu-prof; its self time by function is printed after the run (the
// profile covers the whole process life, start-up and backfill included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import {
  api,
  loadAverage,
  logIn,
  ms,
  percentile,
  printTable,
  REPO,
  secondsLeft,
  signUpApi,
  startServerProcess,
  type ServerProcess,
} from '../spa/harness';
import { clientTradeBodyOf } from '../../tests/e2e/trade-records';
import { constantRate } from './constant-rate';
import { monotonicMicros, profileSummary, type CpuProfile } from '../spa/profile';
import type { Signal, Trade } from '../../contracts';

const PROFILE = process.argv.includes('--profile');
const [rateArg, durationArg, openTradesArg] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const RATE = Number(rateArg ?? 500);
const DURATION_S = Number(durationArg ?? 20);
const OPEN_TRADES = Number(openTradesArg ?? 20);
const WARMUP_S = 3;
const CONNECTIONS = 50;
const TARGET_P99_MS = 20;

function autocannonRun(url: string, authorization: string, seconds: number) {
  return autocannon({
    url,
    method: 'GET',
    headers: { authorization },
    connections: CONNECTIONS,
    overallRate: RATE,
    duration: seconds,
    timeout: 10,
  }) as PromiseLike<Result>;
}

async function main() {
  console.log(`load average at start: ${loadAverage()} (a shared 2-core machine)`);
  let server: ServerProcess | undefined;
  const window = { fromUs: 0, toUs: 0 };
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-api-profile-')) : '';
  try {
    // The API alone is measured: whether dist/ exists (and is served) does not matter here.
    server = await startServerProcess(
      path.join(REPO, 'dist'),
      {},
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    console.log(
      `server pid ${server.pid} ready in ${(server.startMs / 1000).toFixed(1)} s (with its backfill); database: ` +
        (process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in DATA_DIR (the default)'),
    );
    let user = await signUpApi(server.baseUrl, 'apibench');
    const { signal_list } = await api<{ signal_list: Signal[] }>(
      server.baseUrl,
      'GET',
      `signal/get_recent_signal_list/?limit=${OPEN_TRADES}`,
      user.authorization,
    );
    if (signal_list.length < OPEN_TRADES) throw new Error(`only ${signal_list.length} stored signals`);
    for (const signal of signal_list) {
      await api(
        server.baseUrl,
        'POST',
        'trade_client/create_trade/',
        user.authorization,
        clientTradeBodyOf(signal),
      );
    }
    const url = `${server.baseUrl}/api/trade/get_trades/open/`;
    const check = await api<{ trade_list: Trade[] }>(
      server.baseUrl,
      'GET',
      'trade/get_trades/open/',
      user.authorization,
    );
    const bytes = JSON.stringify({ result: check }).length;
    console.log(`trader with ${check.trade_list.length} open trades; answer ${bytes} bytes`);
    if (check.trade_list.length !== OPEN_TRADES) throw new Error('the open trades are not all listed');

    if (secondsLeft(user.authorization) < WARMUP_S + 2 * DURATION_S + 60) {
      user = await logIn(server.baseUrl, user.email);
      console.log('access token renewed before the run');
    }
    const headers = { authorization: user.authorization };
    const steady = (seconds: number) =>
      constantRate({ url, headers, rate: RATE, durationS: seconds, connections: CONNECTIONS });
    await steady(WARMUP_S);
    window.fromUs = monotonicMicros();
    const run = await steady(DURATION_S);
    window.toUs = monotonicMicros();
    // The same load as autocannon 9 offers it (per-second bursts, see constant-rate.ts), for comparison.
    const burst = await autocannonRun(url, user.authorization, DURATION_S);
    console.log(`load average at end: ${loadAverage()}`);

    const ok = run.statuses.get(200) ?? 0;
    const failed = run.due - ok;
    const achieved = ok / run.elapsedS;
    const statuses = [...run.statuses].map(([code, count]) => `${code}×${count}`).join(' ');
    console.log(
      `\nGET /api/trade/get_trades/open/ (${OPEN_TRADES} open trades), ${RATE} req/s for ${DURATION_S} s over ` +
        `${CONNECTIONS} connections after a ${WARMUP_S} s warm-up`,
    );
    printTable([
      [
        'latency',
        'steady rate, from due (decides)',
        'steady rate, from sent',
        'autocannon (bursts, CO-corrected)',
      ],
      ...([50, 90, 99] as const).map((p) => [
        `p${p}`,
        ms(percentile(run.latencies, p), 2),
        ms(percentile(run.service, p), 2),
        ms(burst.latency[`p${p}`], 0),
      ]),
      ['max', ms(Math.max(...run.latencies), 2), ms(Math.max(...run.service), 2), ms(burst.latency.max, 0)],
    ]);
    console.log(
      `steady: ${run.due} requests due, ${ok} answered 200 in ${run.elapsedS.toFixed(1)} s (${achieved.toFixed(1)} ` +
        `req/s; statuses ${statuses || 'none'}; errors and time-outs ${run.errors}); the generator sent at most ` +
        `${run.maxSendLagMs.toFixed(1)} ms after a request was due`,
    );
    console.log(
      `autocannon: ${(burst['2xx'] / burst.duration).toFixed(1)} req/s, errors ${burst.errors}, ` +
        `timeouts ${burst.timeouts}, non-2xx ${burst.non2xx}`,
    );
    const p99 = percentile(run.latencies, 99);
    const verdict = p99 < TARGET_P99_MS && failed === 0 ? 'PASS' : 'FAIL';
    console.log(
      `open-trades: p99 ${p99.toFixed(2)} ms at ${RATE} req/s, ${failed} failed ` +
        `(target p99 < ${TARGET_P99_MS} ms at ${RATE} req/s, no errors: ${verdict})`,
    );
  } finally {
    await server?.stop();
  }
  if (PROFILE) {
    // One file per process (tsx's launcher and the server): the larger is the server's.
    const files = fs
      .readdirSync(profileDir)
      .map((name) => path.join(profileDir, name))
      .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
    if (!files[0]) throw new Error(`no CPU profile was written to ${profileDir}`);
    console.log(`\nserver CPU profile: ${files[0]}`);
    console.log('(the samples of the measured run only)');
    await profileSummary(
      JSON.parse(fs.readFileSync(files[0], 'utf8')) as CpuProfile,
      REPO,
      'file://',
      window,
    );
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
