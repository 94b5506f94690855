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
// - each trader has a fair share of the weight (TRADER_SHARE), and a key the exchange has never accepted for
//   that trader only a small allowance (NEW_KEY_WEIGHT), within a small pool for all such keys together
//   (NEW_KEYS_SHARE): a flood of made-up keys costs the shared budget almost nothing. A request that the
//   exchange answers with a 2xx gives its allowance back (the key was real), so adding keys costs nothing.
// One budget per exchange origin in this process: each exchange counts our address apart. Instances that share
// an address share the exchange's count through the header, and the breaker through PostgreSQL
// (exchange_pauses, exchange-pauses.ts).
import { LRUCache } from 'lru-cache';
import { HttpError } from '../http-error';

/** Binance's REQUEST_WEIGHT limit a minute (binance-fapi.md §1), until exchangeInfo says otherwise. */
export const DEFAULT_WEIGHT_LIMIT = 2400;
/** Reads stop here: the rest of the minute is kept for what protects money and for other instances' lag. */
export const READ_SHARE = 0.8;
/** Orders' cancels and other protective calls stop here, short of the exchange's own refusal. */
export const PROTECT_SHARE = 0.95;
/** One trader's weight a minute: a page reads 10, an open spends about 15; a quarter of the read ceiling. */
export const TRADER_SHARE = 0.2;
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

/** Calls that protect money (orders, closes, stops and their cancels): they may use the reserve above reads. */
const PROTECTIVE = new Set([
  'POST /fapi/v1/order',
  'DELETE /fapi/v1/order',
  'POST /fapi/v1/algoOrder',
  'DELETE /fapi/v1/algoOrder',
]);

/** A call the table does not know costs this much (the largest of Binance's ordinary reads). */
const UNKNOWN_CALL_WEIGHT = 20;

export function costOf(method: string, path: string, query: string): { weight: number; protective: boolean } {
  const name = `${method.toUpperCase()} ${path}`;
  const cost = CALL_COSTS[name];
  const weight =
    cost === undefined
      ? UNKNOWN_CALL_WEIGHT
      : typeof cost === 'number'
        ? cost
        : cost(new URLSearchParams(query));
  return { weight, protective: PROTECTIVE.has(name) };
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
}

interface Window {
  minute: number;
  used: number;
}

interface ExchangeState {
  limit: number;
  window: Window;
  /** Nothing leaves for this exchange before this time (the breaker). */
  blockedUntil: number;
  blockedBy?: number;
}

export interface BudgetLog {
  warn: (object: object, message: string) => void;
}

export class ExchangeBudget {
  private readonly exchanges = new Map<string, ExchangeState>();
  private readonly traders = new LRUCache<string, { all: Window; newKeys: Window }>({ max: 100_000 });
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
    const { weight, protective } = costOf(call.method, call.path, call.query);
    if (weight === 0) return NOTHING_TO_GIVE_BACK;
    const toMinuteEnd = (MINUTE_MS - (now % MINUTE_MS)) / 1000;
    const exchange = this.window(state.window);
    const ceiling = Math.floor(state.limit * (protective ? PROTECT_SHARE : READ_SHARE));
    if (exchange.used + weight > ceiling) {
      throw new BudgetRefusal(
        "The exchange's request budget of Signaldesk's address is spent for this minute. Try again shortly",
        toMinuteEnd,
      );
    }
    let trader: { all: Window; newKeys: Window } | undefined;
    let pool: Window | undefined;
    if (call.trader !== undefined) {
      trader = this.traders.get(call.trader) ?? { all: newWindow(now), newKeys: newWindow(now) };
      this.traders.set(call.trader, trader);
      const share = Math.floor(state.limit * TRADER_SHARE);
      if (this.window(trader.all).used + weight > share) {
        throw new BudgetRefusal(
          `Too many exchange requests through Signaldesk: at most ${share} of the exchange's request weight a minute per trader`,
          toMinuteEnd,
        );
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
    }
    const spent = [
      exchange,
      ...(trader ? [trader.all] : []),
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

  /** Reads an answer: the exchange's count of this minute, and a 429/418 with its Retry-After. */
  observe(url: string, status: number, header: (name: string) => string | undefined): void {
    const now = this.now();
    const origin = originOf(url);
    const state = this.state(origin);
    const used = Number(header('x-mbx-used-weight-1m'));
    const window = this.window(state.window);
    if (Number.isSafeInteger(used) && used > window.used) window.used = used;
    if (status !== 429 && status !== 418) return;
    const given = Number(header('retry-after'));
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

  private state(origin: string): ExchangeState {
    let state = this.exchanges.get(origin);
    if (!state) {
      state = { limit: DEFAULT_WEIGHT_LIMIT, window: newWindow(this.now()), blockedUntil: 0 };
      this.exchanges.set(origin, state);
    }
    return state;
  }

  /** The window, emptied when its minute is over (fixed windows, as the exchange counts). */
  private window(window: Window): Window {
    const minute = Math.floor(this.now() / MINUTE_MS);
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

function newWindow(now: number): Window {
  return { minute: Math.floor(now / MINUTE_MS), used: 0 };
}

function originOf(url: string): string {
  return new URL(url).origin;
}

/** The process's budget: every exchange request of this server goes through it (one egress address). */
export const exchangeBudget = new ExchangeBudget();
