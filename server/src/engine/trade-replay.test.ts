// The one replay of signals as trades (issue 42), on hand-checked cases with the exits held by the exchange and
// the fees booked: a take profit at its trigger price, a stop at the stop price, a trailing stop at the callback
// below the best price, a reverse signal, and the risk limits that skip an open. Every figure below was worked
// out by hand from SPEC.md §5's formulas (comments) before the replay computed it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignalDirection } from '../../../contracts';
import { initTradeCore } from '../../../shared-core/trade-core-node';
import { DEFAULT_TAKER_RATE } from '../../../shared-core/trade-fees';
import { TradeReplay, type ReplayCandle, type ReplaySettings } from './trade-replay';

beforeAll(() => initTradeCore());

const MINUTE = 60_000;
const START = Date.UTC(2026, 0, 1, 12, 0);
const SYMBOL = { symbol_price_precision: 2, symbol_quantity_precision: 2 };
const SYMBOLS = new Map([
  ['SOLUSDT', { ...SYMBOL, symbol_uuid: '00000000-0000-4000-8000-0000000000a1' }],
  ['ETHUSDT', { ...SYMBOL, symbol_uuid: '00000000-0000-4000-8000-0000000000a2' }],
]);

const HAND_CHECKED = {
  trade_margin: 10,
  trade_leverage: 10,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 5,
  trade_treiling_stop_percent: 3,
};

/**
 * Margin 10, 10×, stop loss 10 %, take profit 5 %, trailing 3 % (the defaults before issue 42's study; pinned here,
 * the cases below are checked by hand with them), exits on the exchange.
 */
const SETTINGS: ReplaySettings = {
  preferences: HAND_CHECKED,
  minimalAccuracy: 60,
  exitsOnExchange: true,
  maxOpenTrades: 0,
  dailyLossLimit: 0,
  takerRate: DEFAULT_TAKER_RATE,
};

function replayOf(settings: Partial<ReplaySettings> = {}) {
  let n = 0;
  const replay = new TradeReplay({
    userUuid: '00000000-0000-4000-8000-0000000000f1',
    platformUuid: '00000000-0000-4000-8000-0000000000f2',
    symbolMap: SYMBOLS,
    settings: { ...SETTINGS, ...settings },
    tradeUuidOf: (signal) => signal,
  });
  /** A signal made at the end of minute `m`. */
  const signal = (m: number, direction: SignalDirection, price: string, symbol = 'SOLUSDT', accuracy = 0.7) =>
    replay.onStep(START + (m + 1) * MINUTE, {
      symbol,
      signals: [
        {
          signalUuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
          neuronUuid: '00000000-0000-4000-8000-0000000000e1',
          symbol,
          direction,
          priceEnter: price,
          accuracy,
        },
      ],
    });
  /** The candle of minute `m`. */
  const candle = (m: number, low: string, high: string, close: string, symbol = 'SOLUSDT') => {
    const value: ReplayCandle = { low, high, close, closeTime: START + (m + 1) * MINUTE - 1 };
    replay.onCandle(symbol, value);
  };
  return { replay, signal, candle };
}

const money = (replay: TradeReplay, index = 0) => {
  const row = replay.trades[index]!.row;
  return {
    status: row.trade_status,
    quantity: row.trade_quantity,
    stop: row.trade_stop_price,
    close: row.trade_close_price,
    pnl: row.trade_pnl_current,
    roe: row.trade_roe_current,
    openFee: row.trade_open_commission,
    closeFee: row.trade_close_commission,
    net: row.trade_pnl_net,
    roeNet: row.trade_roe_net,
  };
};

