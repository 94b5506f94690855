// The followed accounts' user data streams (issue 37; docs/server.md "The account followed"): one stream per
// (platform, API key) with an open trade, or one closed less than LINGER_MS ago — every server-mode trade, and
// the client-mode ones whose trader lets the server follow the account (trade_preferences.trade_follow_when_away,
// on by default). A trade written in this process is looked at at once; one written on another instance within
// REFRESH_MS. The leader holds them all (engine/leader-duties.ts): when it stops, the next leader opens them again
// from the database, with no PIN.
// Per stream (binance-fapi.md §9): POST /fapi/v1/listenKey with the API key only (no signature), connect to the
// platform's user_stream_url (production: /private/ws?listenKey=…&events=…), PUT the key every
// KEEPALIVE_MS, renew the connection before the exchange's 24 h cut (the new one opens before the old one
// closes), reconnect with backoff when it drops, and open a new key on listenKeyExpired. A ping every
// PING_MS finds a connection that died without a close. Events go to services/account-events.ts.
import { and, eq, exists, gt, ne, or, sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { TradeStatus } from '../../../contracts';
import type { Database } from '../db';
import { followedAccounts, platforms, tradePreferences } from '../db/schema';
import { trades } from '../db/schema-trades';
import { AccountEvents, type AccountEventsOptions } from './account-events';
import { budgetedFetch } from './exchange-transport';
import { followedApiKey, type FollowedAccountRow } from './followed-accounts';
import { HOUSE_USER_UUID } from './house';
import { onTradeWrite } from './trades';
import type { SecretBox } from './secret-box';

/** The events the stream asks for (production sends only what `events=` lists). */
export const USER_STREAM_EVENTS = ['ORDER_TRADE_UPDATE', 'ACCOUNT_UPDATE', 'ALGO_UPDATE', 'listenKeyExpired'];
/** A listen key lives 60 min without a keepalive; PUT within 30–50 min. */
const KEEPALIVE_MS = 40 * 60_000;
/** The exchange ends a connection after 24 h; a new one is opened before. */
const RENEW_MS = 23 * 60 * 60_000;
const PING_MS = 60_000;
/** A listen-key call not answered in this time failed (the stream tries again with its backoff). */
const LISTEN_KEY_TIMEOUT_MS = 10_000;
const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;
/** How often the wanted streams are read again (an open on another instance is seen within this). */
const REFRESH_MS = 2_000;
/**
 * A stream stays this long after the account's last trade closed: the next trade (often within minutes) finds
 * it connected, instead of waiting for a connection while its exits may already fill.
 */
export const LINGER_MS = 30 * 60_000;

export interface AccountStreamsOptions {
  db: Database;
  box: SecretBox;
  desk: AccountEventsOptions['desk'];
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  refreshMs?: number;
  onClose?: AccountEventsOptions['onClose'];
  onStopLost?: AccountEventsOptions['onStopLost'];
  /**
   * The exchange refused the account's API key (a 4xx to the listen-key call, such as -2015: the key was deleted,
   * lost its permission or does not allow our address): told once until the stream connects again (issue 41
   * pushes it to the trader, who is away and whose closes are no longer followed).
   */
  onRefused?: (
    account: { user_uuid: string; platform_uuid: string },
    code: number | undefined,
    reason: string,
  ) => void;
}

/** A listen-key call answered with something other than a 2xx (the status, and the exchange's code if any). */
class ListenKeyError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | undefined,
    readonly reason: string,
  ) {
    super(message);
  }

  /** The exchange refused the key itself: a 4xx that is not a rate limit of our address. */
  get refusesKey(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429 && this.status !== 418;
  }
}

interface Wanted {
  user_uuid: string;
  platform_uuid: string;
  key_digest: string;
  api_key: string;
  base_url: string;
  user_stream_url: string;
}

/** A wanted stream as read, its API key still sealed. */
type WantedRow = Omit<Wanted, 'api_key'> & { account: FollowedAccountRow };

