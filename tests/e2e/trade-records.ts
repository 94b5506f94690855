// A client-mode trade as the SPA records it after opening the position (POST /api/trade_client/create_trade/,
// SPEC.md §7), for tests and benches that need many open trades without opening positions: the order ids are
// the SPA's for the signal, the quantity about 100 USDT at the entry price, the stop 1 % away. No test runner in
// here (the benches import it too).
import Decimal from 'decimal.js';
import type { Signal } from '../../contracts';

export interface TradeRecordInput {
  signal_uuid: string;
  /** The entry price (the signal's). */
  price: string;
  direction: string;
  pricePrecision: number;
  quantityPrecision?: number;
}

export function clientTradeBody({
  signal_uuid,
  price,
  direction,
  pricePrecision,
  quantityPrecision = 3,
}: TradeRecordInput) {
  const entry = new Decimal(price);
  const step = new Decimal(10).pow(-quantityPrecision);
  const quantity = Decimal.max(step, new Decimal(100).div(entry)).toFixed(
    quantityPrecision,
    Decimal.ROUND_DOWN,
  );
  const key = signal_uuid.replace(/-/g, '');
  const stop = entry.mul(direction === 'BUY' ? '0.99' : '1.01');
  return {
    signal_uuid,
    trade_margin: 10,
    trade_leverage: 10,
    trade_stop_loss_percent: 10,
    trade_take_profit_percent: 5,
    trade_treiling_stop_percent: 3,
    trade_quantity: quantity,
    trade_open_price: entry.toFixed(pricePrecision),
    trade_order_id: `sdo${key}`,
    trade_stop_order_id: `sds${key}`,
    trade_stop_price: stop.toFixed(pricePrecision),
  };
}

/** The record of a trade on a signal as the API lists it (GET /signal/get_recent_signal_list/). */
export const clientTradeBodyOf = (signal: Signal) =>
  clientTradeBody({
    signal_uuid: signal.signal_uuid,
    price: String(signal.signal_price_enter),
    direction: signal.signal_direction_created,
    pricePrecision: signal.symbol.symbol_price_precision,
  });
