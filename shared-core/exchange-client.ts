// The one exchange client (DESIGN.md "Layout"): signed Binance USDⓈ-M calls, used by the SPA in client
// mode and by the server in server mode. SPEC.md §7: every call carries the X-MBX-APIKEY header and is
// signed with HMAC-SHA256 over the query (trade-core does the signing; an Ed25519 private key in PEM form
// as api_secret signs with Ed25519, which Binance also accepts), with a timestamp and recvWindow 10000;
// every call times out after 5000 ms. SPEC.md §8: exchange error codes come from one table
// (exchange-errors.ts, re-exported here), and a wrapped error carries the name of the operation that failed.
//
// A new call is one method: name the operation, pick the method and path, pass the parameters, parse the
// answer. Parameters travel in the query string for every method, which Binance accepts
// (binance-fapi.md §1) and which keeps signing to one string. Prices and quantities stay decimal strings.
//
// Where the requests go is the caller's choice: the exchange's base URL (the server, and a browser on a
// platform that allows browsers), or our server's signed-request relay (client mode on an exchange that
// refuses browser origins, as Binance does; docs/relay.md). The relay forwards the signed request verbatim
// and answers its own refusals with the header RELAY_HEADER, which the client tells apart from the exchange.
import type { AccountBalance } from '../contracts';
import { describeExchangeCode, ExchangeError, ExchangeFailure } from './exchange-errors';
export type {
  ExitOrderInput,
  LeverageBracket,
  MarketOrderInput,
  OrderFill,
  OrderResult,
  OrderSide,
  PositionRisk,
  StopOrderInput,
  StopOrderState,
} from './exchange-types';
import {
  relayError,
  positive,
  stopStateOf,
  toDecimal,
  toLeverageBrackets,
  toLeverageBracketTable,
  toNumber,
  toOrderFills,
  toOrderResult,
} from './exchange-answers';
import type {
  ExitOrderInput,
  LeverageBracket,
  MarketOrderInput,
  OrderFill,
  OrderResult,
  PositionRisk,
  StopOrderInput,
  StopOrderState,
} from './exchange-types';
import { createEd25519Signer, createSigner, type QueryParams, type Signer } from './trade-core';

export {
  EXCHANGE_ERROR_CATALOGUE,
  ExchangeError,
  ExchangeErrorType,
  ExchangeFailure,
  describeExchangeCode,
  type ExchangeCodeEntry,
} from './exchange-errors';

export const EXCHANGE_TIMEOUT_MS = 5000;
export const EXCHANGE_RECV_WINDOW_MS = 10_000;

export interface ExchangeCredentials {
  api_key: string;
  api_secret: string;
}

/**
 * An API key with a signer of its secret, made once and kept while the key is in use (the SPA keeps one per
 * unlocked platform for as long as its PIN is known: no key derivation on a trade click).
 */
export interface SigningKey {
  api_key: string;
  signer: Signer;
}

/** The header our relay sets on the answers it gives itself (refusals, an unreachable exchange). */
export const RELAY_HEADER = 'x-signaldesk-relay';

export interface ExchangeClientOptions {
  /**
   * REST base URL without a trailing slash: the exchange's (platform_url, e.g. https://fapi.binance.com) or the
   * relay's for the platform (/api/exchange_relay/{platform_uuid}).
   */
  baseUrl: string;
  /** The key pair (a signer is made once for this client), or a key with its signer already made. */
  credentials: ExchangeCredentials | SigningKey;
  timeoutMs?: number;
  recvWindowMs?: number;
  /** Clock for the signed timestamp, ms since the epoch. */
  now?: () => number;
  fetch?: typeof fetch;
}

/**
 * Where a platform takes STOP orders: 'order' is POST /fapi/v1/order as SPEC.md §7 says, 'algo' is the Algo
 * Order API Binance requires since 2025-12-09 (binance-fapi.md §6 "Algo migration").
 */
export type StopRoute = 'order' | 'algo';