/** The streams of the followed accounts with an open trade, while this instance holds them. */
export class AccountStreams {
  private readonly streams = new Map<string, AccountStream>();
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: AccountStreamsOptions) {}

  async start(): Promise<void> {
    this.closed = false;
    // A trade written in this process (opened, recorded) is looked at at once, not at the next poll.
    this.stopListening = onTradeWrite(this.options.db, (userUuid) => {
      this.refreshSoon();
      // An exit that filled before its trade was recorded (client mode) is recorded now.
      for (const stream of this.streams.values()) {
        if (stream.account.user_uuid === userUuid) void stream.events.retryUnmatched();
      }
    });
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs ?? REFRESH_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.stopListening?.();
    await this.refreshing;
    for (const stream of this.streams.values()) stream.stop();
    this.streams.clear();
  }

  /** Reads the wanted streams now and starts or stops streams to match (one refresh at a time). */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing
      .then(() => this.match())
      .catch((error: unknown) => {
        this.options.log.warn({ message: (error as Error).message }, 'account streams: refresh failed');
      });
    return this.refreshing;
  }

  private refreshSoon(): void {
    if (this.soon || this.closed) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.refresh();
    }, 20);
    this.soon.unref();
  }

  /** The stream of a user's account on a platform is connected (tests and the bench wait for it). */
  connected(userUuid: string, platformUuid: string): boolean {
    for (const stream of this.streams.values()) {
      if (stream.account.user_uuid === userUuid && stream.account.platform_uuid === platformUuid)
        return stream.isConnected();
    }
    return false;
  }

  /** Resolves when every stream has recorded what it was handed. */
  async idle(): Promise<void> {
    await Promise.all([...this.streams.values()].map((stream) => stream.events.idle()));
  }

  private async match(): Promise<void> {
    if (this.closed) return;
    const wanted = new Map(
      (await this.wanted()).map((row) => [`${row.platform_uuid}:${row.key_digest}`, row]),
    );
    for (const [key, stream] of this.streams) {
      const still = wanted.get(key);
      if (!still || still.user_stream_url !== stream.account.user_stream_url) {
        stream.stop();
        this.streams.delete(key);
      }
    }
    // A trade recorded on another instance is seen here only now: early exit fills are tried again.
    for (const stream of this.streams.values()) void stream.events.retryUnmatched();
    for (const [key, row] of wanted) {
      if (this.streams.has(key) || this.closed) continue;
      // Opened only to start a stream: the running ones are not unsealed again at every look.
      let api_key: string;
      try {
        api_key = followedApiKey(this.options.box, row.account);
      } catch {
        this.options.log.warn(
          { platform_uuid: row.platform_uuid },
          'account streams: a stored API key does not open',
        );
        continue;
      }
      const { account: _sealed, ...account } = { ...row, api_key };
      const stream = new AccountStream(account, this.options);
      this.streams.set(key, stream);
      stream.start();
    }
  }

  private async wanted(): Promise<WantedRow[]> {
    const { db } = this.options;
    const rows = await db
      .select({
        account: followedAccounts,
        base_url: platforms.base_url,
        user_stream_url: platforms.user_stream_url,
      })
      .from(followedAccounts)
      .innerJoin(platforms, eq(platforms.platform_uuid, followedAccounts.platform_uuid))
      .leftJoin(tradePreferences, eq(tradePreferences.user_uuid, followedAccounts.user_uuid))
      .where(
        and(
          eq(platforms.enabled, true),
          ne(platforms.user_stream_url, ''),
          // The house records its own trades (engine/house-follower.ts), and it trades every signal: following it
          // would spend the process's event loop and database on every house fill for nobody away.
          ne(followedAccounts.user_uuid, HOUSE_USER_UUID),
          exists(
            db
              .select({ one: sql`1` })
              .from(trades)
              .where(
                and(
                  eq(trades.user_uuid, followedAccounts.user_uuid),
                  eq(trades.platform_uuid, followedAccounts.platform_uuid),
                  or(
                    eq(trades.trade_status, TradeStatus.OPEN),
                    gt(trades.trade_close_timestamp, new Date(Date.now() - LINGER_MS)),
                  ),
                  // Client mode while the trader lets the server follow (the default, issue 37).
                  or(
                    eq(trades.trade_in_server_side, 1),
                    sql`coalesce(${tradePreferences.trade_follow_when_away}, 1) = 1`,
                  ),
                ),
              ),
          ),
        ),
      );
    return rows.map(({ account, base_url, user_stream_url }) => ({
      user_uuid: account.user_uuid,
      platform_uuid: account.platform_uuid,
      key_digest: account.key_digest,
      base_url,
      user_stream_url,
      account,
    }));
  }
}

/** One account's stream: listen key, connection, keepalive, renewal and reconnection. */
class AccountStream {
  readonly events: AccountEvents;
  private socket: WebSocket | undefined;
  private listenKey: string | undefined;
  private stopped = false;
  private backoffMs = BACKOFF_MIN_MS;
  private readonly timers = new Set<NodeJS.Timeout>();
  private keepalive: NodeJS.Timeout | undefined;
  /** A refusal of the key was told (options.onRefused); reset when the stream connects. */
  private refusalTold = false;

