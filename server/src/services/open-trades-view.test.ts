// The open list served from memory (open-trades-view.ts) must answer exactly what reading the database and the
// monitor answers, through every change a trade goes through: recorded, priced, flagged, reset, repaired,
// closed. Each step compares GET /api/trade/get_trades/open/ with the list built directly from the rows.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradeListAnswer } from '../../../contracts';
import { trades } from '../db/schema-trades';
import { createClientTrade, createTestApp, signUpAndLogIn, type TestApp } from '../../test/test-app';
import { listOpenTrades, toWireTrade, updateTrade } from './trades';

let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  t = await createTestApp();
  trader = await signUpAndLogIn(t.app, 'viewer');
});
afterAll(async () => t?.close());

async function served() {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/trade/get_trades/open/',
    headers: trader.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return tradeListAnswer.parse(response.json()).result.trade_list;
}

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: trader.headers, payload });

/** What the route answered before the view: the rows read now, with the monitor's live fields. */
async function direct() {
  const rows = await listOpenTrades(t.db, trader.user_uuid);
  return rows.map(({ trade, symbol }) => toWireTrade(trade, symbol, t.monitor.calculated(trade.trade_uuid)));
}

async function expectFresh() {
  const list = await served();
  expect(list).toEqual(await direct());
  return list;
}

describe('GET /api/trade/get_trades/open/ from memory', () => {
  it('follows every change of the trader’s trades', async () => {
    expect(await expectFresh()).toEqual([]);
    const first = await createClientTrade(t, trader.headers);
    expect((await expectFresh()).map((trade) => trade.trade_uuid)).toEqual([first.trade_uuid]);

    // A price: live PNL, twice in a row (the second answer must not be the first one kept).
    t.monitor.onPrice('BTCUSDT', '97100');
    expect((await expectFresh())[0]).toMatchObject({
      trade_current_price: '97100',
      trade_pnl_current: '0.2',
    });
    t.monitor.onPrice('BTCUSDT', '96900');
    expect((await expectFresh())[0]).toMatchObject({
      trade_current_price: '96900',
      trade_pnl_current: '-0.2',
    });

    // A UI status raised by the monitor, then reset through the API.
    t.monitor.onPrice('BTCUSDT', '97500');
    expect((await expectFresh())[0]?.trade_ui_status).toBe('TAKE_PROFIT');
    const reset = await post('/api/trade/update_trade_status/', {
      trade_uuid: first.trade_uuid,
      trade_status: 'open',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await expectFresh())[0]?.trade_ui_status).toBeNull();

    // A stored field the monitor does not hold (a stop found missing by a check).
    const second = await createClientTrade(t, trader.headers);
    expect(await expectFresh()).toHaveLength(2);
    await updateTrade(t.db, second.trade_uuid, { trade_error: 'stop_missing' });
    const withError = await expectFresh();
    expect(withError.find((trade) => trade.trade_uuid === second.trade_uuid)?.trade_error).toBe(
      'stop_missing',
    );

    // Closed: gone from the list at once.
    const close = await post('/api/trade_client/close_trade/', {
      trade_uuid: first.trade_uuid,
      trade_status: 'manual_close',
    });
    expect(close.statusCode, close.body).toBe(200);
    expect((await expectFresh()).map((trade) => trade.trade_uuid)).toEqual([second.trade_uuid]);
  });

  it('keeps one trader’s list apart from another’s', async () => {
    const other = await signUpAndLogIn(t.app, 'other-viewer');
    const theirs = await createClientTrade(t, other.headers);
    const mine = (await served()).map((trade) => trade.trade_uuid);
    expect(mine).not.toContain(theirs.trade_uuid);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/trade/get_trades/open/',
      headers: other.headers,
    });
    expect(
      response.json().result.trade_list.map((trade: { trade_uuid: string }) => trade.trade_uuid),
    ).toEqual([theirs.trade_uuid]);
  });

  it('forgets every cached list when told writes may have been missed (the bus came back)', async () => {
    const trade = await createClientTrade(t, trader.headers);
    expect((await served()).find((item) => item.trade_uuid === trade.trade_uuid)?.trade_error).toBeNull();
    // A write this process did not announce, as another instance's while the bus was down.
    await t.db
      .update(trades)
      .set({ trade_error: 'stop_missing' })
      .where(eq(trades.trade_uuid, trade.trade_uuid));
    expect((await served()).find((item) => item.trade_uuid === trade.trade_uuid)?.trade_error).toBeNull();
    t.tradeDesk.openTrades.invalidateAll();
    expect((await served()).find((item) => item.trade_uuid === trade.trade_uuid)?.trade_error).toBe(
      'stop_missing',
    );
  });
});