/** Platforms (by base URL) known to answer -4120 to a STOP on /fapi/v1/order, for this process's lifetime. */
const stopRoutes = new Map<string, StopRoute>();

/** The remembered stop route of a platform, undefined until a -4120 has been seen. */
export function knownStopRoute(baseUrl: string): StopRoute | undefined {
  return stopRoutes.get(baseUrl.replace(/\/+$/, ''));
}

type Params = Record<string, string | number | boolean | undefined>;
type Method = 'GET' | 'POST' | 'DELETE';
type Raw = Record<string, unknown>;

/** The signer of a secret: Ed25519 for a PEM private key, HMAC-SHA256 otherwise (binance-fapi.md §2). */
export function signerFor(secret: string): Signer {
  return secret.trimStart().startsWith('-----BEGIN') ? createEd25519Signer(secret) : createSigner(secret);
}

const isCode = (error: unknown, code: number): error is ExchangeError =>
  error instanceof ExchangeError && error.code === code;

/** Runs a call; the exchange answering `code` (an "already so" or "no such order" code) gives undefined. */
async function unless<T>(code: number, call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (isCode(error, code)) return undefined;
    throw error;
  }
}

/**
 * The last timestamp each signer signed. Two requests signed in the same millisecond with the same parameters
 * would carry the same signature, which the relay forwards once only (a replay guard): every request a signer
 * signs gets a timestamp of its own (the SPA keeps one signer per unlocked platform for all its clients).
 */
const lastTimestamps = new WeakMap<Signer, number>();

function uniqueTimestamp(signer: Signer, now: number): number {
  const last = lastTimestamps.get(signer) ?? 0;
  const timestamp = now > last ? now : last + 1;
  lastTimestamps.set(signer, timestamp);
  return timestamp;
}

export class ExchangeClient {
  readonly baseUrl: string;
  private readonly key: SigningKey;

  constructor(private readonly options: ExchangeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const { credentials } = options;
    this.key =
      'signer' in credentials
        ? credentials
        : { api_key: credentials.api_key, signer: signerFor(credentials.api_secret) };
  }

  /** The API key the requests carry (X-MBX-APIKEY). */
  get apiKey(): string {
    return this.key.api_key;
  }

  /** The recvWindow the calls are signed with (ms): an unanswered request cannot execute later than that. */
  get recvWindowMs(): number {
    return this.options.recvWindowMs ?? EXCHANGE_RECV_WINDOW_MS;
  }

  /** The signed query string, with a timestamp no other request of this key had. */
  private sign(params: QueryParams): string {
    const timestamp = uniqueTimestamp(this.key.signer, (this.options.now ?? Date.now)());
    return this.key.signer.signedQuery(params, { timestamp, recvWindow: this.recvWindowMs });
  }

  /** The account totals of SPEC.md §3, parsed to numbers. */
  async getAccount(): Promise<AccountBalance> {
    const operation = 'getAccount';
    const raw = await this.signedRequest<Raw>(operation, 'GET', '/fapi/v2/account');
    const number = (field: string) => toNumber(operation, field, raw[field]);
    return {
      available_balance: number('availableBalance'),
      total_margin_balance: number('totalMarginBalance'),
      total_unrealized_profit: number('totalUnrealizedProfit'),
      total_wallet_balance: number('totalWalletBalance'),
    };
  }

  async setLeverage(symbol: string, leverage: number): Promise<void> {
    await this.signedRequest('setLeverage', 'POST', '/fapi/v1/leverage', { symbol, leverage });
  }

  /** SPEC.md §4: margin type ISOLATED; -4046 (already isolated) is success. */
  async setMarginTypeIsolated(symbol: string): Promise<void> {
    const params = { symbol, marginType: 'ISOLATED' };
    await unless(-4046, this.signedRequest('setMarginTypeIsolated', 'POST', '/fapi/v1/marginType', params));
  }

