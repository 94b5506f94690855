// Builds the paper exchange's Fastify app: raw bodies, the Binance routes, websocket streams, the
// loopback-only admin API, and the market clock that advances the mark prices every tickMs. Like Binance, it
// sends no CORS headers: a page on another origin cannot call it. The `cors` option is a developer's
// convenience (the SPA calling the exchange straight from the page, preflight with X-MBX-APIKEY), off by
// default and never for /admin.
import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { registerAdmin } from './admin.js';
import { Exchange, type ExchangeOptions } from './exchange.js';
import { installErrorHandlers, keepRawBodies, registerRoutes } from './http.js';
import { accountRoutes } from './routes/account-routes.js';
import { marketRoutes } from './routes/market-routes.js';
import { tradeRoutes } from './routes/trade-routes.js';
import { StreamHub } from './streams.js';

export interface PaperExchangeOptions extends ExchangeOptions {
  /** Market clock period: marks advance and triggers run every tickMs (default 1000). */
  tickMs?: number;
  logger?: boolean;
  /** Answer browser origins (CORS) on the Binance routes; Binance does not, so off by default. */
  cors?: boolean;
  /**
   * Serve user data on the old stream forms (/ws/<listenKey>, no `events=`), as Binance's demo and testnet
   * hosts do; production delivers nothing there since 2026-04-23, so off by default (streams.ts).
   */
  legacyUserStreams?: boolean;
}

export interface PaperExchangeApp {
  app: FastifyInstance;
  exchange: Exchange;
  hub: StreamHub;
  /** Starts the market clock (started by startPaperExchange; tests of the app alone may leave it off). */
  startClock(): void;
  close(): Promise<void>;
}

const EXPOSED_HEADERS = [
  'X-MBX-USED-WEIGHT-1M',
  'X-MBX-USED-WEIGHT',
  'X-MBX-ORDER-COUNT-10S',
  'X-MBX-ORDER-COUNT-1M',
  'Retry-After',
];

export async function buildPaperExchange(options: PaperExchangeOptions = {}): Promise<PaperExchangeApp> {
  const exchange = new Exchange(options);
  const held = new Set<Socket>();
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true, bodyLimit: 1_048_576 });
  if (options.cors) {
    const browsers = {
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['X-MBX-APIKEY', 'Content-Type'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    };
    await app.register(cors, {
      // The admin API answers no browser: no CORS headers there, whatever the origin.
      delegator: (request, callback) =>
        callback(null, { ...browsers, origin: !(request.url ?? '').startsWith('/admin') }),
    });
  }
  await app.register(websocket);
  keepRawBodies(app);
  installErrorHandlers(app);
  registerRoutes(app, exchange, [...marketRoutes, ...tradeRoutes, ...accountRoutes], held);
  registerAdmin(app, exchange);
  const hub = new StreamHub(exchange, { legacyUserStreams: options.legacyUserStreams });
  hub.register(app);

  let clock: NodeJS.Timeout | undefined;
  const tickMs = options.tickMs ?? 1000;
  return {
    app,
    exchange,
    hub,
    startClock() {
      if (clock) return;
      clock = setInterval(() => {
        try {
          exchange.tick();
        } catch (error) {
          app.log.error({ err: error }, 'market tick failed');
        }
      }, tickMs);
    },
    async close() {
      if (clock) clearInterval(clock);
      for (const socket of held) socket.destroy();
      hub.close();
      await app.close();
      exchange.close();
    },
  };
}
