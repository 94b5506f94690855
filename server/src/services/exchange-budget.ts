// The exchange's request budget of our egress address (issue 33; docs/relay.md "The exchange budget").
// Binance counts request weight per IP: 2400 a minute (exchangeInfo rateLimits), shared by every trader whose
// requests leave from our server (client mode through the relay, server mode), the house account and our own
// market-data reads. Past it the exchange answers 429, and an address that goes on after 429s is banned (418,
// 2 minutes to 3 days) for everyone. Every exchange request of the server passes here, before it leaves
// (admit) and with its answer (observe):
// - each call's IP weight comes from CALL_COSTS (the exchange's documentation, binance-fapi.md §4-9);
// - the count follows the exchange's own (X-MBX-USED-WEIGHT-1M on every answer), so requests made by other
//   instances behind the same address, or by anything else there, are counted too;
// - reads stop at READ_SHARE of the limit with our own 429 and Retry-After; what protects money (orders,
//   closes, stops and their cancels) may use the rest up to PROTECT_SHARE; orders cost no IP weight at all
//   (they spend the account's order count, X-MBX-ORDER-COUNT-*, which is the account's own);
// - after an exchange 429 or 418 nothing is sent to that exchange until its Retry-After has passed (the
//   breaker), for every trader at once;
// - each trader has a fair share of the weight (issue 52): the read ceiling less a reserve (NEWCOMER_RESERVE),
//   divided among the traders active this minute, never more than TRADER_SHARE; the reserve is kept for traders
//   who have spent little this minute (NEWCOMER_WEIGHT), so five or fifty flooding accounts still leave a sixth
//   its page and its open; protective calls of a trader pass beyond the share up to PROTECTIVE_TRADER_WEIGHT;
// - a key the exchange has never accepted for that trader gets only a small allowance (NEW_KEY_WEIGHT), within
//   a small pool for all such keys together (NEW_KEYS_SHARE): a flood of made-up keys costs the shared budget
//   almost nothing. A request that the exchange answers with a 2xx gives its allowance back (the key was real);
// - an account's own limits stay that account's (issue 52): the exchange's order-count answer (-1015, or a 429
//   whose X-MBX-ORDER-COUNT-* is at the limit) pauses that API key's new orders for the exchange's window, never
//   the address; and each trader's orders are capped at the exchange's per-10 s and per-minute order counts
//   (ORDERS_PER_10S, ORDERS_PER_MINUTE) before they reach it. Only an IP-weight 429 or a 418 trips the breaker.
// One budget per exchange origin in this process: each exchange counts our address apart. Instances that share
// an address share the exchange's count through the header, and the breaker through PostgreSQL
// (exchange_pauses, exchange-pauses.ts).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { HttpError } from '../http-error';

/** Binance's REQUEST_WEIGHT limit a minute (binance-fapi.md §1), until exchangeInfo says otherwise. */
export const DEFAULT_WEIGHT_LIMIT = 2400;
/** Reads stop here: the rest of the minute is kept for what protects money and for other instances' lag. */
export const READ_SHARE = 0.8;
/** Orders' cancels and other protective calls stop here, short of the exchange's own refusal. */
export const PROTECT_SHARE = 0.95;
/** Most of the limit one trader may spend in a minute, however few are active: a quarter of the read ceiling. */
export const TRADER_SHARE = 0.2;
/** Of the limit, kept below the read ceiling for traders who have spent little this minute. */
export const NEWCOMER_RESERVE = 0.1;
/** What a trader who came late may spend from the reserve: a page reads 10, an open about 15, a close 10. */
export const NEWCOMER_WEIGHT = 40;
/** A trader's protective calls (stops, closes, cancels) beyond the fair share, a minute. */
export const PROTECTIVE_TRADER_WEIGHT = 60;
/** Binance's ORDERS limits of an account (binance-fapi.md §1, the paper exchange's defaults). */
export const ORDERS_PER_10S = 300;
export const ORDERS_PER_MINUTE = 1200;
/** Weight a minute for keys never accepted for this trader: a new key's check (5) and five retries. */
export const NEW_KEY_WEIGHT = 30;
/** All never-accepted keys together, of the limit: a flood of made-up keys from many accounts stops here. */
export const NEW_KEYS_SHARE = 0.05;
/** Retry-After when an exchange's 429 or 418 does not give one (Binance's shortest ban is 2 minutes). */
const DEFAULT_PAUSE_S = { 429: 60, 418: 120 } as const;
const MINUTE_MS = 60_000;

