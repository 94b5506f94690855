// Reading the exchange's answers (exchange-client.ts): decimal strings kept as text, an answer that lacks a
// field refused as ExchangeFailure.PARSING, JSON numbers of the leverage brackets kept as their text.
import { ExchangeError, ExchangeFailure } from './exchange-errors';
import type { LeverageBracket, OrderFill, OrderResult, StopOrderState } from './exchange-types';

type Raw = Record<string, unknown>;

export function invalid(operation: string, field: string): ExchangeError {
  return new ExchangeError(operation, ExchangeFailure.PARSING, `Invalid ${field} in answer`);
}

export function toNumber(operation: string, field: string, value: unknown): number {
  const number = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw invalid(operation, field);
  return number;
}

/** A decimal string of the answer, kept as text (money is never parsed to a binary float). */
export function toDecimal(operation: string, field: string, value: unknown): string {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return value;
  throw invalid(operation, field);
}

/** A JSON number as its shortest text (0.0065 → "0.0065"); a string as it is. */
export function numberText(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

export function toOrderResult(operation: string, raw: Raw): OrderResult {
  const text = (field: string) => {
    const value = raw[field];
    if (typeof value !== 'string' || value === '') throw invalid(operation, field);
    return value;
  };
  const orderId = raw.orderId;
  return {
    avgPrice: toDecimal(operation, 'avgPrice', raw.avgPrice),
    executedQty: toDecimal(operation, 'executedQty', raw.executedQty),
    status: text('status'),
    clientOrderId: text('clientOrderId'),
    ...(typeof orderId === 'number' && Number.isSafeInteger(orderId) ? { orderId } : {}),
  };
}

/** A stop's state; with the exchange's orderId once it filled (its fills' commission is read by it). */
export function stopStateOf(order: OrderResult): StopOrderState {
  const state: StopOrderState = { status: order.status, avgPrice: positive(order.avgPrice) };
  return order.orderId === undefined || state.avgPrice === undefined
    ? state
    : { ...state, orderId: order.orderId };
}

/** The value when it is a decimal above zero ("0.00000" is "no fill yet"). */
export function positive(value: string): string | undefined {
  return /^\d+(\.\d+)?$/.test(value) && /[1-9]/.test(value) ? value : undefined;
}

/** The fills of GET /fapi/v1/userTrades; a commission as a cost (Binance's samples write it negative). */
export function toOrderFills(operation: string, raw: unknown): OrderFill[] {
  if (!Array.isArray(raw)) throw invalid(operation, 'fills');
  return raw.map((item) => {
    const fill = (item ?? {}) as Raw;
    const commission = toDecimal(operation, 'commission', fill.commission);
    const asset = fill.commissionAsset;
    if (typeof asset !== 'string' || asset === '') throw invalid(operation, 'commissionAsset');
    return {
      price: toDecimal(operation, 'price', fill.price),
      qty: toDecimal(operation, 'qty', fill.qty),
      commission: commission.startsWith('-') ? commission.slice(1) : commission,
      commissionAsset: asset,
    };
  });
}

/** The brackets of GET /fapi/v1/leverageBracket?symbol: one object, or a list holding the symbol's. */
export function toLeverageBrackets(operation: string, symbol: string, raw: unknown): LeverageBracket[] {
  const entry = (Array.isArray(raw) ? raw.find((item) => (item as Raw)?.symbol === symbol) : raw) as
    Raw | undefined;
  if (!entry || !Array.isArray(entry.brackets)) throw invalid(operation, 'brackets');
  const number = (bracket: Raw, field: string) => toDecimal(operation, field, numberText(bracket[field]));
  return entry.brackets.map((item) => {
    const bracket = (item ?? {}) as Raw;
    const leverage = Number(bracket.initialLeverage);
    return {
      notionalFloor: number(bracket, 'notionalFloor'),
      notionalCap: number(bracket, 'notionalCap'),
      maintMarginRatio: number(bracket, 'maintMarginRatio'),
      cum: number(bracket, 'cum'),
      ...(Number.isInteger(leverage) && leverage >= 1 && leverage <= 1000
        ? { initialLeverage: leverage }
        : {}),
    };
  });
}

/**
 * Every symbol's brackets from one answer of GET /fapi/v1/leverageBracket without a symbol (a list of
 * `{symbol, brackets}`); a symbol whose entry does not parse is left out, not the whole table.
 */
export function toLeverageBracketTable(operation: string, raw: unknown): Map<string, LeverageBracket[]> {
  if (!Array.isArray(raw)) throw invalid(operation, 'brackets');
  const table = new Map<string, LeverageBracket[]>();
  for (const item of raw) {
    const symbol = (item as Raw)?.symbol;
    if (typeof symbol !== 'string') continue;
    try {
      table.set(symbol, toLeverageBrackets(operation, symbol, [item]));
    } catch {
      // One bad entry loses that symbol's check only.
    }
  }
  return table;
}

/**
 * An answer of the relay itself: the exchange could not be reached or did not answer (a transport failure,
 * as when the page calls the exchange directly), or the relay refused the request (not sent: an exchange
 * refusal without a code, with the relay's detail as its text).
 */
export function relayError(operation: string, status: number, body: unknown): ExchangeError {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === 'string' && detail ? detail : `HTTP error ${status}`;
  if (status === 504) return new ExchangeError(operation, ExchangeFailure.TIMEOUT, 'Timeout');
  if (status === 502) return new ExchangeError(operation, ExchangeFailure.FETCH, text);
  return new ExchangeError(operation, ExchangeFailure.EXCHANGE, text, undefined, status);
}
