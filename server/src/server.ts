// The Signaldesk process (`npm start`): the embedded paper exchange (unless EXCHANGE_URL names another
// exchange), the market feed, and the API + SPA on PORT.
import path from 'node:path';
import pino from 'pino';
import { startPaperExchange } from '../../paper-exchange/src/index';
import { buildApp } from './app';
import { loadConfig } from './config';
import { BITCOIN_SYMBOL, bitcoinInformation } from './engine/bitcoin-information';
import { MarketFeed } from './engine/market-feed';

const config = loadConfig();
// Secrets never reach a log: headers that carry credentials are redacted (SPEC.md, DESIGN.md).
const log = pino({
  level: config.logLevel,
  redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-mbx-apikey"]'],
});

async function main() {
  let exchangeUrl = config.exchangeUrl;
  let exchangeWsUrl = exchangeUrl?.replace(/^http/, 'ws');
  let closeExchange: (() => Promise<void>) | undefined;
  if (!exchangeUrl || !exchangeWsUrl) {
    const exchange = await startPaperExchange({
      port: config.paperExchangePort,
      host: '127.0.0.1',
      dataDir: path.join(config.dataDir, 'paper-exchange'),
    });
    exchangeUrl = exchange.url;
    exchangeWsUrl = exchange.wsUrl;
    closeExchange = () => exchange.close();
    log.info(`paper exchange on ${exchangeUrl}`);
  }

  const feed = new MarketFeed(exchangeUrl, exchangeWsUrl, [BITCOIN_SYMBOL], log);
  await feed.start();
  const { app, hub } = await buildApp({ feed, staticDir: config.staticDir, logger: log });

  // bitcoin_public_information_from_core to every socket on each bitcoin mark price (1 s stream).
  feed.on('tick', (tick) => {
    if (tick.symbol !== BITCOIN_SYMBOL || hub.size === 0) return;
    const info = bitcoinInformation(feed);
    if (info) hub.broadcast({ event: 'bitcoin_public_information_from_core', message: { bitcoin_public_information: info } });
  });

  await app.listen({ port: config.port, host: config.host });
  log.info(`Signaldesk on http://localhost:${config.port}`);

  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    await feed.close();
    await app.close();
    await closeExchange?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  log.fatal({ err: error }, 'start failed');
  process.exit(1);
});