  constructor(
    readonly account: Wanted,
    private readonly options: AccountStreamsOptions,
  ) {
    this.events = new AccountEvents(account, options);
  }

  isConnected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    void this.connect();
    this.keepalive = setInterval(() => void this.extend(), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.keepalive);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.events.close();
    this.socket?.terminate();
    this.socket = undefined;
  }

  private later(ms: number, task: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Opens a connection with a fresh (or extended) listen key; the old connection closes once it is open. */
  private async connect(): Promise<void> {
    if (this.stopped) return;
    let key: string;
    try {
      key = await this.openListenKey();
    } catch (error) {
      if (error instanceof ListenKeyError && error.refusesKey && !this.refusalTold) {
        this.refusalTold = true;
        this.options.onRefused?.(this.account, error.code, error.reason);
      }
      this.retry((error as Error).message);
      return;
    }
    if (this.stopped) return;
    this.listenKey = key;
    const url = this.account.user_stream_url
      .replace('{listenKey}', encodeURIComponent(key))
      .replace('{events}', USER_STREAM_EVENTS.join('/'));
    const socket = new WebSocket(url);
    let alive = true;
    const ping = setInterval(() => {
      if (!alive) {
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, PING_MS);
    ping.unref();
    socket.on('pong', () => (alive = true));
    socket.on('ping', () => (alive = true));
    socket.on('open', () => {
      const previous = this.socket;
      this.socket = socket;
      previous?.terminate();
      this.backoffMs = BACKOFF_MIN_MS;
      this.refusalTold = false;
      this.later(RENEW_MS, () => void this.connect());
      if (!previous) {
        this.options.log.info(
          { platform_uuid: this.account.platform_uuid, user_uuid: this.account.user_uuid },
          'account stream: following the account',
        );
      }
    });
    socket.on('message', (data) => {
      alive = true;
      this.onMessage(socket, data.toString());
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(ping);
      // Only the current connection's end calls for a new one (a renewed one's predecessor ends on purpose).
      if (this.socket === socket || this.socket === undefined) {
        this.socket = undefined;
        this.retry('the connection closed');
      }
    });
  }

  private onMessage(socket: WebSocket, raw: string): void {
    let event: Record<string, unknown>;
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      // A combined stream wraps each payload as {stream, data}.
      event = (parsed.data && typeof parsed.data === 'object' ? parsed.data : parsed) as Record<
        string,
        unknown
      >;
    } catch {
      return;
    }
    if (event.e === 'listenKeyExpired') {
      if (this.socket === socket) {
        this.socket = undefined;
        socket.terminate();
        void this.connect();
      }
      return;
    }
    void this.events.handle(event);
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
    this.options.log.warn(
      { platform_uuid: this.account.platform_uuid, message: reason, retry_ms: wait },
      'account stream: reconnecting',
    );
    this.later(wait, () => void this.connect());
  }

  private async openListenKey(): Promise<string> {
    const answer = await this.listenKeyCall('POST');
    const key = (answer as { listenKey?: unknown }).listenKey;
    if (typeof key !== 'string' || key === '') throw new Error('the exchange answered no listen key');
    return key;
  }

  /** PUT: the key lives 60 more minutes; a key the exchange no longer knows gets a new connection. */
  private async extend(): Promise<void> {
    if (this.stopped || !this.listenKey) return;
    try {
      await this.listenKeyCall('PUT');
    } catch (error) {
      this.options.log.warn(
        { platform_uuid: this.account.platform_uuid, message: (error as Error).message },
        'account stream: the listen key could not be extended; opening a new one',
      );
      void this.connect();
    }
  }

  /** USER_STREAM security: the API key header only, no signature (binance-fapi.md §9). Only a 2xx counts. */
  private async listenKeyCall(method: 'POST' | 'PUT'): Promise<unknown> {
    const url = `${this.account.base_url.replace(/\/+$/, '')}/fapi/v1/listenKey`;
    const response = await budgetedFetch(
      url,
      // An exchange that does not answer must not hold a pooled connection (exchange-transport.ts) for ever.
      {
        method,
        headers: { 'X-MBX-APIKEY': this.account.api_key },
        signal: AbortSignal.timeout(LISTEN_KEY_TIMEOUT_MS),
      },
      { trader: this.account.user_uuid },
    );
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.status < 200 || response.status >= 300) {
      const reason = String(body.msg ?? body.detail ?? '');
      throw new ListenKeyError(
        `listenKey ${method}: ${response.status} ${reason}`,
        response.status,
        typeof body.code === 'number' ? body.code : undefined,
        reason,
      );
    }
    return body;
  }
}
