// The trade monitor driven with prices and signals directly (SPEC.md §4 "Trade status and UI status"): live
// PNL and ROE, the trailing level, edge-triggered TAKE_PROFIT / STOP_LOSS / TREILING_STOP that re-arm only
// after their condition was false, DIRECTION_SIGNAL / REVERSE_SIGNAL and which status may replace which,
// the owner's trade_updated_response_from_core, batched storing, and a restart that loses nothing.
// Prices: a BUY of 0.002 at 97000 with 10× leverage has ROE = (price / 97000 − 1) × 1000 %.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradeUpdatedEvent, type ServerEvent, type TradeCalculated } from '../../../contracts';
import { trades } from '../db/schema-trades';
import { BINANCE_PLATFORM_UUID } from '../services/platforms';
import {
  createClientTrade,
  ensureTestSymbol,
  signUpAndLogIn,
  createTestApp,
  type TestApp,
} from '../../test/test-app';
import { TradeMonitor } from './trade-monitor';

let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
const sent: { user: string; event: ServerEvent }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  trader = await signUpAndLogIn(t.app, 'monitor');
  const original = t.hub.sendToUser.bind(t.hub);
  t.hub.sendToUser = (user, event) => {
    sent.push({ user, event });
    original(user, event);
  };
});
afterAll(async () => t?.close());

/** The UI statuses sent for a trade, in order. */
/** The UI statuses pushed for a trade after the push that announced its creation (the create routes send it). */
const uiEvents = (tradeUuid: string) =>
  sent
    .map(({ event }) => tradeUpdatedEvent.safeParse(event))
    .filter((parsed) => parsed.success && parsed.data.message.trade_uuid === tradeUuid)
    .map((parsed) => parsed.data!.message.trade_update_calculated.trade_ui_status)
    .slice(1);

const live = (tradeUuid: string) => t.monitor.calculated(tradeUuid) as TradeCalculated;

async function reset(tradeUuid: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/trade/update_trade_status/',
    headers: trader.headers,
    payload: { trade_uuid: tradeUuid, trade_status: 'open' },
  });
  expect(response.statusCode).toBe(200);
}