  /** SPEC.md §4: one-way position mode (for every symbol); -4059 (already one-way) is success. */
  async setOneWayMode(): Promise<void> {
    const params = { dualSidePosition: 'false' };
    await unless(-4059, this.signedRequest('setOneWayMode', 'POST', '/fapi/v1/positionSide/dual', params));
  }

  async getPositionRisk(symbol: string): Promise<PositionRisk> {
    const operation = 'getPositionRisk';
    const raw = await this.signedRequest<unknown>(operation, 'GET', '/fapi/v2/positionRisk', { symbol });
    const line = (Array.isArray(raw) ? raw[0] : undefined) as Raw | undefined;
    const field = (name: string) => toDecimal(operation, name, line?.[name]);
    return {
      entryPrice: field('entryPrice'),
      markPrice: field('markPrice'),
      positionAmt: field('positionAmt'),
    };
  }

  /** A MARKET order answered in its final state (newOrderRespType RESULT). */
  async placeMarketOrder(order: MarketOrderInput): Promise<OrderResult> {
    const operation = 'placeMarketOrder';
    const raw = await this.signedRequest<Raw>(operation, 'POST', '/fapi/v1/order', {
      symbol: order.symbol,
      side: order.side,
      type: 'MARKET',
      quantity: order.quantity,
      reduceOnly: order.reduceOnly ? 'true' : undefined,
      newClientOrderId: order.newClientOrderId,
      newOrderRespType: 'RESULT',
    });
    return toOrderResult(operation, raw);
  }

  /** The fills of an order (GET /fapi/v1/userTrades by orderId), oldest first. */
  async getOrderFills(symbol: string, orderId: number): Promise<OrderFill[]> {
    const operation = 'getOrderFills';
    const params = { symbol, orderId };
    const raw = await this.signedRequest<unknown>(operation, 'GET', '/fapi/v1/userTrades', params);
    return toOrderFills(operation, raw);
  }

  /**
   * The symbol's leverage brackets (GET /fapi/v1/leverageBracket with symbol): Binance answers one object for a
   * symbol (binance-fapi.md §7), some exchanges a list of one; its numbers are JSON numbers, kept as their text.
   */
  async getLeverageBrackets(symbol: string): Promise<LeverageBracket[]> {
    const operation = 'getLeverageBrackets';
    const params = { symbol };
    const raw = await this.signedRequest<unknown>(operation, 'GET', '/fapi/v1/leverageBracket', params);
    return toLeverageBrackets(operation, symbol, raw);
  }

  /** Every symbol's leverage brackets in one read (GET /fapi/v1/leverageBracket without a symbol, weight 1). */
  async getLeverageBracketTable(): Promise<Map<string, LeverageBracket[]>> {
    const operation = 'getLeverageBracketTable';
    const raw = await this.signedRequest<unknown>(operation, 'GET', '/fapi/v1/leverageBracket', {});
    return toLeverageBracketTable(operation, raw);
  }

  /** An order by its client id; undefined when the exchange has none (-2013). */
  getOrder(symbol: string, origClientOrderId: string): Promise<OrderResult | undefined> {
    return this.findOrder('getOrder', { symbol, origClientOrderId });
  }

  private async findOrder(operation: string, params: Params): Promise<OrderResult | undefined> {
    const raw = await unless(-2013, this.signedRequest<Raw>(operation, 'GET', '/fapi/v1/order', params));
    return raw && toOrderResult(operation, raw);
  }

