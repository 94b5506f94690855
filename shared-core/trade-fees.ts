// Fills and fees of a trade's orders (issue 18): the commission the exchange charged for an order's fills
// (GET /fapi/v1/userTrades) and the maintenance bracket of a position (GET /fapi/v1/leverageBracket), read
// after the MARKET order, never before it. docs/decisions.md "The cockpit — fees and liquidation (issue 18)".
import type { ExchangeClient, LeverageBracket, OrderFill, OrderResult } from './exchange-client';
import { compareDecimals, divDecimals, mulDecimals, notional, roundDecimal, sumDecimals } from './trade-core';
import { unlessExchangeError } from './trade-flow-common';

/**
 * What the open costs and where its maintenance lies (issue 18), read after the MARKET order together with the
 * stop; null when the exchange did not tell (a failed read, or a commission charged in another asset).
 */
export interface OpeningCosts {
  /** Commission of the opening fills (USDT, a cost ≥ 0), summed as the exchange reported them. */
  trade_open_commission?: string | null;
  /** Maintenance margin rate of the leverage bracket of the position's notional (quantity × entry). */
  trade_maint_margin_rate?: string | null;
  /** That bracket's maintenance amount (`cum`, USDT). */
  trade_maint_amount?: string | null;
}

/**
 * The opening fill's commission and the maintenance bracket of the position (issue 18), read together. Never
 * fails the open: a read the exchange does not answer leaves its figures null.
 */
export async function readOpeningCosts(
  client: ExchangeClient,
  symbol: string,
  order: Pick<OrderResult, 'orderId' | 'executedQty'>,
  entryPrice: string,
  /** The brackets read before the order (openPosition), when it read them: not read again. */
  known?: readonly LeverageBracket[],
): Promise<OpeningCosts> {
  const [commission, brackets] = await Promise.all([
    orderCommission(client, symbol, order.orderId),
    known ?? client.getLeverageBrackets(symbol).catch(unlessExchangeError),
  ]);
  const bracket = brackets && bracketOf(brackets, notional(order.executedQty, entryPrice));
  return {
    trade_open_commission: commission ?? null,
    trade_maint_margin_rate: bracket?.maintMarginRatio ?? null,
    trade_maint_amount: bracket?.cum ?? null,
  };
}

/**
 * The commission the exchange charged for an order's fills (USDT, summed), read by its orderId; undefined when
 * it cannot be known: no id, a failed read, no fill, or a fill charged in another asset than the symbol's
 * margin asset (an account paying its fees in BNB).
 */
export async function orderCommission(
  client: ExchangeClient,
  symbol: string,
  orderId: number | undefined,
): Promise<string | undefined> {
  if (orderId === undefined) return undefined;
  const fills = await client.getOrderFills(symbol, orderId).catch(unlessExchangeError);
  return fills && commissionOf(symbol, fills);
}

function commissionOf(symbol: string, fills: readonly OrderFill[]): string | undefined {
  if (fills.length === 0 || fills.some((fill) => !symbol.endsWith(fill.commissionAsset))) return undefined;
  return sumDecimals(fills.map((fill) => fill.commission));
}

/** The bracket whose [notionalFloor, notionalCap) holds `positionNotional`; the last one beyond its cap. */
export function bracketOf(
  brackets: readonly LeverageBracket[],
  positionNotional: string,
): LeverageBracket | undefined {
  return (
    brackets.find(
      (bracket) =>
        compareDecimals(positionNotional, bracket.notionalFloor) >= 0 &&
        compareDecimals(positionNotional, bracket.notionalCap) < 0,
    ) ?? brackets[brackets.length - 1]
  );
}

/**
 * The fee rate of a round trip's estimate (issue 36; also the what-if replay's): Binance USDⓈ-M futures' base
 * taker rate, 0.05 % (VIP 0, no BNB discount), until the trader's own charged rate is known.
 */
export const DEFAULT_TAKER_RATE = '0.0005';

/**
 * The taker rate the exchange charged a trade's opening fill: its commission ÷ its notional (quantity × entry),
 * 8 decimals; undefined when the commission is not known (paid in BNB, not read, a trade from before issue 18).
 */
export function chargedTakerRate(trade: {
  trade_open_commission?: string | null;
  trade_quantity: string;
  trade_open_price: string;
}): string | undefined {
  const commission = trade.trade_open_commission;
  const value = notional(trade.trade_quantity, trade.trade_open_price);
  if (!commission || compareDecimals(value, '0') <= 0) return undefined;
  return divDecimals(commission, value, 8);
}

/**
 * What the round trip's fees (opening and closing at `rate`, both as takers) take of the margin at `leverage`,
 * as a ROE in percent: 2 × rate × leverage × 100, 2 decimals. A take profit at or below it loses money.
 */
export function roundTripFeeRoe(rate: string, leverage: number): string {
  return roundDecimal(mulDecimals(mulDecimals(rate, String(2 * leverage)), '100'), 2);
}