describe('the replay of signals as trades', () => {
  it('fills the exchange’s take profit at its trigger price when the high reaches it, net of both fees', () => {
    const { replay, signal, candle } = replayOf();
    signal(0, 'BUY', '100.00'); // quantity 10 × 10 ÷ 100 = 1.00; stop 100 × (1 − 10 ÷ 1000) = 99.00
    candle(1, '99.90', '100.40', '100.30'); // below the take profit 100 × (1 + 5 ÷ 1000) = 100.50
    expect(replay.trades[0]!.closedAt).toBeUndefined();
    candle(2, '100.20', '100.55', '100.35'); // the high crosses 100.50: filled there, not at the close
    expect(money(replay)).toEqual({
      status: 'take_profit',
      quantity: '1.00',
      stop: '99.00',
      close: '100.50',
      pnl: '0.5', // 1.00 × (100.50 − 100.00)
      roe: '5.00',
      openFee: '0.05000000', // 0.0005 × 1.00 × 100.00, 8 decimals as the exchange writes commissions
      closeFee: '0.05025000', // 0.0005 × 1.00 × 100.50
      net: '0.39975', // 0.5 − 0.05 − 0.05025
      roeNet: '4.00', // 0.39975 ÷ 10 × 100 = 3.9975
    });
    expect(replay.trades[0]!.closedAt).toBe(START + 3 * MINUTE - 1);
  });

  it('closes at the stop price when the candle reaches both the stop and the take profit (the stop first)', () => {
    const { replay, signal, candle } = replayOf();
    signal(0, 'SELL', '100.40'); // quantity ⌊100 ÷ 100.40⌋ = 0.99; stop 100.40 × 1.01 = 101.404 → 101.40
    candle(1, '99.80', '101.45', '100.50'); // the take profit 99.90 and the stop 101.40 both reached
    expect(money(replay)).toEqual({
      status: 'stop_loss',
      quantity: '0.99',
      stop: '101.40',
      close: '101.40',
      pnl: '-0.99', // 0.99 × (100.40 − 101.40)
      roe: '-9.96', // −0.99 ÷ (0.99 × 100.40 ÷ 10 = 9.9396) × 100
      openFee: '0.04969800', // 0.0005 × 0.99 × 100.40
      closeFee: '0.05019300', // 0.0005 × 0.99 × 101.40
      net: '-1.089891',
      roeNet: '-10.97', // −1.089891 ÷ 9.9396 × 100 = −10.965…
    });
  });

  it('a minute wholly beyond the stop (a gap) closes at its close, not at the stop price it skipped (issue 54)', () => {
    const { replay, signal, candle } = replayOf();
    signal(0, 'BUY', '100.00'); // quantity 1.00; stop 99.00, its limit 99.00 × 0.99 = 98.01, the backstop 98.00
    candle(1, '99.10', '100.20', '99.50'); // above the stop
    expect(replay.trades[0]!.closedAt).toBeUndefined();
    candle(2, '97.20', '97.90', '97.40'); // gapped from 99.50 past the limit: the backstop fills at market
    expect(money(replay)).toMatchObject({
      status: 'stop_loss',
      stop: '99.00',
      close: '97.40',
      pnl: '-2.6', // 1.00 × (97.40 − 100.00)
    });
    // A minute that touches the stop on its way down fills it at the stop price.
    const touched = replayOf();
    touched.signal(0, 'BUY', '100.00');
    touched.candle(1, '97.20', '99.00', '97.40');
    expect(money(touched.replay)).toMatchObject({ status: 'stop_loss', close: '99.00' });
  });

  it('fires the exchange’s trailing stop the callback rate below the best price since its activation', () => {
    // Take profit 10 % (at 101.00) keeps out of the way; trailing 3 % at 10× is a callback rate of 0.3 %,
    // activated at 100 × (1 + 3 ÷ 1000) = 100.30.
    const { replay, signal, candle } = replayOf({
      preferences: { ...HAND_CHECKED, trade_take_profit_percent: 10 },
    });
    signal(0, 'BUY', '100.00');
    candle(1, '99.90', '100.80', '100.70'); // activated; best 100.80, trigger 100.80 × 0.997 = 100.4976
    expect(replay.trades[0]!.closedAt).toBeUndefined();
    candle(2, '100.40', '100.75', '100.60'); // the low 100.40 ≤ 100.4976: filled at 100.50 (the tick)
    expect(money(replay)).toMatchObject({
      status: 'treiling_stop',
      close: '100.50',
      pnl: '0.5',
      closeFee: '0.05025000',
      net: '0.39975',
    });
  });

  it('leaves the trailing stop to the monitor’s rule on the close when the exchange cannot hold it', () => {
    // Trailing 2 % at 50× is a callback rate of 0.04 %, 0.0 at the exchange's one decimal, below its 0.1 %:
    // the monitor keeps it (its level: the best ROE − 2).
    const { replay, signal, candle } = replayOf({
      preferences: {
        ...HAND_CHECKED,
        trade_leverage: 50,
        trade_take_profit_percent: 20,
        trade_treiling_stop_percent: 2,
      },
    });
    signal(0, 'BUY', '100.00'); // quantity 10 × 50 ÷ 100 = 5.00, margin 10, stop 99.80
    candle(1, '99.95', '100.12', '100.10'); // ROE 5.00: best 5.00, level 3.00
    candle(2, '100.02', '100.08', '100.05'); // ROE 2.50 ≤ 3.00: TREILING_STOP at the close
    expect(money(replay)).toMatchObject({
      status: 'treiling_stop',
      close: '100.05',
      pnl: '0.25',
      roe: '2.50',
    });
  });

  it('closes on a reverse signal at its entry price, and opens nothing on that step', () => {
    const { replay, signal, candle } = replayOf();
    signal(0, 'BUY', '100.00');
    candle(1, '99.90', '100.25', '100.20');
    signal(1, 'SELL', '100.20');
    expect(replay.trades).toHaveLength(1);
    expect(money(replay)).toMatchObject({
      status: 'reverse_signal',
      close: '100.20',
      pnl: '0.2',
      closeFee: '0.05010000', // 0.0005 × 1.00 × 100.20
      net: '0.0999',
    });
    expect(replay.trades[0]!.closedAt).toBe(START + 2 * MINUTE);
    signal(2, 'SELL', '100.20');
    expect(replay.trades).toHaveLength(2);
  });

  it('skips an open that a risk limit refuses: the open trades, then the day’s loss net of fees', () => {
    const limited = replayOf({ maxOpenTrades: 1 });
    limited.signal(0, 'BUY', '100.00');
    limited.signal(0, 'BUY', '100.00', 'ETHUSDT');
    expect(limited.replay.trades.map((trade) => trade.pair)).toEqual(['SOLUSDT']);
    expect(limited.replay.skips.max_open_trades).toBe(1);

    const { replay, signal, candle } = replayOf({ dailyLossLimit: 1 });
    signal(0, 'SELL', '100.40');
    candle(1, '99.80', '101.45', '100.50'); // the stop: −1.089891 net, a loss of 1.09 ≥ 1
    signal(1, 'BUY', '100.00', 'ETHUSDT');
    expect(replay.trades).toHaveLength(1);
    expect(replay.skips.daily_loss_limit).toBe(1);
    // The next UTC day starts with no loss.
    replay.onStep(Date.UTC(2026, 0, 2, 0, 1), {
      symbol: 'ETHUSDT',
      signals: [
        {
          signalUuid: '00000000-0000-4000-8000-0000000000d1',
          neuronUuid: '00000000-0000-4000-8000-0000000000e1',
          symbol: 'ETHUSDT',
          direction: 'BUY',
          priceEnter: '100.00',
          accuracy: 0.7,
        },
      ],
    });
    expect(replay.trades).toHaveLength(2);
  });

  it('opens nothing below the minimal accuracy, and one trade per symbol', () => {
    const { replay, signal } = replayOf({ minimalAccuracy: 75 });
    signal(0, 'BUY', '100.00', 'SOLUSDT', 0.74);
    expect(replay.trades).toHaveLength(0);
    signal(1, 'BUY', '100.00', 'SOLUSDT', 0.75);
    signal(2, 'BUY', '100.10', 'SOLUSDT', 0.8);
    expect(replay.trades).toHaveLength(1);
    expect(replay.skips.symbol_busy).toBe(1);
  });
});
