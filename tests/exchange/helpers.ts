// Helpers for the exchange-client and trade-flow tests: a real paper exchange on an ephemeral port, traders
// with funded accounts whose ExchangeClient records every request it sends (and can run a hook before one,
// or lose the answer of one after the exchange carried it out), and a raw signed call that checks the
// exchange's own view without going through the client under test.
import crypto from 'node:crypto';
import {
  startPaperExchange,
  type PaperExchangeHandle,
  type StartOptions,
} from '../../paper-exchange/src/index';
import { initTradeCore } from '../../shared-core/trade-core-node';
import { ExchangeClient, type ExchangeClientOptions } from '../../shared-core/exchange-client';

export async function startExchange(options: StartOptions = {}): Promise<PaperExchangeHandle> {
  await initTradeCore();
  return startPaperExchange({
    port: 0,
    host: '127.0.0.1',
    tickMs: 250,
    seed: 11,
    historyDays: 1,
    ...options,
  });
}

export interface SentRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  /** The exchange's error code, when it answered one. */
  code?: number;
  /** Order of events of this trader's requests: when this one was sent, and when its answer came. */
  sentAt: number;
  answeredAt?: number;
}

/**
 * How many exchange round trips a request waited on before it was sent: 0 when nothing it followed had been
 * answered, else one more than the most any answered request before it waited on. Requests in flight together
 * share a round trip.
 */
export function roundTripsBefore(trader: Trader, request: SentRequest): number {
  const depth = new Map<SentRequest, number>();
  for (const item of trader.requests) {
    const answeredBefore = trader.requests.filter(
      (other) => other.answeredAt !== undefined && other.answeredAt < item.sentAt,
    );
    depth.set(item, answeredBefore.length ? Math.max(...answeredBefore.map((o) => depth.get(o)! + 1)) : 0);
    if (item === request) break;
  }
  return depth.get(request) ?? 0;
}

export interface Trader {
  client: ExchangeClient;
  apiKey: string;
  apiSecret: string;
  requests: SentRequest[];
  /** Runs before a request is sent (e.g. to inject an exchange fault for exactly that request). */
  beforeSend?: (request: SentRequest) => void;
  /** True: the exchange gets and carries out the request, but its answer is lost (a timeout). */
  loseAnswer?: (request: SentRequest) => boolean;
  /** True: the request never leaves and never settles (the page running the flow was closed just then). */
  hold?: (request: SentRequest) => boolean;
}

export function newTrader(
  handle: PaperExchangeHandle,
  options: Partial<Omit<ExchangeClientOptions, 'credentials' | 'fetch'>> = {},
): Trader {
  const { apiKey, apiSecret } = handle.admin.createAccount('10000');
  const trader: Trader = { apiKey, apiSecret, requests: [], client: undefined as unknown as ExchangeClient };
  let events = 0;
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const request: SentRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      params: url.searchParams,
      sentAt: ++events,
    };
    trader.requests.push(request);
    trader.beforeSend?.(request);
    if (trader.hold?.(request)) return new Promise<Response>(() => undefined);
    const response = await fetch(input, init);
    request.answeredAt = ++events;
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { code?: unknown } | undefined;
    if (typeof body?.code === 'number' && body.code < 0) request.code = body.code;
    if (trader.loseAnswer?.(request)) throw new DOMException('The answer was lost', 'TimeoutError');
    return response;
  };
  trader.client = new ExchangeClient({
    baseUrl: handle.url,
    credentials: { api_key: apiKey, api_secret: apiSecret },
    ...options,
    fetch: recording,
  });
  return trader;
}

/** The requests of a trader that match a method, a path and (optionally) an order type. */
export function sent(trader: Trader, method: string, path: string, type?: string): SentRequest[] {
  return trader.requests.filter(
    (r) => r.method === method && r.path === path && (type === undefined || r.params.get('type') === type),
  );
}

/** A signed call made without the client under test: what the exchange itself says. */
export async function raw<T>(
  handle: PaperExchangeHandle,
  trader: Trader,
  method: string,
  path: string,
  params: Record<string, string> = {},
): Promise<T> {
  const query = new URLSearchParams({ ...params, recvWindow: '10000', timestamp: String(Date.now()) });
  const signature = crypto.createHmac('sha256', trader.apiSecret).update(query.toString()).digest('hex');
  const response = await fetch(`${handle.url}${path}?${query.toString()}&signature=${signature}`, {
    method,
    headers: { 'X-MBX-APIKEY': trader.apiKey },
  });
  return (await response.json()) as T;
}

export interface RawPosition {
  positionAmt: string;
  entryPrice: string;
  markPrice: string;
}

export async function positionOf(
  handle: PaperExchangeHandle,
  trader: Trader,
  symbol: string,
): Promise<RawPosition> {
  const lines = await raw<RawPosition[]>(handle, trader, 'GET', '/fapi/v2/positionRisk', { symbol });
  return lines[0] as RawPosition;
}

/** The price of the trader's latest fill in a symbol. */
export async function lastFillPrice(handle: PaperExchangeHandle, trader: Trader, symbol: string) {
  const trades = await raw<{ price: string; id: number }[]>(handle, trader, 'GET', '/fapi/v1/userTrades', {
    symbol,
  });
  return trades.sort((a, b) => a.id - b.id).at(-1)?.price;
}

/** A fresh signal id, as the server makes them. */
export const signalUuid = (): string => crypto.randomUUID();
