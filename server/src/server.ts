// The Signaldesk process (`npm start`): the database (PGlite under DATA_DIR or PostgreSQL), the paper exchange
// (embedded, or the one PAPER_EXCHANGE_URL names; none when EXCHANGE_URL names another exchange), the market
// feed, and the API + SPA on PORT. Several processes may share one PostgreSQL (docs/server.md "Several
// instances"): each serves its own sockets, the event bus carries what one does to the others' sockets, and
// the one that leads (an advisory lock) runs the signal engine, the house account (with the paper exchange;
// on the first start the backfill replays 30 days of market, signals, house trades and statistics) and the
// statistics (engine/leader-duties.ts). With PGlite the process is alone and leads from the start.
import fs from 'node:fs';
import path from 'node:path';
import { startPaperExchange, type PaperExchangeHandle } from '../../paper-exchange/src/index';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { followedSymbols, MarketFeed } from './engine/market-feed';
import { initTradeCore } from '../../shared-core/trade-core-node';
import { LocalEventBus, PgEventBus, type EventBus } from './services/event-bus';
import { PgLeadership, SoleLeadership, type Leadership } from './services/leadership';
import { exchangeBudget } from './services/exchange-budget';
import { ExchangePauseSharing } from './services/exchange-pauses';
import {
  embeddedPaperExchange,
  remoteAdminToken,
  remotePaperExchange,
  type PaperExchangeLink,
} from './services/paper-exchange-link';
import {
  findMasterKey,
  paperExchangeSealKey,
  SecretBox,
  warnWhenKeyInsideDataDir,
} from './services/secret-box';
import { createLogger } from './services/logger';
import { EgressIp } from './services/egress-ip';

const config = loadConfig();
// Secrets never reach a log: credential headers and secret body fields are redacted (services/logger.ts).
const log = createLogger(config.logLevel);

async function main() {
  // What this process writes (PGlite, the paper exchange's state and admin token, master.key) holds secrets:
  // owner-only, whatever the umask it was started with.
  process.umask(0o077);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(config.dataDir, 0o700);
  const master = findMasterKey({ env: process.env, dataDir: config.dataDir });
  warnWhenKeyInsideDataDir(master, config.dataDir, log);
  await initTradeCore();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log });
  log.info(`database: ${database.kind}`);

  let paper: PaperExchangeLink | undefined;
  let embedded: PaperExchangeHandle | undefined;
  if (config.paperExchangeUrl) {
    paper = await remotePaperExchange(config.paperExchangeUrl, remoteAdminToken(process.env, config.dataDir));
    log.info(`paper exchange on ${paper.url} (runs apart)`);
  } else if (!config.exchangeUrl) {
    embedded = await startPaperExchange({
      port: config.paperExchangePort,
      host: '127.0.0.1',
      dataDir: path.join(config.dataDir, 'paper-exchange'),
      // The accounts' secrets (the house's included) are sealed in its journal and snapshot under a key derived
      // from the master key, which the data folder does not hold (issue 38 item 2; README).
      sealKey: paperExchangeSealKey(new SecretBox(master.key)),
      cors: config.paperExchangeCors,
    });
    paper = embeddedPaperExchange(embedded);
    log.info(`paper exchange on ${paper.url}`);
  }
  // EXCHANGE_URL, or else the paper exchange (one of the two is there).
  const exchangeUrl = config.exchangeUrl ?? paper!.url;
  const exchangeWsUrl = config.exchangeUrl ? config.exchangeUrl.replace(/^http/, 'ws') : paper!.wsUrl;

  // Other instances can only be on PostgreSQL: there the bus is NOTIFY/LISTEN and the lead an advisory lock.
  const databaseUrl = database.kind === 'postgres' ? config.databaseUrl : undefined;
  const bus: EventBus = databaseUrl
    ? await PgEventBus.start({ db: database.db, databaseUrl, log })
    : new LocalEventBus();
  const leadership: Leadership = databaseUrl ? new PgLeadership({ databaseUrl, log }) : new SoleLeadership();

  const feed = new MarketFeed(exchangeUrl, exchangeWsUrl, await followedSymbols(exchangeUrl, log), log);
  const secretBox = new SecretBox(master.key);
  const egressIp = new EgressIp(config.exchangeEgressIp);
  egressIp.discover(config.exchangeEgressIpUrl, log);
  // buildApp also starts this instance's live work (instance.ts): every instance relays its feed's prices and
  // every new signal to its own sockets; the first attempt at the lead runs before the feed starts, so a leader's
  // engine gets the start-up candles as a single process's does (and the backfill runs before the server answers).
  const { app, instance } = await buildApp({
    feed,
    db: database.db,
    secretBox,
    staticDir: config.staticDir,
    logger: log,
    exchangeUrl,
    paperExchangeUrl: paper?.url,
    paperExchangeAdminToken: paper?.adminToken,
    trustProxy: config.trustProxy,
    paperAccountsPerDay: config.paperAccountsPerDay,
    pushContact: config.pushContact,
    pushEndpointOrigins: config.pushEndpointOrigins,
    bus,
    leading: false,
    paperExchangeAllowsBrowsers: !!embedded && config.paperExchangeCors,
    egressIp,
    instance: { leadership, box: secretBox, paper, log },
  });
  if (!leadership.leading) log.info('leader: another instance leads; this one follows');
  // Instances behind one egress address pause together after an exchange's 429 or 418 (exchange-pauses.ts).
  const pauses = databaseUrl ? new ExchangePauseSharing(database.db, exchangeBudget, log).start() : undefined;
  await feed.start();

  await app.listen({ port: config.port, host: config.host });
  log.info(`Signaldesk on http://localhost:${config.port}`);

  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    // The lead first: another instance takes it over while this one finishes.
    await instance?.stop();
    await pauses?.stop();
    await feed.close();
    await app.close();
    await bus.close();
    await embedded?.close();
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
