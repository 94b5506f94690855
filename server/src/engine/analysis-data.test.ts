// The analysis reads bitcoin from the candles the server stores (issue 52): with a stored day and no exchange
// at all, an analysis is answered, equal to lagScan over the series this test builds from the same minutes; a
// day with a gap in a closed bucket is not taken from the store (the exchange is asked, here unreachable: 503).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { marketCandleDays, signals } from '../db/schema-signals';
import { lagScan } from '../../../shared-core/trade-core-node';
import {
  createTestApp,
  ensureTestSymbol,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../test/test-app';
import { candleDayRows } from './candle-store';
import type { Candle } from './candles';

const MINUTE_MS = 60_000;
const BUCKET_MS = 5 * MINUTE_MS;
const DAY_MS = 86_400_000;

let t: TestApp;
let headers: { authorization: string };
const day = Math.floor(Date.now() / DAY_MS) * DAY_MS - 3 * DAY_MS;

/** A minute's price: a slow wave, so every bucket has a return of its own. */
const priceAt = (minute: number) => (50_000 + 400 * Math.sin(minute / 37) + minute * 0.5).toFixed(2);

beforeAll(async () => {
  t = await createTestApp();
  headers = (await signUpAndLogIn(t.app, 'analyst')).headers;
  const btc = await ensureTestSymbol(t.db, 'BTCUSDT');
  const candles: Candle[] = [];
  for (let minute = 0; minute < 1440; minute += 1) {
    const openTime = day + minute * MINUTE_MS;
    candles.push({
      openTime,
      closeTime: openTime + MINUTE_MS - 1,
      open: priceAt(minute - 1),
      high: priceAt(minute),
      low: priceAt(minute - 1),
      close: priceAt(minute),
    });
  }
  await t.db.insert(marketCandleDays).values(candleDayRows(btc.symbol_uuid, candles));
}, 60_000);
afterAll(async () => t?.close());

describe('the analysis on stored candles', () => {
  it('is answered without an exchange, from the stored minutes', async () => {
    // Signals in the 2nd to the 40th bucket of the day (every third one BUY, every fifth SELL).
    const buckets = 48;
    for (let bucket = 1; bucket < buckets; bucket += 1) {
      if (bucket % 3 === 0) await move(await insertTestSignal(t.db, { direction: 'BUY' }), bucket, 1);
      if (bucket % 5 === 0) await move(await insertTestSignal(t.db, { direction: 'SELL' }), bucket, 3);
    }
    const start = day + BUCKET_MS;
    const end = day + buckets * BUCKET_MS - 1;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/analysis/get_analysis/',
      headers,
      payload: { datatime_start: new Date(start).toISOString(), datatime_end: new Date(end).toISOString() },
    });
    expect(response.statusCode, response.body).toBe(200);
    // The same series by hand: a bucket opens at its first minute's open and closes at its last minute's close.
    const buy: number[] = [];
    const sell: number[] = [];
    const price: number[] = [];
    for (let bucket = 1; bucket < buckets; bucket += 1) {
      buy.push(bucket % 3 === 0 ? 1 : 0);
      sell.push(bucket % 5 === 0 ? 1 : 0);
      const close = Number(priceAt(bucket * 5 + 4));
      const before = Number(priceAt(bucket * 5 - 1));
      price.push(((close - before) / before) * 100);
    }
    expect(response.json().result).toEqual(lagScan(buy, sell, price, 24));
  });

  it('does not take a day with a gap in a closed bucket from the store', async () => {
    const gapDay = day + DAY_MS;
    const btc = await ensureTestSymbol(t.db, 'BTCUSDT');
    const partial: Candle[] = [0, 1, 2, 3].map((minute) => ({
      openTime: gapDay + minute * MINUTE_MS,
      closeTime: gapDay + minute * MINUTE_MS + MINUTE_MS - 1,
      open: '50000',
      high: '50000',
      low: '50000',
      close: '50000',
    }));
    await t.db.insert(marketCandleDays).values(candleDayRows(btc.symbol_uuid, partial));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/analysis/get_analysis/',
      headers,
      payload: {
        datatime_start: new Date(gapDay).toISOString(),
        datatime_end: new Date(gapDay + 6 * 60 * MINUTE_MS).toISOString(),
      },
    });
    expect(response.statusCode, response.body).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });
});

/** Moves a test signal into a bucket of the stored day, at its `minute`. */
async function move(row: { signal_uuid: string }, bucket: number, minute: number) {
  await t.db
    .update(signals)
    .set({ created_at: new Date(day + bucket * BUCKET_MS + minute * MINUTE_MS) })
    .where(eq(signals.signal_uuid, row.signal_uuid));
}
