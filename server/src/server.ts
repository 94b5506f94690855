// The Signaldesk process (`npm start`): the database (PGlite under DATA_DIR or PostgreSQL), the embedded
// paper exchange (unless EXCHANGE_URL names another exchange), the market feed, and the API + SPA on PORT.
// With the paper exchange the house account runs too (docs/decisions.md "House account"): on the first start
// the backfill replays 30 days of market, signals, house trades and statistics before the server listens.
import path from 'node:path';
import { startPaperExchange, type PaperExchangeHandle } from '../../paper-exchange/src/index';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { backfillFirstStart } from './engine/house-backfill';
import { HouseFollower } from './engine/house-follower';
import { startLiveCore } from './engine/live-core';
import { followedSymbols, MarketFeed } from './engine/market-feed';
import { StatisticsRecorder } from './engine/statistics-live';
import { initTradeCore } from './lib/trade-core';
import { ensureHouseAccount, type HouseAccount } from './services/house';
import { PAPER_PLATFORM_UUID } from './services/platforms';
import { loadMasterKey, SecretBox } from './services/secret-box';
import { createLogger } from './services/logger';

const config = loadConfig();
// Secrets never reach a log: credential headers and secret body fields are redacted (services/logger.ts).
const log = createLogger(config.logLevel);

async function main() {
  await initTradeCore();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  log.info(`database: ${database.kind}`);

  let exchangeUrl = config.exchangeUrl;
  let exchangeWsUrl = exchangeUrl?.replace(/^http/, 'ws');
  let paperExchangeUrl: string | undefined;
  let paperExchange: PaperExchangeHandle | undefined;
  if (!exchangeUrl || !exchangeWsUrl) {
    const exchange = await startPaperExchange({
      port: config.paperExchangePort,
      host: '127.0.0.1',
      dataDir: path.join(config.dataDir, 'paper-exchange'),
    });
    exchangeUrl = exchange.url;
    exchangeWsUrl = exchange.wsUrl;
    paperExchangeUrl = exchange.url;
    paperExchange = exchange;
    log.info(`paper exchange on ${exchangeUrl}`);
  }

  const feed = new MarketFeed(exchangeUrl, exchangeWsUrl, await followedSymbols(exchangeUrl, log), log);
  const secretBox = new SecretBox(loadMasterKey({ env: process.env, dataDir: config.dataDir }));
  const { app, hub, monitor } = await buildApp({
    feed,
    db: database.db,
    secretBox,
    staticDir: config.staticDir,
    logger: log,
    exchangeUrl,
    paperExchangeUrl,
  });

  // The house account and, on the first start, the backfill (engine/house-backfill.ts); no house without the
  // paper exchange.
  let house: HouseAccount | undefined;
  if (paperExchange) {
    const exchange = paperExchange;
    house = await ensureHouseAccount({
      db: database.db,
      box: secretBox,
      platformUuid: PAPER_PLATFORM_UUID,
      createAccount: (balance) => exchange.admin.createAccount(balance),
      log,
    });
    await backfillFirstStart({ db: database.db, exchange, house, log });
  }
  const follower = house
    ? new HouseFollower({ app, db: database.db, desk: app.tradeDesk, box: secretBox, house, log })
    : undefined;

  // Prices, bitcoin information and signals to the sockets (engine/live-core.ts); new signals also reach the
  // trade monitor, which buildApp started with the open trades, then the house follower. The feed starts
  // after, so the candles it loads at start already reach the signal engine.
  const core = await startLiveCore({
    feed,
    db: database.db,
    hub,
    log,
    onSignals: async (rows) => {
      await monitor.onSignals(rows);
      follower?.onSignals(rows);
    },
  });
  await follower?.start();
  const recorder = house
    ? new StatisticsRecorder({ db: database.db, monitor, feed, houseUserUuid: house.user_uuid, log })
    : undefined;
  recorder?.start();
  await feed.start();

  await app.listen({ port: config.port, host: config.host });
  log.info(`Signaldesk on http://localhost:${config.port}`);

  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    await feed.close();
    await core.close();
    await follower?.close();
    await recorder?.close();
    await app.close();
    await paperExchange?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  log.fatal({ err: error }, 'start failed');
  process.exit(1);
});