type Cost = number | ((params: URLSearchParams) => number);

/** Binance's klines weight by limit (default 500): 1 under 100, 2 under 500, 5 to 1000, 10 above. */
function klinesWeight(params: URLSearchParams): number {
  const limit = Number(params.get('limit') ?? 500);
  if (limit < 100) return 1;
  if (limit < 500) return 2;
  return limit <= 1000 ? 5 : 10;
}

/**
 * IP weight of every call the server makes or relays ('METHOD path'), from binance-fapi.md §4-9 (the paper
 * exchange's route table has the same). Orders cost 0 on the IP: they spend the account's order count.
 */
export const CALL_COSTS: Record<string, Cost> = {
  // Relayed (contracts/relay.ts RELAYED_CALLS) and server mode.
  'GET /fapi/v2/account': 5,
  'GET /fapi/v2/positionRisk': 5,
  'POST /fapi/v1/leverage': 1,
  'POST /fapi/v1/marginType': 1,
  'POST /fapi/v1/positionSide/dual': 1,
  'GET /fapi/v1/order': 1,
  'POST /fapi/v1/order': 0,
  'DELETE /fapi/v1/order': 1,
  'GET /fapi/v1/algoOrder': 1,
  'POST /fapi/v1/algoOrder': 0,
  'DELETE /fapi/v1/algoOrder': 1,
  'GET /fapi/v1/openAlgoOrders': (params) => (params.has('symbol') ? 1 : 40),
  'GET /fapi/v1/openOrders': (params) => (params.has('symbol') ? 1 : 40),
  'GET /fapi/v1/userTrades': 5,
  'GET /fapi/v1/leverageBracket': 1,
  // Our own market-data reads.
  'GET /fapi/v1/exchangeInfo': 1,
  'GET /fapi/v1/klines': klinesWeight,
  'GET /fapi/v1/premiumIndex': (params) => (params.has('symbol') ? 1 : 10),
  'GET /fapi/v1/time': 1,
  // The user data stream's key (USER_STREAM).
  'POST /fapi/v1/listenKey': 1,
  'PUT /fapi/v1/listenKey': 1,
  'DELETE /fapi/v1/listenKey': 1,
};

/** New orders: they spend the account's order count (ORDERS), not the address's weight. */
const NEW_ORDERS = new Set(['POST /fapi/v1/order', 'POST /fapi/v1/algoOrder']);

/** Calls that protect money (orders, closes, stops and their cancels): they may use the reserve above reads. */
const PROTECTIVE = new Set([
  'POST /fapi/v1/order',
  'DELETE /fapi/v1/order',
  'POST /fapi/v1/algoOrder',
  'DELETE /fapi/v1/algoOrder',
]);

/** A call the table does not know costs this much (the largest of Binance's ordinary reads). */
const UNKNOWN_CALL_WEIGHT = 20;

export function costOf(
  method: string,
  path: string,
  query: string,
): { weight: number; protective: boolean; newOrder: boolean } {
  const name = `${method.toUpperCase()} ${path}`;
  const cost = CALL_COSTS[name];
  const weight =
    cost === undefined
      ? UNKNOWN_CALL_WEIGHT
      : typeof cost === 'number'
        ? cost
        : cost(new URLSearchParams(query));
  return { weight, protective: PROTECTIVE.has(name), newOrder: NEW_ORDERS.has(name) };
}

/** A request the budget keeps from leaving: 429 with Retry-After, before anything reaches the exchange. */
export class BudgetRefusal extends HttpError {
  constructor(detail: string, retryAfterS: number) {
    super(429, detail, Math.max(1, Math.ceil(retryAfterS)));
  }
}

export interface ExchangeCall {
  /** The exchange's base URL (or any URL of it): the budget is per origin. */
  url: string;
  method: string;
  path: string;
  query: string;
  /** The trader the request is made for; none for the server's own reads and the house account. */
  trader?: string;
  /** False for a key the exchange has never accepted (a 2xx) for this trader. */
  provenKey?: boolean;
  /** The API key the request is signed with (kept only as a digest): its order-count pause. */
  apiKey?: string;
}

/** What observe reads of an answer beside its headers. */
export interface ObservedAnswer {
  /** The answer's body, read for the exchange's code when it is a 429. */
  body?: string;
  /** The API key the request was signed with. */
  apiKey?: string;
}

