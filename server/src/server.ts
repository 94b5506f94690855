// The Signaldesk process (`npm start`): the database (PGlite under DATA_DIR or PostgreSQL), the embedded
// paper exchange (unless EXCHANGE_URL names another exchange), the market feed, and the API + SPA on PORT.
import path from 'node:path';
import { startPaperExchange } from '../../paper-exchange/src/index';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { startLiveCore } from './engine/live-core';
import { followedSymbols, MarketFeed } from './engine/market-feed';
import { initTradeCore } from './lib/trade-core';
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
  let closeExchange: (() => Promise<void>) | undefined;
  if (!exchangeUrl || !exchangeWsUrl) {
    const exchange = await startPaperExchange({
      port: config.paperExchangePort,
      host: '127.0.0.1',
      dataDir: path.join(config.dataDir, 'paper-exchange'),
    });
    exchangeUrl = exchange.url;
    exchangeWsUrl = exchange.wsUrl;
    paperExchangeUrl = exchange.url;
    closeExchange = () => exchange.close();
    log.info(`paper exchange on ${exchangeUrl}`);
  }

  const feed = new MarketFeed(exchangeUrl, exchangeWsUrl, await followedSymbols(exchangeUrl, log), log);
  const { app, hub, monitor } = await buildApp({
    feed,
    db: database.db,
    secretBox: new SecretBox(loadMasterKey({ env: process.env, dataDir: config.dataDir })),
    staticDir: config.staticDir,
    logger: log,
    exchangeUrl,
    paperExchangeUrl,
  });

  // Prices, bitcoin information and signals to the sockets (engine/live-core.ts); new signals also reach the
  // trade monitor, which buildApp started with the open trades. The feed starts after, so the candles it
  // loads at start already reach the signal engine.
  const core = await startLiveCore({
    feed,
    db: database.db,
    hub,
    log,
    onSignals: (rows) => monitor.onSignals(rows),
  });
  await feed.start();

  await app.listen({ port: config.port, host: config.host });
  log.info(`Signaldesk on http://localhost:${config.port}`);

  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    await feed.close();
    await core.close();
    await app.close();
    await closeExchange?.();
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
