// The event bus between server instances that share one PostgreSQL (DESIGN.md "Scale"; docs/server.md
// "Several instances"). A component hands a JSON payload under a topic to the *other* instances, and handles
// what they hand over: the socket hub (websocket events for sockets connected elsewhere), the trade monitor
// (trades opened, closed or re-flagged elsewhere), the signal delivery and the open-trades cache. What an
// instance does itself it does directly; the bus never calls back into its own sender.
// - LocalEventBus (PGlite, one process): nobody else to tell, so publish does nothing.
// - PgEventBus: NOTIFY on one channel, LISTEN on a dedicated connection that reconnects. Messages of one
//   instance are sent one after the other, so the others receive them in the order they were published.
//   Several queued messages travel in one notification; a message longer than a notification may be (8000
//   bytes) is cut into numbered parts that the receivers put together again. Delivery is best effort: what is
//   published while the database is unreachable, or while a listener is reconnecting, is lost, and the
//   listener's resume hook tells its owners to read the state again from the database.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../db';

export type BusHandler = (payload: unknown) => void;

export interface EventBus {
  /** This process; a notification carries it, so an instance skips its own. */
  readonly instanceId: string;
  /** Hands `payload` (anything JSON.stringify keeps) to the subscribers of `topic` on the other instances. */
  publish(topic: string, payload: unknown): void;
  /** Handles the payloads the other instances publish under `topic`; answers the function that stops it. */
  subscribe(topic: string, handler: BusHandler): () => void;
  /** Called after the bus was disconnected and is back: messages of the other instances may have been lost. */
  onResume(listener: () => void): () => void;
  close(): Promise<void>;
}

class Subscribers {
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private readonly resumeListeners = new Set<() => void>();

  constructor(private readonly log: BusLog) {}

  subscribe(topic: string, handler: BusHandler): () => void {
    const own = this.handlers.get(topic) ?? new Set<BusHandler>();
    own.add(handler);
    this.handlers.set(topic, own);
    return () => own.delete(handler);
  }

  onResume(listener: () => void): () => void {
    this.resumeListeners.add(listener);
    return () => this.resumeListeners.delete(listener);
  }

  dispatch(topic: string, payload: unknown): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.log.warn({ err: error, topic }, 'bus: a handler failed');
      }
    }
  }

  resumed(): void {
    for (const listener of this.resumeListeners) {
      try {
        listener();
      } catch (error) {
        this.log.warn({ err: error }, 'bus: a resume listener failed');
      }
    }
  }
}

export interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** One process, no one else: publishing does nothing (PGlite). */
export class LocalEventBus implements EventBus {
  readonly instanceId = randomUUID();
  private readonly subscribers = new Subscribers({ info: () => undefined, warn: () => undefined });

  publish(_topic: string, _payload: unknown): void {}

  subscribe(topic: string, handler: BusHandler): () => void {
    return this.subscribers.subscribe(topic, handler);
  }

  onResume(listener: () => void): () => void {
    return this.subscribers.onResume(listener);
  }

  async close(): Promise<void> {}
}

/** The NOTIFY channel; NOTIFY is per database, so deployments on other databases of one server stay apart. */
const BUS_CHANNEL = 'signaldesk_events';
/** PostgreSQL refuses payloads of 8000 bytes or more (default build); this leaves room for the header. */
export const NOTIFY_MAX_BYTES = 7900;
const HEADER_MAX_BYTES = 80;
const DATA_MAX_BYTES = NOTIFY_MAX_BYTES - HEADER_MAX_BYTES;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;
/** The listening connection is asked a trivial query this often, so a dead one is noticed and replaced. */
const LISTEN_CHECK_MS = 30_000;
const LISTEN_CHECK_TIMEOUT_MS = 10_000;
/** Messages waiting to be sent at most; beyond, the oldest is dropped. */
const OUTBOX_MAX = 10_000;
/** Parts of a cut message that do not come together within this time are dropped. */
const PARTS_TTL_MS = 60_000;

export interface PgEventBusOptions {
  /** The database: NOTIFY runs through its pool. */
  db: Database;
  /** The same database's URL, for the dedicated LISTEN connection. */
  databaseUrl: string;
  log: BusLog;
  channel?: string;
}

interface Parts {
  received: Map<number, string>;
  count: number;
  since: number;
}

/**
 * Cuts `text` into pieces of at most `maxBytes` UTF-8 bytes, never inside a surrogate pair (a piece is a
 * whole string of its own).
 */
export function cutUtf8(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxBytes);
    while (Buffer.byteLength(text.slice(start, end)) > maxBytes) {
      end = start + Math.max(1, Math.floor((end - start) * 0.9));
    }
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff && end - start > 1) end -= 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

export class PgEventBus implements EventBus {
  readonly instanceId = randomUUID();
  private readonly subscribers: Subscribers;
  private readonly channel: string;
  /** Messages waiting to be sent, each already `{"t":topic,"p":payload}`. */
  private outbox: string[] = [];
  private sending = false;
  private drained: Promise<void> = Promise.resolve();
  private sequence = 0;
  private readonly parts = new Map<string, Parts>();
  private listener: pg.Client | undefined;
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(private readonly options: PgEventBusOptions) {
    this.subscribers = new Subscribers(options.log);
    this.channel = options.channel ?? BUS_CHANNEL;
  }