interface Window {
  minute: number;
  used: number;
}

/** A trader's spending at one exchange this minute, and its orders in the exchange's order windows. */
interface TraderState {
  all: Window;
  newKeys: Window;
  protective: Window;
  orders10s: Window;
  ordersMinute: Window;
}

interface ExchangeState {
  limit: number;
  window: Window;
  /** Traders who have spent weight this minute (the divisor of the fair share). */
  active: Window;
  /** Nothing leaves for this exchange before this time (the breaker). */
  blockedUntil: number;
  blockedBy?: number;
}

export interface BudgetLog {
  warn: (object: object, message: string) => void;
}

export class ExchangeBudget {
  private readonly exchanges = new Map<string, ExchangeState>();
  /** Per exchange origin and trader. */
  private readonly traders = new LRUCache<string, TraderState>({ max: 100_000 });
  /** API-key digest → until when its new orders are paused (the exchange's order-count answer). */
  private readonly keyPauses = new LRUCache<string, { until: number; detail: string }>({ max: 100_000 });
  private readonly newKeys = new Map<string, Window>();
  /** Pauses started here and not yet shared with other instances (exchange-pauses.ts). */
  private readonly tripped = new Map<string, { until: number; status: number }>();
  log: BudgetLog = { warn: () => undefined };

  constructor(readonly now: () => number = Date.now) {}

  /** The exchange's REQUEST_WEIGHT a minute, from its exchangeInfo rateLimits. */
  setLimit(url: string, limit: number): void {
    if (Number.isSafeInteger(limit) && limit > 0) this.state(originOf(url)).limit = limit;
  }

  /** Weight counted for this minute (ours and what the exchange reported). */
  used(url: string): number {
    return this.window(this.state(originOf(url)).window).used;
  }

  /** Until when (ms since the epoch) nothing is sent to the exchange; 0 when the breaker is closed. */
  blockedUntil(url: string): number {
    const until = this.state(originOf(url)).blockedUntil;
    return until > this.now() ? until : 0;
  }

  /**
   * Counts the call's weight, or throws BudgetRefusal when it would cross a limit (nothing is counted then).
   * For a key not yet accepted, the answer's keyAccepted() gives back the new-key allowance it took: only the
   * requests the exchange refused spend it.
   */
  admit(call: ExchangeCall): Admission {
    const now = this.now();
    const origin = originOf(call.url);
    const state = this.state(origin);
    if (now < state.blockedUntil) {
      throw new BudgetRefusal(
        `The exchange asked Signaldesk to pause its requests (HTTP ${state.blockedBy}): nothing is sent to it for ${Math.ceil((state.blockedUntil - now) / 1000)} s`,
        (state.blockedUntil - now) / 1000,
      );
    }
    const { weight, protective, newOrder } = costOf(call.method, call.path, call.query);
    const toMinuteEnd = (MINUTE_MS - (now % MINUTE_MS)) / 1000;
    const trader = call.trader === undefined ? undefined : this.trader(origin, call.trader);
    if (newOrder) {
      this.admitOrder(call, trader, now);
      return NOTHING_TO_GIVE_BACK;
    }
    if (weight === 0) return NOTHING_TO_GIVE_BACK;
    const exchange = this.window(state.window);
    const ceiling = Math.floor(state.limit * (protective ? PROTECT_SHARE : READ_SHARE));
    if (exchange.used + weight > ceiling) {
      throw new BudgetRefusal(
        "The exchange's request budget of Signaldesk's address is spent for this minute. Try again shortly",
        toMinuteEnd,
      );
    }
    let pool: Window | undefined;
    let protectiveSpent = false;
    if (trader) {
      const own = this.window(trader.all).used;
      const fair = this.fairShare(state, own > 0);
      // Above the reserve line only a trader who has spent little this minute goes on (NEWCOMER_RESERVE).
      const reserveLine = Math.floor(state.limit * (READ_SHARE - NEWCOMER_RESERVE));
      const inReserve = !protective && exchange.used + weight > reserveLine;
      const overShare = own + weight > Math.max(fair, NEWCOMER_WEIGHT);
      const lateButLight = own + weight <= NEWCOMER_WEIGHT;
      if (overShare || (inReserve && !lateButLight)) {
        if (!protective || this.window(trader.protective).used + weight > PROTECTIVE_TRADER_WEIGHT) {
          throw new BudgetRefusal(
            `Too many exchange requests through Signaldesk: at most ${Math.max(fair, NEWCOMER_WEIGHT)} of the exchange's request weight a minute per trader while ${this.window(state.active).used} traders are active`,
            toMinuteEnd,
          );
        }
        protectiveSpent = true;
      }
      if (call.provenKey === false) {
        pool = this.newKeys.get(origin) ?? newWindow(now);
        this.newKeys.set(origin, pool);
        const poolLimit = Math.floor(state.limit * NEW_KEYS_SHARE);
        if (
          this.window(trader.newKeys).used + weight > NEW_KEY_WEIGHT ||
          this.window(pool).used + weight > poolLimit
        ) {
          throw new BudgetRefusal(
            'Too many requests with an API key the exchange has not accepted yet. Check the key and try again in a minute',
            toMinuteEnd,
          );
        }
      }
      if (own === 0) this.window(state.active).used += 1;
    }
    const spent = [
      exchange,
      ...(trader ? [protectiveSpent ? trader.protective : trader.all] : []),
      ...(trader && pool ? [trader.newKeys, pool] : []),
    ];
    for (const window of spent) window.used += weight;
    const minute = exchange.minute;
    const giveBack = (windows: Window[]) => {
      for (const window of windows) {
        if (this.window(window).minute === minute) window.used = Math.max(0, window.used - weight);
      }
    };
    return {
      keyAccepted: () => giveBack(spent.slice(2)),
      notSent: () => giveBack(spent),
    };
  }

