// A Binance endpoint as data: method, paths, security type (reference §2), request weight (reference §4-8)
// and the handler. The HTTP pipeline (http.ts) does parsing, limits, faults and authentication for all.
import type { Params } from '../auth.js';
import type { Exchange } from '../exchange.js';
import type { ExchangeCore } from '../exchange-core.js';
import type { AccountRecord } from '../state.js';

/** NONE: public; API_KEY: MARKET_DATA / USER_STREAM (key, no signature); SIGNED: TRADE / USER_DATA. */
export type Security = 'NONE' | 'API_KEY' | 'SIGNED';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteContext {
  exchange: Exchange;
  core: ExchangeCore;
  params: Params;
  account: AccountRecord | undefined;
  now: number;
  /** Server time as the caller's clock-skew fault makes it appear. */
  serverTime: number;
}

export interface RouteDef {
  method: Method;
  paths: string[];
  security: Security;
  weight: number | ((params: Params) => number);
  /** Counts towards the ORDERS limits and can be hit by reject faults. */
  newOrder?: boolean;
  handler: (ctx: RouteContext) => unknown;
}

export function accountOf(ctx: RouteContext): AccountRecord {
  if (!ctx.account) throw new Error('route needs an authenticated account');
  return ctx.account;
}

export const fapi = (version: 1 | 2 | 3, path: string) => `/fapi/v${version}/${path}`;
