import { beforeAll, describe, expect, test } from 'vitest';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { makeTrade } from '../../testing/trade-fixtures';
import { priceAtRoe, tradeLines, tradeMarkers } from './trade-chart-lines';

beforeAll(loadTradeCoreForTests);

const t = (key: string) => key;
const prices = (lines: ReturnType<typeof tradeLines>) =>
  Object.fromEntries(lines.map((line) => [line.id, line.price]));

describe('the chart lines of a trade, exact', () => {
  test('priceAtRoe: entry moved by ROE ÷ leverage, towards profit or loss by the sign, per direction', () => {
    const buy = makeTrade({ trade_open_price: '97000.0', trade_leverage: 20 });
    expect(priceAtRoe(buy, '5')).toBe('97242.5');
    expect(priceAtRoe(buy, '-10')).toBe('96515.0');
    expect(priceAtRoe(buy, '0')).toBe('97000.0');
    const sell = { ...buy, trade_direction: 'SELL' as const };
    expect(priceAtRoe(sell, '5')).toBe('96757.5');
    expect(priceAtRoe(sell, '-10')).toBe('97485.0');
    // A loss of the whole margin and more has no price for a BUY.
    expect(priceAtRoe(buy, '-2000')).toBeUndefined();
  });

  test('entry and stop as sent; take-profit and trailing computed when the server sends none', () => {
    const trade = makeTrade({ trade_treiling_stop_percent_current: '3' });
    expect(prices(tradeLines(trade, t))).toEqual({
      entry: '97000.0',
      stop: '96515.0',
      take_profit: '97242.5',
      trailing: '97145.5',
    });
  });

  test('before it trails, the trailing stop is drawn at its activation price, not on the stop line (issue 53)', () => {
    // The opening level −10 % (the stop's): it trails from the first tick whose ROE, to 2 decimals as the monitor
    // rounds it, reaches 3 %: 97145.3 (ROE 2.9958… → 3.00; 97145.2 is 2.99).
    const lines = tradeLines(makeTrade({ trade_treiling_stop_price: '96515.0' }), t);
    expect(prices(lines)).toEqual({
      entry: '97000.0',
      stop: '96515.0',
      take_profit: '97242.5',
      trailing_activation: '97145.3',
    });
    expect(lines.find((line) => line.id === 'trailing_activation')?.label).toBe('chart.trailing_activation');
    // A SELL activates below its entry: the highest tick with 97000 − p ≥ 145.2575, 96854.7.
    expect(prices(tradeLines(makeTrade({ trade_direction: 'SELL' }), t)).trailing_activation).toBe('96854.7');
  });

  test("the stop's market backstop is drawn where the exchange holds it, not where it refused it (issue 54)", () => {
    const held = tradeLines(makeTrade({ trade_backstop: { held_by: 'exchange', price: '96029.9' } }), t);
    expect(held.find((line) => line.id === 'backstop')).toMatchObject({
      price: '96029.9',
      label: 'chart.backstop',
      dashed: true,
    });
    const refused = { held_by: 'signaldesk' as const, reason: 'refused' };
    expect(prices(tradeLines(makeTrade({ trade_backstop: refused }), t)).backstop).toBeUndefined();
    expect(prices(tradeLines(makeTrade(), t)).backstop).toBeUndefined();
  });

  test("the server's take-profit, trailing and liquidation prices win and are drawn when present", () => {
    const trade = makeTrade({
      trade_treiling_stop_percent_current: '1.5',
      trade_take_profit_price: '97242.6',
      trade_treiling_stop_price: '96600.0',
      trade_liquidation_price: '92600.0',
    });
    expect(prices(tradeLines(trade, t))).toMatchObject({
      take_profit: '97242.6',
      trailing: '96600.0',
      liquidation: '92600.0',
    });
    expect(prices(tradeLines(makeTrade({ trade_liquidation_price: null }), t))).not.toHaveProperty(
      'liquidation',
    );
  });

  test('markers: each trade opened, closed ones closed, oldest first', () => {
    const open = makeTrade({ trade_create_timestamp: '2026-11-22T08:00:00.000Z' });
    const closed = makeTrade({
      trade_direction: 'SELL',
      trade_create_timestamp: '2026-11-22T07:00:00.000Z',
      trade_close_timestamp: '2026-11-22T07:30:00.000Z',
    });
    const markers = tradeMarkers([open, closed], t);
    expect(markers.map((marker) => [marker.kind, new Date(marker.time).toISOString(), marker.label])).toEqual(
      [
        ['open', '2026-11-22T07:00:00.000Z', 'chart.opened_sell'],
        ['close', '2026-11-22T07:30:00.000Z', 'chart.closed'],
        ['open', '2026-11-22T08:00:00.000Z', 'chart.opened_buy'],
      ],
    );
  });
});