describe('trade monitor: prices', () => {
  it('recalculates price, direction, PNL and ROE of every open trade on the symbol', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'XRPUSDT' });
    t.monitor.onPrice('XRPUSDT', '97100');
    expect(live(trade.trade_uuid)).toMatchObject({
      trade_current_price: '97100',
      trade_last_update_price: 1,
      trade_pnl_current: '0.2',
      trade_roe_current: '1.03',
      // A gain below the trailing percent (3) leaves the level at −stop loss %.
      trade_treiling_stop_percent_current: '-10.00',
      trade_ui_status: null,
    });
    t.monitor.onPrice('XRPUSDT', '96900');
    expect(live(trade.trade_uuid)).toMatchObject({ trade_last_update_price: -1, trade_pnl_current: '-0.2' });
    t.monitor.onPrice('XRPUSDT', '96900');
    expect(live(trade.trade_uuid).trade_last_update_price).toBe(0);
    // Another symbol's price changes nothing.
    t.monitor.onPrice('BTCUSDT', '50000');
    expect(live(trade.trade_uuid).trade_current_price).toBe('96900');
  });

  it('follows the feed’s mark prices even with no socket connected', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'XRPUSDT' });
    expect(t.hub.size).toBe(0);
    t.feed.emit('tick', { symbol: 'XRPUSDT', price: '97050', time: Date.now() });
    expect(live(trade.trade_uuid).trade_pnl_current).toBe('0.1');
  });

  it('fires TAKE_PROFIT on the edge only, and again only after the condition was false', async () => {
    // A trailing stop of 50 % stays out of the way.
    const trade = await createClientTrade(t, trader.headers, {
      symbol_pair: 'ETHUSDT',
      trade_treiling_stop_percent: 50,
    });
    const uuid = trade.trade_uuid;
    t.monitor.onPrice('ETHUSDT', '97100');
    expect(uiEvents(uuid)).toEqual([]);
    t.monitor.onPrice('ETHUSDT', '97485'); // ROE 5.00 = take profit
    expect(uiEvents(uuid)).toEqual(['TAKE_PROFIT']);
    expect(sent.at(-1)?.user).toBe(trader.user_uuid);
    t.monitor.onPrice('ETHUSDT', '97600');
    expect(uiEvents(uuid)).toEqual(['TAKE_PROFIT']);
    await t.monitor.idle();
    const [stored] = await t.db.select().from(trades).where(eq(trades.trade_uuid, uuid));
    expect(stored?.trade_ui_status).toBe('TAKE_PROFIT');

    await reset(uuid);
    t.monitor.onPrice('ETHUSDT', '97700'); // still above: no new edge
    expect(live(uuid).trade_ui_status).toBeNull();
    t.monitor.onPrice('ETHUSDT', '97200'); // below: the condition is false
    t.monitor.onPrice('ETHUSDT', '97500'); // and true again
    expect(live(uuid).trade_ui_status).toBe('TAKE_PROFIT');
    expect(uiEvents(uuid).filter((status) => status === 'TAKE_PROFIT')).toHaveLength(2);
  });

  it('raises the trailing level with the best ROE, never lowers it, and fires TREILING_STOP at it', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'SOLUSDT' });
    const uuid = trade.trade_uuid;
    t.monitor.onPrice('SOLUSDT', '96900');
    t.monitor.onPrice('SOLUSDT', '97000'); // no gain yet: the level stays at −stop loss %
    expect(live(uuid).trade_treiling_stop_percent_current).toBe('-10.00');
    t.monitor.onPrice('SOLUSDT', '97970'); // ROE 10.00: level 10 − 3 = 7.00; take profit fires
    expect(live(uuid)).toMatchObject({
      trade_roe_current: '10.00',
      trade_treiling_stop_percent_current: '7.00',
    });
    await reset(uuid);
    t.monitor.onPrice('SOLUSDT', '97800'); // ROE 8.25: above the level
    expect(live(uuid)).toMatchObject({ trade_treiling_stop_percent_current: '7.00', trade_ui_status: null });
    t.monitor.onPrice('SOLUSDT', '97679'); // ROE 7.00 ≤ 7.00
    expect(live(uuid).trade_ui_status).toBe('TREILING_STOP');
    t.monitor.onPrice('SOLUSDT', '96500');
    expect(live(uuid).trade_treiling_stop_percent_current).toBe('7.00');
    expect(uiEvents(uuid)).toEqual(['TAKE_PROFIT', null, 'TREILING_STOP']);
  });

  it('fires STOP_LOSS at −stop loss %, not TREILING_STOP while the level has not risen', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'ADAUSDT' });
    t.monitor.onPrice('ADAUSDT', '96100'); // ROE −9.28
    expect(live(trade.trade_uuid).trade_ui_status).toBeNull();
    t.monitor.onPrice('ADAUSDT', '96030'); // ROE −10.00
    expect(live(trade.trade_uuid).trade_ui_status).toBe('STOP_LOSS');
    expect(uiEvents(trade.trade_uuid)).toEqual(['STOP_LOSS']);
  });

  it('computes a SELL the other way round', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'LTCUSDT', direction: 'SELL' });
    t.monitor.onPrice('LTCUSDT', '96515'); // ROE +5.00
    expect(live(trade.trade_uuid)).toMatchObject({
      trade_pnl_current: '0.97',
      trade_roe_current: '5.00',
      trade_ui_status: 'TAKE_PROFIT',
    });
  });
});