  /** A bus that listens already (a failing first connection is an error: the database is not reachable). */
  static async start(options: PgEventBusOptions): Promise<PgEventBus> {
    const bus = new PgEventBus(options);
    await bus.listen();
    bus.checkTimer = setInterval(() => void bus.checkListener(), LISTEN_CHECK_MS).unref();
    return bus;
  }

  publish(topic: string, payload: unknown): void {
    if (this.closed) return;
    if (this.outbox.length >= OUTBOX_MAX) {
      // The database does not take them as fast as they come: the oldest are the least useful.
      this.outbox.shift();
      this.options.log.warn({}, 'bus: too many events waiting to be sent; the oldest was dropped');
    }
    this.outbox.push(JSON.stringify({ t: topic, p: payload }));
    if (!this.sending) this.drained = this.drain();
  }

  subscribe(topic: string, handler: BusHandler): () => void {
    return this.subscribers.subscribe(topic, handler);
  }

  onResume(listener: () => void): () => void {
    return this.subscribers.onResume(listener);
  }

  /** Resolves when every message published so far was handed to the database (or given up). */
  flushed(): Promise<void> {
    return this.drained;
  }

  async close(): Promise<void> {
    await this.drained;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.checkTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  /** Sends the outbox: as many messages as fit in one notification, one notification after the other. */
  private async drain(): Promise<void> {
    this.sending = true;
    try {
      while (this.outbox.length > 0) {
        const batch: string[] = [];
        let bytes = 2;
        while (this.outbox.length > 0) {
          const size = Buffer.byteLength(this.outbox[0]!) + 1;
          if (batch.length > 0 && bytes + size > DATA_MAX_BYTES) break;
          batch.push(this.outbox.shift()!);
          bytes += size;
        }
        await this.send(`[${batch.join(',')}]`);
      }
    } finally {
      this.sending = false;
    }
  }

  private async send(text: string): Promise<void> {
    this.sequence += 1;
    const pieces = cutUtf8(text, DATA_MAX_BYTES);
    try {
      for (const [index, piece] of pieces.entries()) {
        // "<instance> <message> <part> <parts> <data>": the data is the rest, sent as it is (no escaping).
        const notification = `${this.instanceId} ${this.sequence} ${index} ${pieces.length} ${piece}`;
        await this.options.db.execute(sql`select pg_notify(${this.channel}, ${notification})`);
      }
    } catch (error) {
      // Never the payload in the log: only that the event was lost.
      this.options.log.warn(
        { message: error instanceof Error ? error.message.split('\n')[0] : String(error) },
        'bus: an event could not be sent to the other instances',
      );
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      keepAlive: true,
      // A check that hangs (the network, not the database, is gone) counts as a lost connection.
      query_timeout: LISTEN_CHECK_TIMEOUT_MS,
      application_name: `signaldesk-bus pid=${process.pid}`,
    });
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.receive(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.listener = client;
    this.reconnectDelayMs = RECONNECT_MIN_MS;
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.listener !== client || this.closed) return;
    this.listener = undefined;
    this.parts.clear();
    void client.end().catch(() => undefined);
    this.options.log.warn(
      { message: error?.message },
      'bus: the listening connection was lost; reconnecting (events of other instances are missed meanwhile)',
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.reconnect(), this.reconnectDelayMs);
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
  }

  private async reconnect(): Promise<void> {
    if (this.closed || this.listener) return;
    try {
      await this.listen();
    } catch (error) {
      this.options.log.warn({ message: (error as Error).message }, 'bus: reconnecting failed');
      this.scheduleReconnect();
      return;
    }
    this.options.log.info({}, 'bus: listening again');
    this.subscribers.resumed();
  }

  private async checkListener(): Promise<void> {
    const client = this.listener;
    if (!client) return;
    try {
      await client.query('select 1');
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private receive(notification: string): void {
    const header = /^(\S+) (\d+) (\d+) (\d+) /.exec(notification);
    if (!header) return;
    const [whole, origin, sequence, index, count] = header as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    if (origin === this.instanceId) return;
    const data = notification.slice(whole.length);
    const total = Number(count);
    if (total === 1) {
      this.deliver(data);
      return;
    }
    const key = `${origin} ${sequence}`;
    const now = Date.now();
    for (const [other, parts] of this.parts) {
      if (now - parts.since > PARTS_TTL_MS) this.parts.delete(other);
    }
    const parts = this.parts.get(key) ?? { received: new Map<number, string>(), count: total, since: now };
    parts.received.set(Number(index), data);
    this.parts.set(key, parts);
    if (parts.received.size < parts.count) return;
    this.parts.delete(key);
    const text = Array.from({ length: parts.count }, (_, i) => parts.received.get(i) ?? '').join('');
    this.deliver(text);
  }

  private deliver(text: string): void {
    let messages: unknown;
    try {
      messages = JSON.parse(text);
    } catch {
      this.options.log.warn({}, 'bus: a malformed notification was skipped');
      return;
    }
    if (!Array.isArray(messages)) return;
    for (const message of messages as { t?: unknown; p?: unknown }[]) {
      if (typeof message?.t === 'string') this.subscribers.dispatch(message.t, message.p);
    }
  }
}
