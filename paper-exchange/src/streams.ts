// Websocket streams (reference §9-10): raw /ws/<stream> and combined /stream?streams=a/b (wrapped as
// {stream,data}), the same under /market, /public and /private; SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS,
// SET_PROPERTY/GET_PROPERTY combined; markPrice, aggTrade, kline and bookTicker streams; user data streams
// by listen key with ORDER_TRADE_UPDATE, ACCOUNT_UPDATE, ALGO_UPDATE and listenKeyExpired.
// User data as Binance's production serves it since 2026-04-23 (reference §9, issue 37): only on
// /private/ws (or /private/stream) with the listen key as a query parameter, and only the events `events=` lists
// (a slash-separated list); every other form accepts the connection and delivers nothing. `legacyUserStreams`
// (off by default) serves the old forms with every event, as the demo and testnet hosts still do.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Exchange } from './exchange.js';
import { aggregate, bucketStart } from './market/klines.js';
import type { SymbolTick } from './market/market.js';
import { findSymbol, type SymbolSpec } from './market/symbols.js';
import {
  aggTradeEvent,
  bookTickerEvent,
  klineEvent,
  markPriceEvent,
  normaliseStream,
} from './stream-events.js';

const PREFIXES = ['', '/market', '/public', '/private'];
/** Server ping every 3 minutes (reference §10). */
const PING_INTERVAL_MS = 180_000;

interface Connection {
  socket: WebSocket;
  combined: boolean;
  streams: Set<string>;
  /** Listen key → account id, for the user data streams of this connection. */
  listenKeys: Map<string, number>;
  /** The user data events this connection receives (see the top of the file); 'all' with legacyUserStreams. */
  userEvents: ReadonlySet<string> | 'all';
}

