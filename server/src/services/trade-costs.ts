// The cockpit's columns of a trade (issue 18): what the exchange told of a position's opening commission and
// maintenance bracket, and what follows from them (liquidation price, closing commission, net PNL and ROE).
// The math is trade-core's (trade-math.ts); docs/decisions.md "The cockpit — fees and liquidation (issue 18)".
import type { ExchangeClient } from '../../../shared-core/exchange-client';
import { readOpeningCosts } from '../../../shared-core/trade-flow';
import type { NewTradeRow, TradeRow } from '../db/schema-trades';
import {
  closeCommissionAt,
  liquidationOf,
  netPnlAndRoe,
  positionMargin,
  tradeFees,
  type TradeFees,
  type TradePosition,
} from './trade-math';

/** What the exchange told of a new position's costs and maintenance (trade-flow OpeningCosts, issue 18). */
export interface OpeningCostsInput {
  trade_open_commission?: string | null;
  trade_maint_margin_rate?: string | null;
  trade_maint_amount?: string | null;
}

/**
 * The cockpit's columns of a position just recorded (issue 18): what the exchange told, the liquidation price
 * computed once from it (it does not move with the price), and the closing commission and net figures at the
 * entry price, until the monitor's first price replaces them.
 */
export function openingCostColumns(
  position: TradePosition,
  costs: OpeningCostsInput,
  pricePrecision: number,
): Pick<
  NewTradeRow,
  | 'trade_open_commission'
  | 'trade_maint_margin_rate'
  | 'trade_maint_amount'
  | 'trade_liquidation_price'
  | 'trade_close_commission'
  | 'trade_pnl_net'
  | 'trade_roe_net'
> {
  const maint = { rate: costs.trade_maint_margin_rate ?? null, amount: costs.trade_maint_amount ?? null };
  const open = costs.trade_open_commission ?? null;
  const fees = tradeFees(open, position);
  const close = fees ? closeCommissionAt(fees, position.trade_open_price) : undefined;
  const net =
    fees && close !== undefined ? netPnlAndRoe('0', fees.open, close, positionMargin(position)) : undefined;
  return {
    trade_open_commission: open,
    trade_maint_margin_rate: maint.rate,
    trade_maint_amount: maint.amount,
    trade_liquidation_price: liquidationOf(position, maint, pricePrecision) ?? null,
    trade_close_commission: close ?? null,
    trade_pnl_net: net?.pnlNet ?? null,
    trade_roe_net: net?.roeNet ?? null,
  };
}

/** The position of a row whose entry price and quantity are known. */
export function positionOf(row: TradeRow): TradePosition | undefined {
  if (!row.trade_open_price || !row.trade_quantity) return undefined;
  return {
    trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
    trade_open_price: row.trade_open_price,
    trade_quantity: row.trade_quantity,
    trade_leverage: row.trade_leverage,
  };
}

/** The wire trade of a listable row; `live` overlays the monitor's calculated fields. */

/** The closing commission at `price` and the PNL and ROE net of both commissions (the monitor, per price). */
export function netColumnsAt(
  fees: TradeFees,
  price: string,
  pnl: string,
  margin: string,
): { trade_close_commission: string; trade_pnl_net: string; trade_roe_net: string } {
  const close = closeCommissionAt(fees, price);
  const net = netPnlAndRoe(pnl, fees.open, close, margin);
  return { trade_close_commission: close, trade_pnl_net: net.pnlNet, trade_roe_net: net.roeNet };
}

/**
 * The cockpit's columns of a position learnt only after its open (the reconciler): what the open would have
 * read after its MARKET order, read now from its order's fills (by the exchange's `orderId`) and the brackets.
 */
export async function readCostColumns(
  client: ExchangeClient,
  symbol: { symbol_pair: string; symbol_price_precision: number },
  position: TradePosition,
  orderId: number | undefined,
): Promise<ReturnType<typeof openingCostColumns>> {
  const { trade_open_price: entry, trade_quantity: quantity } = position;
  const costs = await readOpeningCosts(client, symbol.symbol_pair, { orderId, executedQty: quantity }, entry);
  return openingCostColumns(position, costs, symbol.symbol_price_precision);
}

/** The position of a row at an entry price and quantity learnt from the exchange. */
export const positionAt = (row: TradeRow, entry: string, quantity: string): TradePosition => ({
  trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
  trade_open_price: entry,
  trade_quantity: quantity,
  trade_leverage: row.trade_leverage,
});
