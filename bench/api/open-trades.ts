// GET /api/trade/get_trades/open/ under a fixed load (issue 9 item 2): "p99 under 20 ms at 500 requests a
// second". One real server process (`tsx server/src/server.ts` on a fresh DATA_DIR: the embedded paper
// exchange, the 30-day backfill with its house trades, the market feed and the trade monitor all running; log
// level info, one log line per request, to a file), one trader with OPEN_TRADES open client-mode trades made
// from real stored signals (GET /signal/get_recent_signal_list/ → POST /trade_client/create_trade/), then
// autocannon in this process at a fixed overall rate over CONNECTIONS keep-alive connections with the trader's
// bearer token: WARMUP_S seconds not counted, then DURATION_S seconds measured. The token is renewed (a new
// login) first when it would expire during the run (access tokens live 15 minutes).
// Latency: autocannon's histogram (whole milliseconds, corrected for coordinated omission at the fixed rate)
// decides PASS/FAIL; the exact per-response times (no correction) are printed beside it.
// DATABASE_URL passes through to the server (PostgreSQL instead of PGlite), e.g. for a comparison:
//   scripts/with-postgres sh -c 'DATABASE_URL=$TEST_DATABASE_URL npx tsx bench/api/open-trades.ts'
//   npx tsx bench/api/open-trades.ts [rate=500] [duration_s=20] [open_trades=20]
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
import type { Signal, Trade } from '../../contracts';

const RATE = Number(process.argv[2] ?? 500);
const DURATION_S = Number(process.argv[3] ?? 20);
const OPEN_TRADES = Number(process.argv[4] ?? 20);
const WARMUP_S = 3;
const CONNECTIONS = 50;
const TARGET_P99_MS = 20;

/** A client-mode trade as the SPA records it after opening the position (the order ids are the SPA's). */
function clientTradeBody(signal: Signal) {
  const price = signal.signal_price_enter;
  const quantity = Math.max(0.001, (10 * 10) / price).toFixed(3);
  const key = signal.signal_uuid.replace(/-/g, '');
  const stop = signal.signal_direction_created === 'BUY' ? price * 0.99 : price * 1.01;
  return {
    signal_uuid: signal.signal_uuid,
    trade_margin: 10,
    trade_leverage: 10,
    trade_stop_loss_percent: 10,
    trade_take_profit_percent: 5,
    trade_treiling_stop_percent: 3,
    trade_quantity: quantity,
    trade_open_price: String(price),
    trade_order_id: `sdo${key}`,
    trade_stop_order_id: `sds${key}`,
    trade_stop_price: stop.toFixed(signal.symbol.symbol_price_precision),
  };
}

function load(url: string, authorization: string, seconds: number, onLatency?: (ms: number) => void) {
  const instance = autocannon({
    url,
    method: 'GET',
    headers: { authorization },
    connections: CONNECTIONS,
    overallRate: RATE,
    duration: seconds,
    timeout: 10,
  });
  if (onLatency) {
    instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      if (status === 200) onLatency(time);
    });
  }
  return instance as PromiseLike<Result>;
}

async function main() {
  console.log(`load average at start: ${loadAverage()} (a shared 2-core machine)`);
  let server: ServerProcess | undefined;
  try {
    // The API alone is measured: whether dist/ exists (and is served) does not matter here.
    server = await startServerProcess(path.join(REPO, 'dist'));
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
        clientTradeBody(signal),
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

    if (secondsLeft(user.authorization) < WARMUP_S + DURATION_S + 60) {
      user = await logIn(server.baseUrl, user.email);
      console.log('access token renewed before the run');
    }
    await load(url, user.authorization, WARMUP_S);
    const exact: number[] = [];
    const result = await load(url, user.authorization, DURATION_S, (time) => exact.push(time));
    const completed = result['2xx'] + result.non2xx;
    const achieved = completed / result.duration;
    const failed = result.errors + result.timeouts + result.non2xx;
    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' ');
    console.log(`load average at end: ${loadAverage()}`);
    console.log(
      `\nGET /api/trade/get_trades/open/ (${OPEN_TRADES} open trades), ${RATE} req/s offered for ${DURATION_S} s ` +
        `over ${CONNECTIONS} connections after a ${WARMUP_S} s warm-up`,
    );
    printTable([
      ['latency', 'autocannon (whole ms, CO-corrected)', 'exact per response'],
      ['p50', ms(result.latency.p50, 0), ms(percentile(exact, 50), 2)],
      ['p90', ms(result.latency.p90, 0), ms(percentile(exact, 90), 2)],
      ['p99', ms(result.latency.p99, 0), ms(percentile(exact, 99), 2)],
      ['max', ms(result.latency.max, 0), ms(Math.max(...exact), 2)],
    ]);
    console.log(
      `achieved ${achieved.toFixed(1)} req/s (${completed} responses in ${result.duration.toFixed(1)} s; ` +
        `statuses ${statuses || 'none'}); errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`,
    );
    const rateOk = achieved >= RATE * 0.98;
    const verdict = result.latency.p99 < TARGET_P99_MS && rateOk && failed === 0 ? 'PASS' : 'FAIL';
    console.log(
      `open-trades: p99 ${result.latency.p99} ms at ${achieved.toFixed(0)} req/s, ${failed} failed ` +
        `(target p99 < ${TARGET_P99_MS} ms at ${RATE} req/s, no errors: ${verdict})`,
    );
  } finally {
    await server?.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
