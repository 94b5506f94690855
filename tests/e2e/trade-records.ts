// A client-mode trade as the SPA records it after opening the position (POST /api/trade_client/create_trade/,
// SPEC.md §7), for tests and benches that need many open trades without opening positions: the order ids are
// the SPA's for the signal, the quantity about 100 USDT at the signal's price. No test runner in here (the
// benches import it too).
import Decimal from 'decimal.js';
import type { Signal } from '../../contracts';

export function clientTradeBody(signal: Signal) {
  const price = new Decimal(signal.signal_price_enter);
  const quantity = Decimal.max('0.001', new Decimal(100).div(price)).toFixed(3, Decimal.ROUND_DOWN);
  const key = signal.signal_uuid.replace(/-/g, '');
  const stop = price.mul(signal.signal_direction_created === 'BUY' ? '0.99' : '1.01');
  return {
    signal_uuid: signal.signal_uuid,
    trade_margin: 10,
    trade_leverage: 10,
    trade_stop_loss_percent: 10,
    trade_take_profit_percent: 5,
    trade_treiling_stop_percent: 3,
    trade_quantity: quantity,
    trade_open_price: price.toString(),
    trade_order_id: `sdo${key}`,
    trade_stop_order_id: `sds${key}`,
    trade_stop_price: stop.toFixed(signal.symbol.symbol_price_precision),
  };
}
