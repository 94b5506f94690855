// Wire-shaped trades (contracts/trades.ts) for the SPA tests.
import type { Trade, TradeCalculated } from '../../contracts';
import { BTC_UUID, PLATFORM_UUID } from './live-fixtures';

let counter = 0;

/** A trade uuid with an increasing suffix. */
function nextTradeUuid(): string {
  counter += 1;
  return `66666666-6666-4666-8666-${String(counter).padStart(12, '0')}`;
}

/** An open client-mode BUY trade on BTCUSDT; fields may be overridden. */
export function makeTrade(overrides: Partial<Trade> = {}): Trade {
  const trade_uuid = overrides.trade_uuid ?? nextTradeUuid();
  return {
    trade_uuid,
    platform_uuid: PLATFORM_UUID,
    signal_uuid: `99999999-9999-4999-8999-${trade_uuid.slice(-12)}`,
    symbol: {
      symbol_uuid: BTC_UUID,
      symbol_name: 'BTC',
      symbol_pair: 'BTCUSDT',
      symbol_price_precision: 1,
      symbol_quantity_precision: 3,
    },
    trade_direction: 'BUY',
    trade_in_server_side: 0,
    trade_open_price: '97000.0',
    trade_close_price: null,
    trade_current_price: '97100.0',
    trade_last_update_price: 1,
    trade_margin: '10',
    trade_quantity: '0.002',
    trade_leverage: 20,
    trade_stop_loss_percent: 10,
    trade_take_profit_percent: 5,
    trade_treiling_stop_percent: 3,
    trade_stop_price: '96515.0',
    trade_order_id: `sdo${trade_uuid.replace(/-/g, '')}`,
    trade_stop_order_id: `sds${trade_uuid.replace(/-/g, '')}`,
    trade_error: null,
    trade_pnl_current: '0.2',
    trade_roe_current: '2.06',
    trade_treiling_stop_percent_current: '-10',
    trade_status: 'open',
    trade_ui_status: null,
    trade_update_timestamp: '2026-11-22T07:01:00.000Z',
    trade_create_timestamp: '2026-11-22T07:00:00.000Z',
    trade_close_timestamp: null,
    ...overrides,
  };
}

/** The calculated fields of `trade`, with overrides (a trade_updated_response_from_core message). */
export function makeCalculated(trade: Trade, overrides: Partial<TradeCalculated> = {}): TradeCalculated {
  return {
    trade_current_price: trade.trade_current_price,
    trade_last_update_price: trade.trade_last_update_price,
    trade_pnl_current: trade.trade_pnl_current,
    trade_roe_current: trade.trade_roe_current,
    trade_treiling_stop_percent_current: trade.trade_treiling_stop_percent_current,
    trade_status: trade.trade_status,
    trade_ui_status: trade.trade_ui_status,
    trade_update_timestamp: trade.trade_update_timestamp,
    ...overrides,
  };
}
