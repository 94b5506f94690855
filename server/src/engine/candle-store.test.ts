// The stored candles (issue 42): the leader's recorder fills in each closed candle in its symbol's day row (a
// gap stays NULL, a candle stored twice keeps the last), the backfill's bulk rows hold the same, the what-if
// loader reads them back as the exchange wrote them, and days past the keeping time are deleted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app';
import type { DatabaseHandle } from '../db';
import { symbols } from '../db/schema';
import { marketCandleDays } from '../db/schema-signals';
import { insertInBulk } from './backfill';
import { CANDLE_KEEP_DAYS, CandleRecorder, candleDayRows, pruneCandles } from './candle-store';
import type { Candle } from './candles';
import { scaledText } from './what-if';
import { WhatIfStore } from './what-if-data';

const DAY = 86_400_000;
const MINUTE = 60_000;
const BTC = '00000000-0000-4000-8000-0000000000b1';
const DOGE = '00000000-0000-4000-8000-0000000000b2';
const TODAY = Date.UTC(2026, 10, 27);
const log = { warn: (obj: object, msg: string) => warnings.push(`${msg} ${JSON.stringify(obj)}`) };
const warnings: string[] = [];
let handle: DatabaseHandle;

const candle = (openTime: number, close: string, low = close, high = close): Candle => ({
  openTime,
  closeTime: openTime + MINUTE - 1,
  open: close,
  high,
  low,
  close,
});

beforeAll(async () => {
  handle = await openTestDatabase();
  for (const [uuid, pair] of [
    [BTC, 'BTCUSDT'],
    [DOGE, 'DOGEUSDT'],
  ] as const) {
    await handle.db.insert(symbols).values({
      symbol_uuid: uuid,
      symbol_name: pair.replace('USDT', ''),
      symbol_pair: pair,
      symbol_quantity_precision: 0,
      symbol_price_precision: pair === 'BTCUSDT' ? 1 : 5,
    });
  }
});
afterAll(() => handle?.close());

async function read(fromMs: number, toMs: number) {
  const data = await new WhatIfStore(handle.db, () => TODAY + 2 * DAY).load(
    '489c420e-f95d-473e-82a0-53e86496aa5b',
    fromMs,
    toMs,
  );
  const btc = data.symbols.findIndex((symbol) => symbol.symbol_uuid === BTC);
  const doge = data.symbols.findIndex((symbol) => symbol.symbol_uuid === DOGE);
  /** [high, low, close] of a minute, or undefined for a gap. */
  const at = (index: number, ms: number) => {
    const day = data.days.find((item) => item.start === Math.floor(ms / DAY) * DAY);
    const list = day?.candles[index];
    const slot = ((ms - day!.start) / MINUTE) * 3;
    if (!list || Number.isNaN(list[slot])) return undefined;
    return [0, 1, 2].map((field) => scaledText(list[slot + field]!, day!.scales[index]!));
  };
  return { btc: (ms: number) => at(btc, ms), doge: (ms: number) => at(doge, ms) };
}

describe('stored candles', () => {
  it('records live candles into their day rows, a gap as NULL, a candle stored again replaced', async () => {
    const recorder = new CandleRecorder(handle.db, log, () => TODAY);
    recorder.add(BTC, candle(TODAY - MINUTE, '97000.1', '96990.0', '97010.5')); // 23:59 of the day before
    recorder.add(BTC, candle(TODAY, '97001.2'));
    recorder.add(BTC, candle(TODAY + 2 * MINUTE, '97003.4')); // 00:01 is a gap
    recorder.add(DOGE, candle(TODAY, '0.31234'));
    await recorder.flush();
    recorder.add(BTC, candle(TODAY, '97001.3')); // the same minute again (a REST fill after the stream)
    await recorder.close();
    expect(warnings).toEqual([]);
    const { btc, doge } = await read(TODAY - DAY, TODAY + DAY);
    expect(btc(TODAY - MINUTE)).toEqual(['97010.5', '96990.0', '97000.1']);
    expect(btc(TODAY)).toEqual(['97001.3', '97001.3', '97001.3']);
    expect(btc(TODAY + MINUTE)).toBeUndefined();
    expect(btc(TODAY + 2 * MINUTE)).toEqual(['97003.4', '97003.4', '97003.4']);
    expect(doge(TODAY)).toEqual(['0.31234', '0.31234', '0.31234']);
    expect(await handle.db.$count(marketCandleDays)).toBe(3);
  });

  it('stores the backfill’s rows in bulk with the same layout', async () => {
    const start = TODAY + DAY;
    const rows = candleDayRows(DOGE, [
      candle(start, '0.30000'),
      candle(start + 5 * MINUTE, '0.30005', '0.29990'),
    ]);
    await insertInBulk(handle.db, marketCandleDays, rows);
    await insertInBulk(handle.db, marketCandleDays, rows, 'json');
    const { doge } = await read(start, start + DAY);
    expect(doge(start)).toEqual(['0.30000', '0.30000', '0.30000']);
    expect(doge(start + MINUTE)).toBeUndefined();
    expect(doge(start + 5 * MINUTE)).toEqual(['0.30005', '0.29990', '0.30005']);
    const [filled] = await handle.db
      .select({ value: sql<string>`sum(cardinality(array_remove(${marketCandleDays.close}, null)))` })
      .from(marketCandleDays)
      .where(sql`${marketCandleDays.day} = ${new Date(start)}`);
    expect(Number(filled!.value)).toBe(2);
  });

  it(`deletes the days older than ${CANDLE_KEEP_DAYS} days`, async () => {
    await pruneCandles(handle.db, TODAY + CANDLE_KEEP_DAYS * DAY);
    const days = await handle.db.select({ day: marketCandleDays.day }).from(marketCandleDays);
    expect(days.map((row) => row.day.getTime()).sort()).toEqual([TODAY, TODAY, TODAY + DAY]);
  });
});