describe('trade monitor: signals', () => {
  const signalOn = async (pair: string, direction: string, accuracy: number | null = 0.7) => {
    const symbol = await ensureTestSymbol(t.db, pair);
    return { platform_uuid: BINANCE_PLATFORM_UUID, symbol_uuid: symbol.symbol_uuid, direction, accuracy };
  };

  it('marks DIRECTION_SIGNAL, which only STOP_LOSS or TREILING_STOP replace', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'DOGEUSDT' });
    const uuid = trade.trade_uuid;
    await t.monitor.onSignals([await signalOn('DOGEUSDT', 'BUY')]);
    expect(live(uuid).trade_ui_status).toBe('DIRECTION_SIGNAL');
    await t.monitor.onSignals([await signalOn('DOGEUSDT', 'SELL')]);
    expect(live(uuid).trade_ui_status).toBe('DIRECTION_SIGNAL');
    t.monitor.onPrice('DOGEUSDT', '97485'); // take profit does not replace it
    expect(live(uuid).trade_ui_status).toBe('DIRECTION_SIGNAL');
    t.monitor.onPrice('DOGEUSDT', '96030'); // stop loss does
    expect(uiEvents(uuid)).toEqual(['DIRECTION_SIGNAL', 'STOP_LOSS']);
  });

  it('marks REVERSE_SIGNAL, which nothing replaces until a reset', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'BNBUSDT' });
    const uuid = trade.trade_uuid;
    await t.monitor.onSignals([await signalOn('BNBUSDT', 'SELL')]);
    expect(live(uuid).trade_ui_status).toBe('REVERSE_SIGNAL');
    t.monitor.onPrice('BNBUSDT', '96030');
    expect(live(uuid).trade_ui_status).toBe('REVERSE_SIGNAL');
    await reset(uuid);
    await t.monitor.onSignals([await signalOn('BNBUSDT', 'BUY')]);
    expect(uiEvents(uuid)).toEqual(['REVERSE_SIGNAL', null, 'DIRECTION_SIGNAL']);
  });

  it('ignores signals of another platform or symbol, without accuracy, or below minimal_accuracy', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'AVAXUSDT' });
    const other = await signalOn('AVAXUSDT', 'BUY');
    await t.monitor.onSignals([
      { ...other, platform_uuid: crypto.randomUUID() },
      await signalOn('TRXUSDT', 'BUY'),
      await signalOn('AVAXUSDT', 'BUY', null),
      await signalOn('AVAXUSDT', 'BUY', 0.55), // the default minimal_accuracy is 60
    ]);
    expect(live(trade.trade_uuid).trade_ui_status).toBeNull();
  });
});

describe('trade monitor: storing and restart', () => {
  it('stores price fields in batches and continues after a restart with nothing lost', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'LINKUSDT' });
    const uuid = trade.trade_uuid;
    t.monitor.onPrice('LINKUSDT', '97970'); // TAKE_PROFIT, level 7.00
    await reset(uuid);
    t.monitor.onPrice('LINKUSDT', '97800');
    const before = live(uuid);
    const [unflushed] = await t.db.select().from(trades).where(eq(trades.trade_uuid, uuid));
    expect(unflushed?.trade_current_price).not.toBe('97800');
    await t.monitor.flush();
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, uuid));
    expect(row).toMatchObject({
      trade_current_price: '97800',
      trade_pnl_current: before.trade_pnl_current,
      trade_roe_current: '8.25',
      trade_treiling_stop_percent_current: '7.00',
      trade_best_roe: '10.00',
      trade_ui_status: null,
    });

    const restarted = new TradeMonitor({ db: t.db, hub: t.hub, log: { warn: () => undefined } });
    await restarted.start();
    try {
      expect(restarted.calculated(uuid)).toEqual(before);
      // The take-profit condition still holds after the restart: it is not an edge.
      restarted.onPrice('LINKUSDT', '97750');
      expect(restarted.calculated(uuid)?.trade_ui_status).toBeNull();
      restarted.onPrice('LINKUSDT', '97679'); // ROE 7.00: trailing stop
      expect(restarted.calculated(uuid)?.trade_ui_status).toBe('TREILING_STOP');
    } finally {
      await restarted.close();
    }
  });
});
