// Websocket delivery under load (issue 6): one server process — the real app, live core and market feed
// on an embedded paper exchange. The exchange's market moves on a one-second grid, so its clock runs ten
// times faster than real time and ticks every 100 ms: bitcoin's mark price (and with it
// symbol_price_base_from_core and bitcoin_public_information_from_core) goes out 10 times a second, and a
// 1-minute candle closes every 6 s, so the signal engine works too. 1,000
// authenticated sockets are opened by a separate process (clients.ts). Latency is the client's receive
// time minus the sent_at the server wrote into each symbol_price_base_from_core frame. Loopback only; stops
// by itself after DURATION_S seconds.
//   npx tsx bench/ws-throughput/run.ts [sockets=1000] [duration_s=20]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPaperExchange } from '../../paper-exchange/src/index';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db';
import { startLiveCore } from '../../server/src/engine/live-core';
import { MarketFeed } from '../../server/src/engine/market-feed';
import { initTradeCore } from '../../shared-core/trade-core-node';
import { signUpAndLogIn } from '../../server/test/test-app';

const SOCKETS = Number(process.argv[2] ?? 1000);
const DURATION_S = Number(process.argv[3] ?? 20);
const USERS = 10;
const TICK_MS = 100;
/** Simulated seconds per real second: one mark price per simulated second makes 10 a second. */
const CLOCK_SPEED = 10;
const silent = { warn: () => undefined };

async function main() {
  await initTradeCore();
  const realStart = Date.now();
  const clock = () => realStart + (Date.now() - realStart) * CLOCK_SPEED;
  const paper = await buildPaperExchange({ tickMs: TICK_MS, historyDays: 1, clock });
  await paper.app.listen({ port: 0, host: '127.0.0.1' });
  const paperAddress = paper.app.server.address();
  const paperPort = typeof paperAddress === 'object' && paperAddress ? paperAddress.port : 0;
  paper.startClock();
  const exchange = {
    url: `http://127.0.0.1:${paperPort}`,
    wsUrl: `ws://127.0.0.1:${paperPort}`,
    close: () => paper.close(),
  };
  const database = await openDatabase({});
  const feed = new MarketFeed(exchange.url, exchange.wsUrl, ['BTCUSDT'], silent, { warmupCandles: 0 });
  const { app, hub } = await buildApp({
    feed,
    db: database.db,
    exchangeUrl: exchange.url,
    paperExchangeUrl: exchange.url,
    // SOCKETS / USERS sockets per trader: far above what one trader's pages hold (plugins/websocket.ts).
    websocketLimits: { socketsPerUser: Math.ceil(SOCKETS / USERS) },
  });
  const core = await startLiveCore({ feed, db: database.db, hub, log: silent });
  await feed.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const tokens: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const user = await signUpAndLogIn(app, `bench${u}`);
    for (let i = 0; i < SOCKETS / USERS; i++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/create_websocket_token/',
        headers: user.headers,
      });
      tokens.push(response.json().result.token);
    }
  }
  const tokenFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-')), 'tokens.json');
  fs.writeFileSync(tokenFile, JSON.stringify(tokens));

  const clientScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'clients.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', clientScript, `ws://127.0.0.1:${port}/api/ws_core`, tokenFile, String(DURATION_S)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const connectedAtEnd = hub.size;
  await feed.close();
  await core.close();
  await app.close();
  await exchange.close();
  await database.close();
  fs.rmSync(path.dirname(tokenFile), { recursive: true, force: true });
  const summary = JSON.parse(output.trim().split('\n').pop() ?? '{}');
  console.log(
    JSON.stringify({ ...summary, sockets_on_server_at_end: connectedAtEnd, client_exit: exitCode }, null, 2),
  );
  const verdict = summary.p99_ms < 50 ? 'PASS' : 'FAIL';
  console.log(
    `ws-throughput: ${summary.sockets} sockets, ${summary.price_updates_per_s.toFixed(1)} price updates/s, ` +
      `p50 ${summary.p50_ms.toFixed(2)} ms, p95 ${summary.p95_ms.toFixed(2)} ms, p99 ${summary.p99_ms.toFixed(2)} ms ` +
      `(target p99 < 50 ms: ${verdict})`,
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
