// The Signaldesk process (`npm start`): the database (PGlite under DATA_DIR or PostgreSQL), the embedded
// paper exchange (unless EXCHANGE_URL names another exchange), the market feed, and the API + SPA on PORT.
import path from 'node:path';
import { startPaperExchange } from '../../paper-exchange/src/index';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { BITCOIN_SYMBOL, bitcoinInformation } from './engine/bitcoin-information';
import { MarketFeed } from './engine/market-feed';
import { initTradeCore } from './lib/trade-core';
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

  const feed = new MarketFeed(exchangeUrl, exchangeWsUrl, [BITCOIN_SYMBOL], log);
  await feed.start();
  const { app, hub } = await buildApp({
    feed,
    db: database.db,
    staticDir: config.staticDir,
    logger: log,
    exchangeUrl,
    paperExchangeUrl,
  });

  // bitcoin_public_information_from_core to every socket on each bitcoin mark price (1 s stream).
  feed.on('tick', (tick) => {
    if (tick.symbol !== BITCOIN_SYMBOL || hub.size === 0) return;
    const info = bitcoinInformation(feed);
    if (info)
      hub.broadcast({
        event: 'bitcoin_public_information_from_core',
        message: { bitcoin_public_information: info },
      });
  });

  await app.listen({ port: config.port, host: config.host });
  log.info(`Signaldesk on http://localhost:${config.port}`);

  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    await feed.close();
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
