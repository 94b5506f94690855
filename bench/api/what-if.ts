// The what-if replay (issue 42) on a real server process (`tsx server/src/server.ts`, fresh DATA_DIR, its
// embedded paper exchange and its first start's 30-day backfill: signals and candles of 8 symbols stored).
// 1. A trader asks GET /api/trade_preferences/get_what_if/ for the last 30 days: the first question reads the
//    month from the database; then COLD questions, each with settings never asked before (a new margin), are timed
//    one after the other — median and p95 (goal: median ≤ 1 s); then the same question again, CACHED (goal ≤ 20 ms).
// 2. Eight traders each replay settings never asked before, again and again, for DURATION_MS; meanwhile another
//    trader's requests (GET /api/auth/me/, one every 25 ms) are timed: their p50 and p99 (goal: p99 < 50 ms).
// Prints the first-read time and two lines.
//   npx tsx bench/api/what-if.ts [--seconds 15] [--cold 15]
import {
  api,
  percentile,
  prepareSpa,
  signUpApi,
  startServerProcess,
  type ServerProcess,
} from '../spa/harness';
import { PAPER_PLATFORM_UUID } from '../../server/src/services/platforms';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const DURATION_MS = option('--seconds', 15) * 1000;
const COLD = option('--cold', 15);

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A margin never asked before: 1.5 + 0.25 × n (the preference's step). */
let nextMargin = 0;
const freshMargin = () => 1.5 + 0.25 * nextMargin++;

async function whatIf(server: ServerProcess, authorization: string, margin: number) {
  const started = performance.now();
  const response = await fetch(
    `${server.baseUrl}/api/trade_preferences/get_what_if/?platform_uuid=${PAPER_PLATFORM_UUID}&trade_margin=${margin}`,
    { headers: { authorization } },
  );
  const body = (await response.json()) as {
    result?: { total: { trades: number }; data: { candles: number; signals: number } };
    detail?: string;
  };
  const elapsed = performance.now() - started;
  return { status: response.status, elapsed, body };
}

async function coldAndCached(server: ServerProcess): Promise<string[]> {
  const trader = await signUpApi(server.baseUrl, 'what-if');
  // The first start's backfill stores the month while the server already answers: wait for its candles.
  let first = await whatIf(server, trader.authorization, freshMargin());
  while (first.status === 200 && first.body.result!.data.candles < 8 * 29 * 1440) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    first = await whatIf(server, trader.authorization, freshMargin());
  }
  if (first.status !== 200) throw new Error(`what-if: ${first.status} ${JSON.stringify(first.body)}`);
  const { candles, signals } = first.body.result!.data;
  const cold: number[] = [];
  let trades = 0;
  for (let i = 0; i < COLD; i++) {
    const answer = await whatIf(server, trader.authorization, freshMargin());
    if (answer.status !== 200) throw new Error(`what-if: ${answer.status} ${JSON.stringify(answer.body)}`);
    cold.push(answer.elapsed);
    trades = answer.body.result!.total.trades;
  }
  const margin = freshMargin();
  await whatIf(server, trader.authorization, margin);
  const cached: number[] = [];
  for (let i = 0; i < COLD; i++) cached.push((await whatIf(server, trader.authorization, margin)).elapsed);
  return [
    `what-if: the first question read ${candles} candles and ${signals} signals in ${ms(first.elapsed)}`,
    `what-if: 30-day replay median ${ms(percentile(cold, 50))}, p95 ${ms(percentile(cold, 95))}; ` +
      `cached ${ms(percentile(cached, 50))} (n=${COLD} each; ${trades} trades a replay)`,
  ];
}

async function othersWhileEightReplay(server: ServerProcess): Promise<string> {
  // One after the other: sign-ups share the password-hashing queue.
  const traders = [];
  for (let i = 0; i < 8; i++) traders.push(await signUpApi(server.baseUrl, `replayer-${i}`));
  const other = await signUpApi(server.baseUrl, 'bystander');
  let running = true;
  let replays = 0;
  const statuses = new Map<number, number>();
  const loops = traders.map(async (trader) => {
    while (running) {
      const answer = await whatIf(server, trader.authorization, freshMargin());
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) replays += 1;
    }
  });
  const latencies: number[] = [];
  const until = Date.now() + DURATION_MS;
  while (Date.now() < until) {
    const started = performance.now();
    await api(server.baseUrl, 'GET', 'auth/me/', other.authorization);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  running = false;
  await Promise.all(loops);
  const codes = [...statuses].map(([status, count]) => `${status}×${count}`).join(' ');
  return (
    `what-if: another trader's requests while 8 traders replay p50 ${ms(percentile(latencies, 50))}, ` +
    `p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))} ` +
    `(n=${latencies.length}; ${replays} replays answered, ${codes})`
  );
}

async function main() {
  const spa = prepareSpa();
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(spa.dir);
    console.log(`server pid ${server.pid} ready in ${(server.startMs / 1000).toFixed(1)} s`);
    for (const line of await coldAndCached(server)) console.log(line);
    console.log(await othersWhileEightReplay(server));
  } finally {
    await server?.stop();
    spa.remove();
  }
}

await main();
