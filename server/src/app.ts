// The Fastify application as a whole: API under /api, websocket, OpenAPI document, and the built SPA at /.
// server.ts owns the process (ports, the paper exchange, the database file, signals); tests build this
// with an in-memory database and call it with app.inject.
import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from './db';
import { bitcoinInformation } from './engine/bitcoin-information';
import type { MarketFeed } from './engine/market-feed';
import { TradeMonitor } from './engine/trade-monitor';
import type { WorkerResult, WorkerTask } from './engine/worker-entry';
import { HEAVY_WORKERS, WorkerPool } from './services/worker-pool';
import { authPlugin } from './plugins/auth';
import { dbPlugin } from './plugins/db';
import { loadMasterKey, SecretBox } from './services/secret-box';
import { OneLinePerRequest } from './services/logger';
import { errorsPlugin } from './plugins/errors';
import { openapiPlugin } from './plugins/openapi';
import { originsOf, securityPlugin } from './plugins/security';
import { websocketPlugin, type WebsocketLimits } from './plugins/websocket';
import { accountBalanceRoutes } from './routes/account_balance';
import { analysisRoutes } from './routes/analysis';
import { authRoutes } from './routes/auth';
import { paperExchangeRoutes } from './routes/paper_exchange';
import { DEFAULT_PUSH_CONTACT, PAPER_ACCOUNTS_PER_DAY } from './config';
import { pushRoutes } from './routes/push';
import { loadVapidKeys, WebPush } from './services/web-push';
import { platformRoutes } from './routes/platform';
import { platformPreferencesRoutes } from './routes/platform_preferences';
import { publicRoutes } from './routes/public';
import { signalRoutes } from './routes/signal';
import { symbolRoutes } from './routes/symbol';
import { tradeRoutes } from './routes/trade';
import { tradeClientRoutes } from './routes/trade_client';
import { tradeServerRoutes } from './routes/trade_server';
import { tradePreferencesRoutes } from './routes/trade_preferences';
import { tradeTokenRoutes } from './routes/trade_token';
import { userRoutes } from './routes/user';
import { exchangeRelayRoutes, RELAY_REQUESTS_PER_MINUTE } from './routes/exchange_relay';
import { EgressIp } from './services/egress-ip';
import { LocalEventBus, type EventBus } from './services/event-bus';
import { listBrowserPlatformUrls, seedPlatforms } from './services/platforms';
import { SocketHub } from './services/socket-hub';
import { keepSymbolsSynced } from './services/symbols';
import { TradeDesk } from './services/trade-desk';
import { resealServerEnvelopes } from './services/trade-tokens';
import { announceTradeWrite, onTradeWrite } from './services/trades';
import { startInstance, type Instance, type InstanceOptions } from './instance';
import { exchangeBudget } from './services/exchange-budget';

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker threads of CPU-heavy work (engine/worker-entry.ts). */
    heavyWork: WorkerPool<WorkerTask, WorkerResult>;
  }
}

export interface AppDeps {
  feed: MarketFeed;
  db: Database;
  /** Seals secrets stored in the database; a random key when absent (tests on an in-memory database). */
  secretBox?: SecretBox;
  hub?: SocketHub;
  /** Folder of the built SPA; not served when absent. */
  staticDir?: string;
  logger?: FastifyBaseLogger;
  /** The exchange whose exchangeInfo fills the symbol list (the paper exchange or EXCHANGE_URL). */
  exchangeUrl?: string;
  /** Base URL of the embedded paper exchange; without one the paper platform is hidden. */
  paperExchangeUrl?: string;
  /** Milliseconds since the epoch, for every token expiry; tests move it. */
  clock?: () => number;
  /** The trade monitor; built from feed, db and hub when absent (it follows the feed's mark prices). */
  tradeMonitor?: TradeMonitor;
  /** The other instances on the same PostgreSQL (services/event-bus.ts); absent: this process is alone. */
  bus?: EventBus;
  /** Whether the monitor built here starts as the leader's (docs/server.md "Several instances"); default true. */
  leading?: boolean;
  /**
   * The embedded paper exchange answers browsers (its CORS flag, PAPER_EXCHANGE_CORS): the paper platform is
   * then marked as allowing browsers and client mode calls it directly instead of through the relay.
   */
  paperExchangeAllowsBrowsers?: boolean;
  /** The address exchanges see our requests come from (services/egress-ip.ts); unknown when absent. */
  egressIp?: EgressIp;
  /** Paper accounts a trader may create in 24 h; default PAPER_ACCOUNTS_PER_DAY (server/src/config.ts). */
  paperAccountsPerDay?: number;
  /** Relayed exchange requests a trader may make a minute; default RELAY_REQUESTS_PER_MINUTE. */
  relayRequestsPerMinute?: number;
  /** Which proxies' X-Forwarded-* headers to believe (TRUST_PROXY, server/src/config.ts); default none. */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Request and connection time limits; tests shorten them. */
  timeouts?: Partial<typeof HTTP_TIMEOUTS>;
  /** The admin token of the paper exchange at paperExchangeUrl ('Create paper account'). */
  paperExchangeAdminToken?: string;
  /** Sockets per trader and frames per second (plugins/websocket.ts); benchmarks raise them. */
  websocketLimits?: Partial<WebsocketLimits>;
  /** The VAPID subject (SIGNALDESK_PUSH_CONTACT); default DEFAULT_PUSH_CONTACT. */
  pushContact?: string;
  /** Push service origins accepted besides the known ones (PUSH_ENDPOINT_ORIGINS; tests' endpoints). */
  pushEndpointOrigins?: string[];
  /** The live work of a process (server.ts; instance.ts): the price relay, the signals and the lead. */
  instance?: InstanceOptions;
}