  /**
   * Places a reduce-only STOP order, GTC. SPEC.md §7 places it on /fapi/v1/order; a platform that answers
   * -4120 gets it through the Algo Order API instead, now and for every later stop (DESIGN.md "Conditional
   * orders"). Answers the route it was placed on.
   */
  async placeStopOrder(stop: StopOrderInput): Promise<StopRoute> {
    const operation = 'placeStopOrder';
    const common = {
      symbol: stop.symbol,
      side: stop.side,
      type: 'STOP',
      price: stop.price,
      quantity: stop.quantity,
      reduceOnly: 'true',
      timeInForce: 'GTC',
    };
    if (knownStopRoute(this.baseUrl) !== 'algo') {
      const params = { ...common, stopPrice: stop.stopPrice, newClientOrderId: stop.clientId };
      const placed = await unless(-4120, this.signedRequest(operation, 'POST', '/fapi/v1/order', params));
      if (placed !== undefined) return 'order';
      stopRoutes.set(this.baseUrl, 'algo');
    }
    const params = {
      algoType: 'CONDITIONAL',
      ...common,
      triggerPrice: stop.stopPrice,
      clientAlgoId: stop.clientId,
    };
    await this.signedRequest(operation, 'POST', '/fapi/v1/algoOrder', params);
    return 'algo';
  }

