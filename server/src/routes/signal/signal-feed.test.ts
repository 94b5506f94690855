// GET /api/signal/get_signal_feed/ (issue 18 item 5) on a real PGlite database: the last hour's signals the
// trader's minimal_accuracy passes, newest first, with the outcome as stored (hit, miss, open), the engine's count
// of the hour and its newest signal.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signalFeedAnswer } from '../../../../contracts';
import { signals } from '../../db/schema-signals';
import { createTestApp, insertTestSignal, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/signal/get_signal_feed/', () => {
  it('lists the filtered signals of the hour with their outcomes; counts all the engine made', async () => {
    const trader = await signUpAndLogIn(t.app, 'feed');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/trade_preferences/set_preferences/',
      headers: trader.headers,
      payload: {
        trade_auto_open_delay: 0,
        trade_auto_close_delay: 0,
        minimal_accuracy: 70,
        trade_in_server_side: 0,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // On Binance, a platform a trader can trade here (the paper one is off without an exchange).
    const on = { symbol_pair: 'ETHUSDT' };
    // Made a minute apart, newest first: hit, below the filter, miss, open.
    const hit = await insertTestSignal(t.db, { ...on, accuracy: 0.8 });
    const below = await insertTestSignal(t.db, { ...on, accuracy: 0.65 });
    const miss = await insertTestSignal(t.db, { ...on, accuracy: 0.7 });
    const open = await insertTestSignal(t.db, { ...on, accuracy: 0.75 });
    const resolve = (uuid: string, outcome: 'hit' | 'miss', price: string) =>
      t.db
        .update(signals)
        .set({ outcome, resolved_at: new Date(t.clock.nowMs), price_exit: price })
        .where(eq(signals.signal_uuid, uuid));
    await resolve(hit.signal_uuid, 'hit', '97970');
    await resolve(miss.signal_uuid, 'miss', '96500');
    t.clock.nowMs = hit.created_at.getTime() + 5 * 60_000;
    trader.headers.authorization = `bearer ${await t.app.issueAccessToken(trader.user_uuid)}`;

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/signal/get_signal_feed/',
      headers: trader.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const feed = signalFeedAnswer.parse(response.json()).result;
    expect(feed.minimal_accuracy).toBe(70);
    expect(feed.engine_signal_count).toBe(4);
    expect(feed.engine_last_signal_at).toBe(hit.created_at.toISOString());
    const mine = feed.signal_list.filter((item) =>
      [hit, below, miss, open].some((signal) => signal.signal_uuid === item.signal.signal_uuid),
    );
    expect(
      mine.map((item) => [item.signal.signal_uuid, item.signal_outcome, item.signal_price_exit]),
    ).toEqual([
      [hit.signal_uuid, 'hit', 97970],
      [miss.signal_uuid, 'miss', 96500],
      [open.signal_uuid, 'open', null],
    ]);
    expect(mine[0]!.neuron_resolved_count).toBe(2);
    // Fewer resolved signals than the accuracy needs: no accuracy yet.
    expect(mine[0]!.neuron_accuracy).toBeNull();
    expect(mine.every((item) => !item.is_traded)).toBe(true);

    // An hour and more later the window is empty, but the engine's last signal is still told.
    t.clock.nowMs = hit.created_at.getTime() + 61 * 60_000;
    trader.headers.authorization = `bearer ${await t.app.issueAccessToken(trader.user_uuid)}`;
    const later = signalFeedAnswer.parse(
      (
        await t.app.inject({ method: 'GET', url: '/api/signal/get_signal_feed/', headers: trader.headers })
      ).json(),
    ).result;
    expect(later.signal_list).toEqual([]);
    expect(later.engine_signal_count).toBe(0);
    expect(later.engine_last_signal_at).toBe(hit.created_at.toISOString());
    expect((await t.app.inject({ method: 'GET', url: '/api/signal/get_signal_feed/' })).statusCode).toBe(401);
  });
});
