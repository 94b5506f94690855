// GET /api/signal/get_recent_signal_list/: the signals live-core would have sent the trader (accuracy reaching
// minimal_accuracy, a tradable platform), untraded, newest first, in the signal_from_core shape.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRecentSignalListAnswer, signal as signalSchema } from '../../../../contracts';
import { platforms } from '../../db/schema';
import { insertSignal, type SignalRow } from '../../engine/signal-store';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import {
  TEST_NEURON_UUID,
  createClientTrade,
  createTestApp,
  ensureTestSymbol,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../../test/test-app';

let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  headers = (await signUpAndLogIn(t.app, 'recent')).headers;
});
afterAll(async () => t?.close());

const list = async (query = '', as = headers) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/signal/get_recent_signal_list/${query}`,
    headers: as,
  });
  return response;
};

const uuidsOf = async (query = '', as = headers): Promise<string[]> => {
  const response = await list(query, as);
  expect(response.statusCode, response.body).toBe(200);
  return getRecentSignalListAnswer.parse(response.json()).result.signal_list.map((item) => item.signal_uuid);
};

describe('GET /api/signal/get_recent_signal_list/', () => {
  // insertTestSignal makes each signal one minute older than the one before.
  let newest: SignalRow;
  let atSixty: SignalRow;
  let belowSixty: SignalRow;
  let highest: SignalRow;
  let withoutAccuracy: SignalRow;
  let onHiddenPlatform: SignalRow;

  beforeAll(async () => {
    newest = await insertTestSignal(t.db, { accuracy: 0.64, price: '97123.5' });
    // Exactly the default minimal_accuracy (60): sent, so listed.
    atSixty = await insertTestSignal(t.db, { accuracy: 0.6, direction: 'SELL' });
    belowSixty = await insertTestSignal(t.db, { accuracy: 0.5999 });
    highest = await insertTestSignal(t.db, { accuracy: 0.8, symbol_pair: 'ETHUSDT' });
    const symbol = await ensureTestSymbol(t.db);
    const [paper] = await t.db
      .select()
      .from(platforms)
      .where(eq(platforms.platform_uuid, PAPER_PLATFORM_UUID));
    const base = {
      neuronUuid: TEST_NEURON_UUID,
      symbol: 'BTCUSDT',
      direction: 'BUY' as const,
      priceEnter: '97000',
      trendMoment: 1 as const,
    };
    // Made while the neuron had too few resolved signals: stored, never sent.
    [withoutAccuracy] = (await insertSignal(
      t.db,
      { ...base, accuracy: null, createdAt: Date.parse(newest.created_at.toISOString()) + 60_000 },
      symbol.symbol_uuid,
      [paper!],
    )) as [SignalRow];
    // The paper platform is disabled without a paper exchange: nobody can trade it.
    [onHiddenPlatform] = (await insertSignal(
      t.db,
      { ...base, accuracy: 0.9, createdAt: Date.parse(newest.created_at.toISOString()) + 120_000 },
      symbol.symbol_uuid,
      [paper!],
    )) as [SignalRow];
  });

  it('answers the sendable signals newest first, in the shape signal_from_core carries', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const { signal_list, server_time } = getRecentSignalListAnswer.parse(response.json()).result;
    expect(signal_list.map((item) => item.signal_uuid)).toEqual([
      newest.signal_uuid,
      atSixty.signal_uuid,
      highest.signal_uuid,
    ]);
    expect(Math.abs(Date.parse(server_time) - t.clock.now())).toBeLessThan(1000);
    for (const item of signal_list) expect(signalSchema.parse(item)).toEqual(item);
    expect(signal_list[0]).toEqual({
      signal_uuid: newest.signal_uuid,
      platform_uuid: newest.platform_uuid,
      platform: {
        platform_uuid: newest.platform_uuid,
        platform_name: 'Binance USDⓈ-M',
        platform_background: '#f0b90b',
      },
      symbol: {
        symbol_uuid: newest.symbol_uuid,
        symbol_name: 'BTC',
        symbol_pair: 'BTCUSDT',
        symbol_price_precision: 1,
      },
      signal_direction_created: 'BUY',
      signal_price_enter: 97123.5,
      signal_accuracy: 0.64,
      trend_moment: 1,
      neuron: { neuron_uuid: TEST_NEURON_UUID, neuron_tag_name: 'test' },
      signal_created_at: newest.created_at.toISOString(),
    });
    expect(signal_list[1]?.signal_direction_created).toBe('SELL');
    const uuids = signal_list.map((item) => item.signal_uuid);
    for (const left of [belowSixty, withoutAccuracy, onHiddenPlatform]) {
      expect(uuids).not.toContain(left.signal_uuid);
    }
  });

  it('follows the trader’s minimal_accuracy', async () => {
    const picky = await signUpAndLogIn(t.app, 'picky');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/trade_preferences/set_preferences/',
      headers: picky.headers,
      payload: {
        trade_auto_open_delay: 0,
        trade_auto_close_delay: 0,
        minimal_accuracy: 64,
        trade_in_server_side: 0,
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(await uuidsOf('', picky.headers)).toEqual([newest.signal_uuid, highest.signal_uuid]);
  });

  it('leaves out the signals the trader has a trade for, and only for that trader', async () => {
    const trader = await signUpAndLogIn(t.app, 'trader');
    const trade = await createClientTrade(t, trader.headers);
    // createClientTrade made a new (older) signal and traded it.
    expect(await uuidsOf('?limit=100', trader.headers)).not.toContain(trade.signal_uuid);
    expect(await uuidsOf('?limit=100')).toContain(trade.signal_uuid);
  });

  it('answers at most `limit` signals (1 … 100, default 20)', async () => {
    for (let i = 0; i < 22; i += 1) await insertTestSignal(t.db, { accuracy: 0.7 });
    expect(await uuidsOf()).toHaveLength(20);
    expect(await uuidsOf('?limit=1')).toEqual([newest.signal_uuid]);
    expect((await uuidsOf('?limit=100')).length).toBeGreaterThan(20);
    for (const bad of ['0', '101', '2.5', 'x']) {
      const response = await list(`?limit=${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().detail).toMatch(/^limit: /);
    }
  });

  it('answers 401 without a token', async () => {
    expect((await list('', {} as { authorization: string })).statusCode).toBe(401);
  });
});