/** Parses `events=` (slash- or comma-separated event names) of a private stream. */
function eventsOf(value: string): Set<string> {
  return new Set(
    value
      .split(/[/,]/)
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

export class StreamHub {
  private readonly connections = new Set<Connection>();
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly exchange: Exchange,
    private readonly options: { legacyUserStreams?: boolean } = {},
  ) {
    exchange.tickListeners.add((ticks) => this.onTicks(ticks));
    exchange.core.userListeners.add((accountId, payload) => this.onUserEvent(accountId, payload));
    exchange.core.tradeListeners.add((trade) =>
      this.publish(`${trade.symbol.toLowerCase()}@aggTrade`, () =>
        aggTradeEvent(trade.symbol, trade, trade.time),
      ),
    );
    exchange.listenKeyListeners.add((key) => this.dropListenKey(key));
    exchange.faults.onDropWebsockets = (apiKey) => this.drop(apiKey);
    this.pinger = setInterval(() => {
      for (const connection of this.connections) connection.socket.ping();
    }, PING_INTERVAL_MS);
    this.pinger.unref();
  }

  register(app: FastifyInstance): void {
    for (const prefix of PREFIXES) {
      for (const path of [`${prefix}/ws`, `${prefix}/ws/*`, `${prefix}/stream`]) {
        app.get(path, { websocket: true }, (socket, request) =>
          this.accept(socket, request, path.endsWith('/stream')),
        );
      }
    }
  }

  close(): void {
    clearInterval(this.pinger);
    for (const connection of this.connections) connection.socket.terminate();
    this.connections.clear();
  }

  private accept(socket: WebSocket, request: FastifyRequest, combined: boolean): void {
    const query = request.query as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    if (this.exchange.faults.refusesWebsockets(undefined)) {
      socket.terminate();
      return;
    }
    const pathPart = request.url.split('?')[0] ?? '';
    const currentForm =
      (pathPart === '/private/ws' || pathPart === '/private/stream') && text(query.listenKey) !== '';
    const userEvents = this.options.legacyUserStreams
      ? 'all'
      : currentForm
        ? eventsOf(text(query.events))
        : new Set<string>();
    const connection: Connection = {
      socket,
      combined,
      streams: new Set(),
      listenKeys: new Map(),
      userEvents,
    };
    const fromPath = pathPart.includes('/ws/') ? pathPart.slice(pathPart.indexOf('/ws/') + 4).split('/') : [];
    const fromQuery = combined ? text(query.streams).split('/') : [];
    const names = [...fromPath, ...fromQuery, text(query.listenKey)].filter(Boolean);
    for (const name of names) {
      if (!this.subscribe(connection, name)) {
        socket.close(1008, `Invalid stream or listen key: ${name.slice(0, 80)}`);
        return;
      }
    }
    this.connections.add(connection);
    socket.on('message', (data) => this.onMessage(connection, data.toString()));
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => this.connections.delete(connection));
  }

  private subscribe(connection: Connection, name: string): boolean {
    const accountId = this.exchange.accounts.listenKeyAccount(name, this.exchange.now());
    if (accountId !== undefined) {
      connection.listenKeys.set(name, accountId);
      return true;
    }
    const normalised = normaliseStream(name);
    if (!normalised) return false;
    connection.streams.add(normalised);
    return true;
  }

  private onMessage(connection: Connection, text: string): void {
    let message: { method?: unknown; params?: unknown; id?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      this.send(connection.socket, { code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' });
      return;
    }
    const id = message.id ?? null;
    const params = Array.isArray(message.params) ? message.params : [];
    switch (message.method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        const names = params.filter((p): p is string => typeof p === 'string');
        if (names.length !== params.length || names.length === 0) {
          this.send(connection.socket, { code: 2, msg: 'Invalid request: stream names must be strings', id });
          return;
        }
        for (const name of names) {
          if (message.method === 'UNSUBSCRIBE') {
            connection.streams.delete(normaliseStream(name) ?? name);
            connection.listenKeys.delete(name);
          } else if (!this.subscribe(connection, name)) {
            this.send(connection.socket, { code: 2, msg: `Invalid request: unknown stream ${name}`, id });
            return;
          }
        }
        this.send(connection.socket, { result: null, id });
        return;
      }
      case 'LIST_SUBSCRIPTIONS':
        this.send(connection.socket, {
          result: [...connection.streams, ...connection.listenKeys.keys()],
          id,
        });
        return;
      case 'SET_PROPERTY':
        if (params[0] !== 'combined' || typeof params[1] !== 'boolean') {
          this.send(connection.socket, { code: 0, msg: 'Unknown property', id });
          return;
        }
        connection.combined = params[1];
        this.send(connection.socket, { result: null, id });
        return;
      case 'GET_PROPERTY':
        if (params[0] !== 'combined') {
          this.send(connection.socket, { code: 0, msg: 'Unknown property', id });
          return;
        }
        this.send(connection.socket, { result: connection.combined, id });
        return;
      default:
        this.send(connection.socket, { code: 2, msg: 'Invalid request: unknown method', id });
    }
  }

  private send(socket: WebSocket, payload: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  }

  private deliver(connection: Connection, stream: string, payload: unknown): void {
    this.send(connection.socket, connection.combined ? { stream, data: payload } : payload);
  }

  /** A user data event, to a connection that asked for it in the form production serves (see the top). */
  private deliverUser(connection: Connection, key: string, payload: Record<string, unknown>): void {
    const wanted = connection.userEvents;
    if (wanted !== 'all' && !wanted.has(String(payload.e))) return;
    this.deliver(connection, key, payload);
  }

  /** Sends a market stream payload to its subscribers; the payload is built once and only if needed. */
  private publish(stream: string, build: () => unknown): void {
    let payload: unknown;
    for (const connection of this.connections) {
      if (!connection.streams.has(stream)) continue;
      payload ??= build();
      this.deliver(connection, stream, payload);
    }
  }

  private onTicks(ticks: SymbolTick[]): void {
    const now = this.exchange.now();
    const everyThird = Math.floor(now / 1000) % 3 === 0;
    for (const tick of ticks) {
      const spec = findSymbol(tick.symbol) as SymbolSpec;
      const base = tick.symbol.toLowerCase();
      const mark = () => markPriceEvent(tick, now);
      this.publish(`${base}@markPrice@1s`, mark);
      if (everyThird) this.publish(`${base}@markPrice`, mark);
      if (tick.trade) this.publish(`${base}@aggTrade`, () => aggTradeEvent(tick.symbol, tick.trade, now));
      this.publish(`${base}@bookTicker`, () => bookTickerEvent(this.exchange, spec, now));
      this.publishKlines(tick, now);
    }
    this.publish('!markPrice@arr@1s', () => ticks.map((tick) => markPriceEvent(tick, now)));
    if (everyThird) this.publish('!markPrice@arr', () => ticks.map((tick) => markPriceEvent(tick, now)));
    for (const { key } of this.exchange.accounts.expireListenKeys(now)) {
      for (const connection of this.connections) {
        if (!connection.listenKeys.delete(key)) continue;
        this.deliverUser(connection, key, { e: 'listenKeyExpired', E: String(now), listenKey: key });
      }
    }
  }

  private publishKlines(tick: SymbolTick, now: number): void {
    const base = tick.symbol.toLowerCase();
    const intervals = new Set<string>();
    for (const connection of this.connections) {
      for (const stream of connection.streams) {
        if (stream.startsWith(`${base}@kline_`)) intervals.add(stream.slice(base.length + 7));
      }
    }
    if (intervals.size === 0) return;
    const market = this.exchange.market;
    for (const interval of intervals) {
      const stream = `${base}@kline_${interval}`;
      for (const closed of tick.closed) {
        const start = bucketStart(interval, closed.openTime);
        if (bucketStart(interval, closed.closeTime + 1) === start) continue;
        const [bucket] = aggregate(interval, market.candlesBetween(tick.symbol, start, closed.openTime));
        if (bucket) this.publish(stream, () => klineEvent(tick.symbol, interval, bucket, true, now));
      }
      const start = bucketStart(interval, now);
      const [current] = aggregate(interval, market.candlesBetween(tick.symbol, start));
      if (current) this.publish(stream, () => klineEvent(tick.symbol, interval, current, false, now));
    }
  }

  private onUserEvent(accountId: number, payload: Record<string, unknown>): void {
    for (const connection of this.connections) {
      for (const [key, owner] of connection.listenKeys) {
        if (owner === accountId) this.deliverUser(connection, key, payload);
      }
    }
  }

  private dropListenKey(key: string): void {
    for (const connection of this.connections)
      if (connection.listenKeys.has(key)) connection.socket.close(1000, 'listenKey closed');
  }

  /** Fault: drop the user streams of one API key, or every connection. */
  private drop(apiKey: string | undefined): void {
    const account = apiKey ? this.exchange.accounts.findByApiKey(apiKey) : undefined;
    for (const connection of this.connections) {
      if (!apiKey || (account && [...connection.listenKeys.values()].includes(account.id)))
        connection.socket.terminate();
    }
  }
}