/**
 * A request must arrive whole (headers and body) within requestMs, its headers within headersMs; a socket
 * idle for connectionMs is closed. A client that dribbles its body is cut off with 408 instead of holding a
 * connection for ever. Node checks running requests every checkIntervalMs.
 */
export const HTTP_TIMEOUTS = {
  requestMs: 30_000,
  headersMs: 10_000,
  connectionMs: 60_000,
  checkIntervalMs: 1_000,
};

export async function buildApp(deps: AppDeps) {
  const hub = deps.hub ?? new SocketHub(deps.bus);
  const timeouts = { ...HTTP_TIMEOUTS, ...deps.timeouts };
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new OneLinePerRequest(),
    bodyLimit: 256 * 1024,
    trustProxy: deps.trustProxy ?? false,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.connectionMs,
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    // Errors of the router itself (a bad percent escape, an over-long parameter) as { detail } too.
    frameworkErrors: (error, _request, reply) => {
      void reply.code((error.statusCode ?? 400) as never).send({ detail: error.message } as never);
    },
  }).withTypeProvider<ZodTypeProvider>();
  // The exchange budget of our address says in this app's log when an exchange makes it pause.
  exchangeBudget.log = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  await app.register(openapiPlugin);
  await app.register(dbPlugin, {
    db: deps.db,
    secretBox: deps.secretBox ?? new SecretBox(loadMasterKey({})),
  });
  await app.register(fastifyCookie);
  await app.register(authPlugin, { clock: deps.clock });

  await seedPlatforms(deps.db, {
    paperExchangeUrl: deps.paperExchangeUrl,
    paperExchangeAllowsBrowsers: deps.paperExchangeAllowsBrowsers,
  });
  // Client mode calls from the page only the exchanges that allow browsers (the others go through the relay,
  // our own origin): the CSP allows exactly those origins.
  await app.register(securityPlugin, { connectOrigins: originsOf(await listBrowserPlatformUrls(deps.db)) });
  // Envelopes stored before the server-mode layer existed get it now (services/trade-tokens.ts).
  await resealServerEnvelopes(deps.db, app.secretBox, app.log);
  if (deps.exchangeUrl) {
    const sync = keepSymbolsSynced(deps.db, deps.exchangeUrl, app.log);
    app.addHook('onClose', async () => sync.stop());
    await sync.firstAttempt;
  }

  // Open trades are loaded from the database and follow the feed's prices (engine/trade-monitor.ts).
  const monitor =
    deps.tradeMonitor ??
    new TradeMonitor({
      db: deps.db,
      hub,
      feed: deps.feed,
      log: app.log,
      clock: app.clock,
      bus: deps.bus,
      leading: deps.leading,
    });
  await monitor.start();
  if (deps.bus) relayTradeWrites(app, deps.db, deps.bus);
  // Web Push (issue 41): the VAPID keys made at the first start, shared through the database, sealed.
  const webPush = new WebPush({
    db: deps.db,
    keys: await loadVapidKeys(deps.db, app.secretBox, app.log),
    subject: deps.pushContact ?? DEFAULT_PUSH_CONTACT,
    extraOrigins: deps.pushEndpointOrigins,
    log: app.log,
    clock: app.clock,
  });
  app.decorate('webPush', webPush);
  const tradeDesk = new TradeDesk({
    db: deps.db,
    hub,
    monitor,
    log: app.log,
    clock: app.clock,
    push: webPush,
  });
  app.decorate('tradeDesk', tradeDesk);
  // The worker threads of the CPU-heavy work (the what-if replay, the analysis's lag scan): one pool for both.
  const heavyWork = new WorkerPool<WorkerTask, WorkerResult>(
    new URL('./engine/worker-entry.ts', import.meta.url),
    HEAVY_WORKERS,
  );
  app.decorate('heavyWork', heavyWork);
  app.addHook('onClose', () => heavyWork.close());
  if (deps.bus) {
    // Trade writes of other instances announced while the bus was down are lost: forget every cached list.
    const stop = deps.bus.onResume(() => tradeDesk.openTrades.invalidateAll());
    app.addHook('onClose', async () => stop());
  }
  app.addHook('onClose', async () => {
    await tradeDesk.idle();
    await monitor.close();
    await webPush.idle();
  });

  await app.register(websocketPlugin, {
    hub,
    limits: deps.websocketLimits,
    greeting: () => {
      const info = bitcoinInformation(deps.feed);
      return info
        ? [{ event: 'bitcoin_public_information_from_core', message: { bitcoin_public_information: info } }]
        : [];
    },
    consumeToken: (token) => app.sessions.consumeWebsocketToken(token),
    // The trade's live fields, only to its owner; another user's or an unknown trade is not answered.
    onClientEvent: (event, userUuid, reply) => {
      const { trade_uuid } = event.message;
      const calculated = monitor.calculatedFor(userUuid, trade_uuid);
      if (calculated) {
        reply({
          event: 'trade_updated_response_from_core',
          message: { trade_uuid, trade_update_calculated: calculated },
        });
      }
    },
  });
  await app.register(
    async (api) => {
      await api.register(publicRoutes, { prefix: '/public', feed: deps.feed });
      await api.register(signalRoutes, { prefix: '/signal', feed: deps.feed });
      await api.register(userRoutes, { prefix: '/user' });
      await api.register(authRoutes, { prefix: '/auth', hub });
      await api.register(platformRoutes, { prefix: '/platform' });
      await api.register(symbolRoutes, { prefix: '/symbol', feed: deps.feed });
      await api.register(platformPreferencesRoutes, { prefix: '/platform_preferences' });
      await api.register(tradePreferencesRoutes, { prefix: '/trade_preferences' });
      await api.register(tradeTokenRoutes, { prefix: '/trade_token' });
      await api.register(accountBalanceRoutes, { prefix: '/account_balance' });
      await api.register(tradeRoutes, { prefix: '/trade', feed: deps.feed });
      await api.register(tradeClientRoutes, { prefix: '/trade_client' });
      await api.register(tradeServerRoutes, { prefix: '/trade_server' });
      await api.register(exchangeRelayRoutes, {
        prefix: '/exchange_relay',
        egressIp: deps.egressIp ?? new EgressIp(undefined),
        requestsPerMinute: deps.relayRequestsPerMinute ?? RELAY_REQUESTS_PER_MINUTE,
      });
      await api.register(pushRoutes, { prefix: '/push' });
      await api.register(analysisRoutes, { prefix: '/analysis', feed: deps.feed });
      await api.register(paperExchangeRoutes, {
        prefix: '/paper_exchange',
        paperExchangeUrl: deps.paperExchangeUrl,
        adminToken: deps.paperExchangeAdminToken,
        accountsPerDay: deps.paperAccountsPerDay ?? PAPER_ACCOUNTS_PER_DAY,
      });
    },
    { prefix: '/api' },
  );

  const servesSpa = !!deps.staticDir && fs.existsSync(path.join(deps.staticDir, 'index.html'));
  if (servesSpa) await app.register(fastifyStatic, { root: deps.staticDir!, wildcard: false });
  // Client-side routes (/trading, /about …) get the SPA; /api and files that do not exist get 404.
  app.setNotFoundHandler((request, reply) => {
    const path_ = request.url.split('?')[0] ?? '';
    const wantsPage =
      servesSpa && request.method === 'GET' && !path_.startsWith('/api') && !path.extname(path_);
    if (wantsPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ detail: `Not found: ${request.url}` });
  });
  // Last: a leader's first duties call the app (the house account), which makes it ready.
  const instance: Instance | undefined = deps.instance
    ? await startInstance(
        { app, db: deps.db, feed: deps.feed, hub, bus: deps.bus ?? new LocalEventBus(), monitor },
        deps.instance,
      )
    : undefined;
  return { app, hub, monitor, instance };
}

/** Bus topic of trade writes: `{ user_uuid }` whose trades an instance wrote (their cached lists go stale). */
const TRADE_WRITES_TOPIC = 'trade_writes';

/** The trade writes of this instance to the others, and theirs to this one's listeners (services/trades.ts). */
function relayTradeWrites(app: FastifyInstance, db: Database, bus: EventBus): void {
  let relaying = false;
  const stopOut = onTradeWrite(db, (userUuid) => {
    if (!relaying) bus.publish(TRADE_WRITES_TOPIC, { user_uuid: userUuid });
  });
  const stopIn = bus.subscribe(TRADE_WRITES_TOPIC, (payload) => {
    const userUuid = (payload as { user_uuid?: unknown } | null)?.user_uuid;
    if (typeof userUuid !== 'string') return;
    relaying = true;
    try {
      announceTradeWrite(db, userUuid);
    } finally {
      relaying = false;
    }
  });
  app.addHook('onClose', async () => {
    stopOut();
    stopIn();
  });
}