  /**
   * Places an exit the exchange holds (issue 35): reduce-only, for this trade's quantity only (never another
   * trade's share of the symbol's position), on the Algo Order API, triggered by the mark price.
   */
  async placeExitOrder(exit: ExitOrderInput): Promise<void> {
    const trigger =
      exit.type === 'TRAILING_STOP_MARKET'
        ? { activatePrice: exit.activatePrice, callbackRate: exit.callbackRate }
        : { triggerPrice: exit.triggerPrice };
    await this.signedRequest('placeExitOrder', 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: exit.symbol,
      side: exit.side,
      type: exit.type,
      quantity: exit.quantity,
      ...trigger,
      reduceOnly: 'true',
      // The backstop triggers on the price the stop does (the default, CONTRACT_PRICE); the exits on the mark.
      workingType: exit.type === 'STOP_MARKET' ? 'CONTRACT_PRICE' : 'MARK_PRICE',
      clientAlgoId: exit.clientId,
    });
  }

  /** The client ids of the symbol's open algo orders (GET /fapi/v1/openAlgoOrders, weight 1 with a symbol). */
  async getOpenAlgoIds(symbol: string): Promise<string[]> {
    const raw = await this.signedRequest<unknown>('getOpenAlgoIds', 'GET', '/fapi/v1/openAlgoOrders', {
      symbol,
    });
    if (!Array.isArray(raw)) return [];
    return raw
      .map((algo) => (algo as Raw).clientAlgoId)
      .filter((id): id is string => typeof id === 'string' && id !== '');
  }

  /**
   * The client ids of the symbol's open regular orders (GET /fapi/v1/openOrders, weight 1 with a symbol): a
   * triggered stop-limit's resting limit order among them (issue 54).
   */
  async getOpenOrderIds(symbol: string): Promise<string[]> {
    const raw = await this.signedRequest<unknown>('getOpenOrderIds', 'GET', '/fapi/v1/openOrders', {
      symbol,
    });
    if (!Array.isArray(raw)) return [];
    return raw
      .map((order) => (order as Raw).clientOrderId)
      .filter((id): id is string => typeof id === 'string' && id !== '');
  }

  /** Cancels an exit by its client id; -2011 when the exchange holds no such open exit. */
  async cancelExitOrder(clientId: string): Promise<void> {
    await this.signedRequest('cancelExitOrder', 'DELETE', '/fapi/v1/algoOrder', { clientAlgoId: clientId });
  }

  /**
   * Cancels a stop by its client id on the platform's route; when that route does not know it (-2011), on
   * the other one (a stop placed before a restart or before the platform moved to the Algo Order API).
   */
  async cancelStopOrder(symbol: string, clientId: string): Promise<void> {
    const operation = 'cancelStopOrder';
    let notFound: ExchangeError | undefined;
    for (const route of this.stopRoutesToTry()) {
      const call =
        route === 'order'
          ? this.signedRequest(operation, 'DELETE', '/fapi/v1/order', { symbol, origClientOrderId: clientId })
          : this.signedRequest(operation, 'DELETE', '/fapi/v1/algoOrder', { clientAlgoId: clientId });
      try {
        await call;
        return;
      } catch (error) {
        if (!isCode(error, -2011)) throw error;
        notFound = error;
      }
    }
    throw notFound as ExchangeError;
  }

  /** A stop's state by its client id, looked up like cancelStopOrder; undefined when neither route has it. */
  async getStopOrder(symbol: string, clientId: string): Promise<StopOrderState | undefined> {
    const operation = 'getStopOrder';
    for (const route of this.stopRoutesToTry()) {
      if (route === 'order') {
        const order = await this.findOrder(operation, { symbol, origClientOrderId: clientId });
        if (order) return stopStateOf(order);
        continue;
      }
      const params = { clientAlgoId: clientId };
      const algo = await unless(
        -2013,
        this.signedRequest<Raw>(operation, 'GET', '/fapi/v1/algoOrder', params),
      );
      if (algo) return this.algoState(operation, symbol, algo);
    }
    return undefined;
  }

  /** An algo order that fired reports the order it placed (actualOrderId): its status and fill price. */
  private async algoState(operation: string, symbol: string, algo: Raw): Promise<StopOrderState> {
    const status = String(algo.algoStatus);
    if (!['TRIGGERING', 'TRIGGERED', 'FINISHED'].includes(status)) return { status };
    const actualId = algo.actualOrderId;
    if ((typeof actualId === 'string' && actualId !== '') || typeof actualId === 'number') {
      const actual = await this.findOrder(operation, { symbol, orderId: String(actualId) });
      if (actual) return stopStateOf(actual);
    }
    const avgPrice = typeof algo.actualPrice === 'string' ? positive(algo.actualPrice) : undefined;
    return avgPrice ? { status: 'FILLED', avgPrice } : { status: 'TRIGGERED' };
  }

  private stopRoutesToTry(): StopRoute[] {
    return knownStopRoute(this.baseUrl) === 'algo' ? ['algo', 'order'] : ['order', 'algo'];
  }

  private async signedRequest<T = unknown>(
    operation: string,
    method: Method,
    path: string,
    params: Params = {},
  ): Promise<T> {
    const entries = Object.entries(params).filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
    );
    const query = this.sign(entries);
    const send = this.options.fetch ?? fetch;
    let response: Response;
    let body: unknown;
    try {
      response = await send(`${this.baseUrl}${path}?${query}`, {
        method,
        headers: { 'X-MBX-APIKEY': this.key.api_key },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? EXCHANGE_TIMEOUT_MS),
      });
      body = await response.json().catch(() => undefined);
    } catch (cause) {
      const timedOut =
        cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
      if (timedOut) throw new ExchangeError(operation, ExchangeFailure.TIMEOUT, 'Timeout');
      const text = cause instanceof Error ? cause.message : String(cause);
      throw new ExchangeError(operation, ExchangeFailure.FETCH, text);
    }
    const { status } = response;
    if (response.headers.get(RELAY_HEADER)) throw relayError(operation, status, body);
    const { code, msg } = (body ?? {}) as { code?: unknown; msg?: unknown };
    const numericCode = typeof code === 'string' ? Number(code) : code;
    // Binance answers errors as { code: <negative>, msg }, usually with a 4xx status (binance-fapi.md §1).
    if (typeof numericCode === 'number' && numericCode < 0) {
      const entry = describeExchangeCode(numericCode, typeof msg === 'string' ? msg : '');
      throw new ExchangeError(operation, ExchangeFailure.EXCHANGE, entry.text, numericCode, status, entry);
    }
    if (!response.ok) {
      throw new ExchangeError(operation, ExchangeFailure.EXCHANGE, `HTTP error ${status}`, undefined, status);
    }
    if (body === undefined) {
      throw new ExchangeError(operation, ExchangeFailure.PARSING, 'Invalid answer', undefined, status);
    }
    return body as T;
  }
}

/** One-call form of ExchangeClient.getAccount for callers that make a single request. */
export function getAccount(options: ExchangeClientOptions): Promise<AccountBalance> {
  return new ExchangeClient(options).getAccount();
}