  /**
   * Reads an answer: the exchange's count of this minute, and a 429/418 with its Retry-After. A 429 about the
   * account's order count (-1015, or X-MBX-ORDER-COUNT-* at the limit) pauses that key's new orders for the
   * exchange's window; only the others (IP weight, a 418) trip the breaker of the address.
   */
  observe(
    url: string,
    status: number,
    header: (name: string) => string | undefined,
    answer: ObservedAnswer = {},
  ): void {
    const now = this.now();
    const origin = originOf(url);
    const state = this.state(origin);
    const used = Number(header('x-mbx-used-weight-1m'));
    const window = this.window(state.window);
    if (Number.isSafeInteger(used) && used > window.used) window.used = used;
    if (status !== 429 && status !== 418) return;
    const given = Number(header('retry-after'));
    if (status === 429) {
      const orderWindowMs = orderCountWindow(header, answer.body);
      if (orderWindowMs !== undefined) {
        const until =
          Number.isFinite(given) && given > 0 ? now + given * 1000 : nextBoundary(now, orderWindowMs);
        if (answer.apiKey !== undefined) {
          this.keyPauses.set(keyDigest(answer.apiKey), {
            until,
            detail: `The exchange refused this API key's new orders: its order count (${orderWindowMs === 10_000 ? ORDERS_PER_10S + ' per 10 s' : ORDERS_PER_MINUTE + ' a minute'}) is reached`,
          });
        }
        return;
      }
    }
    const pauseS = Number.isFinite(given) && given > 0 ? given : DEFAULT_PAUSE_S[status];
    this.block(origin, now + pauseS * 1000, status);
    this.tripped.set(origin, { until: state.blockedUntil, status });
  }

  /** Closes the breaker of an origin until `until` (a breaker tripped here, or by another instance). */
  block(origin: string, until: number, status: number): void {
    const state = this.state(origin);
    if (until <= state.blockedUntil) return;
    state.blockedUntil = until;
    state.blockedBy = status;
    this.log.warn(
      { exchange: origin, status, until: new Date(until).toISOString() },
      'exchange budget: the exchange refused our address; nothing is sent to it until then',
    );
  }

  /** Pauses started here since the last call, for the other instances (exchange-pauses.ts). */
  takeTripped(): Map<string, { until: number; status: number }> {
    const taken = new Map(this.tripped);
    this.tripped.clear();
    return taken;
  }

  /**
   * A new order: refused while its key is paused by the exchange's order-count answer, and beyond the
   * exchange's order counts for the trader (counted here, before the exchange counts them).
   */
  private admitOrder(call: ExchangeCall, trader: TraderState | undefined, now: number): void {
    if (call.apiKey !== undefined) {
      const digest = keyDigest(call.apiKey);
      const pause = this.keyPauses.get(digest);
      if (pause && pause.until > now) throw new BudgetRefusal(pause.detail, (pause.until - now) / 1000);
      if (pause) this.keyPauses.delete(digest);
    }
    if (!trader) return;
    const per10s = this.window(trader.orders10s, 10_000);
    const perMinute = this.window(trader.ordersMinute);
    if (per10s.used + 1 > ORDERS_PER_10S) {
      throw new BudgetRefusal(
        `Too many new orders: at most ${ORDERS_PER_10S} per 10 s, the exchange's own limit`,
        (nextBoundary(now, 10_000) - now) / 1000,
      );
    }
    if (perMinute.used + 1 > ORDERS_PER_MINUTE) {
      throw new BudgetRefusal(
        `Too many new orders: at most ${ORDERS_PER_MINUTE} a minute, the exchange's own limit`,
        (nextBoundary(now, MINUTE_MS) - now) / 1000,
      );
    }
    per10s.used += 1;
    perMinute.used += 1;
  }

  /** A trader's state at an exchange origin. */
  private trader(origin: string, trader: string): TraderState {
    const key = `${origin} ${trader}`;
    let found = this.traders.get(key);
    if (!found) {
      const now = this.now();
      found = {
        all: newWindow(now),
        newKeys: newWindow(now),
        protective: newWindow(now),
        orders10s: newWindow(now, 10_000),
        ordersMinute: newWindow(now),
      };
      this.traders.set(key, found);
    }
    return found;
  }

  /**
   * What one trader may spend this minute: the read ceiling less the newcomers' reserve, shared among the
   * traders active this minute (this one counted), at most TRADER_SHARE of the limit.
   */
  private fairShare(state: ExchangeState, counted: boolean): number {
    const active = this.window(state.active).used + (counted ? 0 : 1);
    const room = Math.floor(state.limit * (READ_SHARE - NEWCOMER_RESERVE));
    return Math.min(Math.floor(state.limit * TRADER_SHARE), Math.floor(room / active));
  }

  private state(origin: string): ExchangeState {
    let state = this.exchanges.get(origin);
    if (!state) {
      state = {
        limit: DEFAULT_WEIGHT_LIMIT,
        window: newWindow(this.now()),
        active: newWindow(this.now()),
        blockedUntil: 0,
      };
      this.exchanges.set(origin, state);
    }
    return state;
  }

  /** The window, emptied when its minute (or `spanMs`) is over (fixed windows, as the exchange counts). */
  private window(window: Window, spanMs = MINUTE_MS): Window {
    const minute = Math.floor(this.now() / spanMs);
    if (window.minute !== minute) Object.assign(window, { minute, used: 0 });
    return window;
  }
}

/** What admit answers, to give back what a request did not spend. */
export interface Admission {
  /** The exchange answered a 2xx: the new-key allowance the request took comes back. */
  keyAccepted(): void;
  /** The request never reached the exchange (no connection): all its weight comes back. */
  notSent(): void;
}
const NOTHING_TO_GIVE_BACK: Admission = { keyAccepted: () => undefined, notSent: () => undefined };

function newWindow(now: number, spanMs = MINUTE_MS): Window {
  return { minute: Math.floor(now / spanMs), used: 0 };
}

const nextBoundary = (now: number, spanMs: number) => (Math.floor(now / spanMs) + 1) * spanMs;

/** An API key as the pauses keep it: a digest, never the key. */
const keyDigest = (apiKey: string) => createHash('sha256').update(apiKey).digest('base64url');

/**
 * The order window (ms) a 429 is about when it is the account's order count: Binance's -1015 ("… orders per
 * 10 seconds" / "per minute"), or an order-count header at its limit; undefined for any other 429.
 */
function orderCountWindow(
  header: (name: string) => string | undefined,
  body: string | undefined,
): number | undefined {
  if (body !== undefined && /"code"\s*:\s*-1015\b/.test(body))
    return /10 ?s(ec|econds)?/i.test(body) ? 10_000 : MINUTE_MS;
  if (Number(header('x-mbx-order-count-10s')) >= ORDERS_PER_10S) return 10_000;
  if (Number(header('x-mbx-order-count-1m')) >= ORDERS_PER_MINUTE) return MINUTE_MS;
  return undefined;
}

function originOf(url: string): string {
  return new URL(url).origin;
}

/** The process's budget: every exchange request of this server goes through it (one egress address). */
export const exchangeBudget = new ExchangeBudget();
