// POST /api/analysis/get_analysis/ on a real paper exchange: the answer equals trade-core's lagScan over series
// this test rebuilds itself from the exchange's 5-minute klines and the signals it stored (the definitions in
// contracts/analysis.ts), across pages of 1500 klines; empty ranges; 400s; 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../../../contracts';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { signals } from '../../db/schema-signals';
import { NEURONS } from '../../engine/neurons';
import { seedNeurons, symbolsByPair } from '../../engine/signal-store';
import { lagScan } from '../../../../shared-core/trade-core-node';
import { BINANCE_PLATFORM_UUID, PAPER_PLATFORM_UUID } from '../../services/platforms';
import { exchangeBudget } from '../../services/exchange-budget';
import {
  createTestApp,
  signUpAndLogIn,
  storeTradeTokenUnchecked,
  type TestApp,
} from '../../../test/test-app';
import { ANALYSIS_RUNNING } from './index';

const BUCKET_MS = 5 * 60_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

let exchange: PaperExchangeHandle;
let t: TestApp;
let headers: { authorization: string };

interface StoredSignal {
  created_at: number;
  direction: 'BUY' | 'SELL';
  /** Whether the analysis should count it (published, inside the range, first of its platform copies). */
  counts: boolean;
}
const stored: StoredSignal[] = [];

/** 5-minute BTCUSDT klines opening within [from, to], read straight from the exchange, 1000 a request. */
async function fiveMinuteCloses(
  from: number,
  to: number,
): Promise<Map<number, { open: number; close: number }>> {
  const rows = new Map<number, { open: number; close: number }>();
  for (let start = from; start <= to; start += 1000 * BUCKET_MS) {
    const query = new URLSearchParams({
      symbol: 'BTCUSDT',
      interval: '5m',
      startTime: String(start),
      endTime: String(Math.min(to, start + 1000 * BUCKET_MS - 1)),
      limit: '1000',
    });
    const response = await fetch(`${exchange.url}/fapi/v1/klines?${query}`);
    for (const row of (await response.json()) as [number, string, string, string, string][]) {
      rows.set(row[0], { open: Number(row[1]), close: Number(row[4]) });
    }
  }
  return rows;
}

/** The expected answer, built independently of engine/analysis.ts. */
async function expectedAnswer(startMs: number, endMs: number): Promise<AnalysisResult> {
  const first = Math.ceil(startMs / BUCKET_MS) * BUCKET_MS;
  const last = Math.floor(endMs / BUCKET_MS) * BUCKET_MS;
  const klines = await fiveMinuteCloses(first - BUCKET_MS, last);
  const opens = [...klines.keys()].filter((time) => time >= first);
  const from = Math.min(...opens);
  const to = Math.max(...opens);
  const buy: number[] = [];
  const sell: number[] = [];
  const price: number[] = [];
  for (let time = from; time <= to; time += BUCKET_MS) {
    const candle = klines.get(time)!;
    const reference = klines.get(time - BUCKET_MS)?.close ?? candle.open;
    // The contract's formula, in its order of operations (binary64).
    price.push(((candle.close - reference) / reference) * 100);
    const made = stored.filter((s) => s.counts && s.created_at >= time && s.created_at < time + BUCKET_MS);
    buy.push(made.filter((s) => s.direction === 'BUY').length);
    sell.push(made.filter((s) => s.direction === 'SELL').length);
  }
  return lagScan(buy, sell, price, Math.min(24, price.length - 2));
}

const analyse = (payload: object, authorization = headers.authorization) =>
  t.app.inject({
    method: 'POST',
    url: '/api/analysis/get_analysis/',
    headers: { authorization },
    payload,
  });

const iso = (ms: number) => new Date(ms).toISOString();

/** A deterministic pseudo-random sequence (the test's signals differ per bucket, the same every run). */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

// The range the signals are made in: six and a half days, more than one page of 1500 5-minute klines, starting
// off a bucket boundary.
let rangeStart: number;
let rangeEnd: number;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 11, historyDays: 8 });
  t = await createTestApp({ exchange });
  headers = (await signUpAndLogIn(t.app)).headers;
  await seedNeurons(t.db, NEURONS);
  const pairs = await symbolsByPair(t.db);
  const btc = pairs.get('BTCUSDT')!.symbol_uuid;
  const eth = pairs.get('ETHUSDT')!.symbol_uuid;
  const [momentum, logistic] = NEURONS.map((neuron) => neuron.neuron_uuid) as [string, string];

  rangeEnd = Math.floor((exchange.historyEndTime - DAY_MS) / BUCKET_MS) * BUCKET_MS - 1;
  rangeStart = rangeEnd - 6.5 * DAY_MS + 2 * MINUTE_MS + 1;
  // BUY signals mostly before rises three buckets later, SELL signals at random, on two symbols.
  const closes = await fiveMinuteCloses(rangeStart - DAY_MS, rangeEnd + 6 * HOUR_MS);
  const random = sequence(7);
  const rows: (typeof signals.$inferInsert)[] = [];
  const add = (
    createdAt: number,
    direction: 'BUY' | 'SELL',
    options: { symbol?: string; neuron?: string; accuracy?: number | null; platform?: string } = {},
  ) => {
    const platform = options.platform ?? PAPER_PLATFORM_UUID;
    const accuracy = options.accuracy === undefined ? 0.62 : options.accuracy;
    const symbol = options.symbol ?? btc;
    const neuron = options.neuron ?? momentum;
    const duplicate = rows.some(
      (row) =>
        row.neuron_uuid === neuron &&
        row.symbol_uuid === symbol &&
        (row.created_at as Date).getTime() === createdAt,
    );
    rows.push({
      signal_uuid: crypto.randomUUID(),
      platform_uuid: platform,
      symbol_uuid: symbol,
      neuron_uuid: neuron,
      direction,
      price_enter: '50000.00',
      accuracy,
      trend_moment: 0,
      created_at: new Date(createdAt),
    });
    const inRange = createdAt >= Math.ceil(rangeStart / BUCKET_MS) * BUCKET_MS && createdAt <= rangeEnd;
    stored.push({ created_at: createdAt, direction, counts: accuracy !== null && inRange && !duplicate });
  };
  for (const [openTime] of closes) {
    const ahead = closes.get(openTime + 3 * BUCKET_MS);
    const minute = openTime + Math.floor(random() * 5) * MINUTE_MS;
    if (ahead && ahead.close > ahead.open && random() < 0.7) add(minute, 'BUY');
    if (random() < 0.25) add(openTime + 4 * MINUTE_MS, 'SELL', { symbol: eth, neuron: logistic });
    // Never sent (too few resolved signals): not counted.
    if (random() < 0.2) add(openTime + MINUTE_MS, 'BUY', { neuron: logistic, accuracy: null });
  }
  // The same engine signal stored for a second platform counts once.
  const firstBuy = rows.find((row) => row.direction === 'BUY' && row.accuracy !== null)!;
  add((firstBuy.created_at as Date).getTime(), 'BUY', { platform: BINANCE_PLATFORM_UUID });
  await t.db.insert(signals).values(rows);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

describe('POST /api/analysis/get_analysis/', () => {
  it('answers lagScan over the 5-minute signal counts and bitcoin returns of the range', async () => {
    const response = await analyse({ datatime_start: iso(rangeStart), datatime_end: iso(rangeEnd) });
    expect(response.statusCode).toBe(200);
    const { result } = response.json() as { result: AnalysisResult };
    expect(result).toEqual(await expectedAnswer(rangeStart, rangeEnd));
    expect(result.lag_price_list.map((row) => row.lag)).toEqual(Array.from({ length: 49 }, (_, i) => i - 24));
    // The BUY signals were placed before rises three buckets later.
    expect(result.lag_buy.lag_at_max_corr).toBe(3);
    expect(result.lag_buy.max_corr).toBeGreaterThan(0.1);
  });

  it('takes ranges with a zone offset, and lists only the lags that leave two pairs', async () => {
    const start = Math.floor(rangeStart / BUCKET_MS) * BUCKET_MS + DAY_MS;
    const end = start + 9 * BUCKET_MS;
    const offset = (ms: number) => iso(ms + 2 * HOUR_MS).replace('Z', '+02:00');
    const response = await analyse({ datatime_start: offset(start), datatime_end: offset(end) });
    expect(response.statusCode).toBe(200);
    const { result } = response.json() as { result: AnalysisResult };
    expect(result).toEqual(await expectedAnswer(start, end));
    expect(result.lag_price_list.map((row) => row.lag)).toEqual(Array.from({ length: 17 }, (_, i) => i - 8));
  });

  it('answers an empty list without klines or without signals in the range', async () => {
    const empty = {
      lag_price_list: [],
      lag_buy: { max_corr: 0, lag_at_max_corr: 0 },
      lag_sell: { max_corr: 0, lag_at_max_corr: 0 },
    };
    const beforeHistory = exchange.originTime - 10 * DAY_MS;
    const noKlines = await analyse({
      datatime_start: iso(beforeHistory),
      datatime_end: iso(beforeHistory + DAY_MS),
    });
    expect(noKlines.statusCode).toBe(200);
    expect(noKlines.json()).toEqual({ result: empty });
    // After the signals: klines but nothing made.
    const quiet = await analyse({
      datatime_start: iso(rangeEnd + 8 * HOUR_MS),
      datatime_end: iso(rangeEnd + 20 * HOUR_MS),
    });
    expect(quiet.statusCode).toBe(200);
    expect(quiet.json()).toEqual({ result: empty });
    // In the future: no closed bucket yet.
    const future = await analyse({
      datatime_start: iso(Date.now() + DAY_MS),
      datatime_end: iso(Date.now() + 2 * DAY_MS),
    });
    expect(future.json()).toEqual({ result: empty });
    // A range inside one bucket.
    const instant = await analyse({ datatime_start: iso(rangeStart), datatime_end: iso(rangeStart) });
    expect(instant.json()).toEqual({ result: empty });
  });

  it('answers 400 for an inverted range, a range over 31 days and invalid dates', async () => {
    const inverted = await analyse({ datatime_start: iso(rangeEnd), datatime_end: iso(rangeStart) });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().detail).toBe('datatime_end: datatime_end must not be before datatime_start');

    const tooLong = await analyse({
      datatime_start: iso(rangeStart),
      datatime_end: iso(rangeStart + 31 * DAY_MS + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toBe('datatime_end: The range must not be longer than 31 days');
    const longest = await analyse({
      datatime_start: iso(rangeStart),
      datatime_end: iso(rangeStart + 31 * DAY_MS),
    });
    expect(longest.statusCode).toBe(200);

    for (const payload of [
      { datatime_start: 'yesterday', datatime_end: iso(rangeEnd) },
      { datatime_start: iso(rangeStart), datatime_end: '2026-02-30T00:00:00.000Z' },
      { datatime_start: '2026-01-01T00:00:00.000', datatime_end: iso(rangeEnd) },
      { datatime_start: iso(rangeStart) },
      { datatime_start: 1_700_000_000_000, datatime_end: iso(rangeEnd) },
    ]) {
      const response = await analyse(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().detail).toMatch(/^datatime_(start|end): /);
    }
  });

  it('answers 401 without a token', async () => {
    const response = await analyse({ datatime_start: iso(rangeStart), datatime_end: iso(rangeEnd) }, '');
    expect(response.statusCode).toBe(401);
  });
});

describe('one account cannot take the analyses for everyone (issue 38 item 1)', () => {
  it('16 at once from one trader: one runs, the rest are refused at once (429, Retry-After); another trader is answered; the answer is kept for a repeat', async () => {
    const hog = await signUpAndLogIn(t.app, 'hogger');
    // Sixteen different ranges (a cached answer would not need a run), as the reproduction asked.
    const ranges = Array.from({ length: 16 }, (_, i) => ({
      datatime_start: iso(rangeStart + i * BUCKET_MS),
      datatime_end: iso(rangeEnd),
    }));
    const neighbour = await signUpAndLogIn(t.app, 'neighbour');
    const [answers, theirs] = await Promise.all([
      Promise.all(ranges.map((range) => analyse(range, hog.headers.authorization))),
      analyse(
        { datatime_start: iso(rangeStart), datatime_end: iso(rangeEnd) },
        neighbour.headers.authorization,
      ),
    ]);
    const ran = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(ran.length + refused.length).toBe(16);
    expect(ran.length).toBeGreaterThanOrEqual(1);
    // At most one of them runs at a time. The days are read once for all (issue 52) and the scan takes
    // milliseconds, so a run can end before the next of the sixteen arrives: those that overlap one running are
    // refused at once, with the detail and Retry-After.
    for (const answer of refused) {
      expect(answer.json().detail).toBe(ANALYSIS_RUNNING);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().result).toEqual(await expectedAnswer(rangeStart, rangeEnd));
    // Done, the same trader is answered again; a repeat of a range is the kept answer.
    const again = await analyse(ranges[3]!, hog.headers.authorization);
    expect(again.statusCode).toBe(200);
    const repeat = await analyse(ranges[3]!, hog.headers.authorization);
    expect(repeat.json()).toEqual(again.json());
  });
});

describe('without a reachable exchange', () => {
  it('32 analyses of 31 days, 5 minutes apart, read the market once: the budget stays for the others (issue 52)', async () => {
    const asker = await signUpAndLogIn(t.app, 'asker');
    const before = exchangeBudget.used(exchange.url);
    const end = rangeEnd;
    for (let i = 0; i < 32; i += 1) {
      const response = await analyse(
        { datatime_start: iso(end - 31 * DAY_MS + i * BUCKET_MS), datatime_end: iso(end) },
        asker.headers.authorization,
      );
      expect(response.statusCode, response.body).toBe(200);
    }
    // Each day at most once (a 1500-kline page weighs 10): 32 days, against ~6 pages × 32 analyses before.
    expect(exchangeBudget.used(exchange.url) - before).toBeLessThanOrEqual(33 * 10);
    // Another trader's balance read is answered.
    const other = await signUpAndLogIn(t.app, 'bystander');
    const account = exchange.admin.createAccount('1000');
    await storeTradeTokenUnchecked(t, other.user_uuid, {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: '13579',
      api_key: account.apiKey,
      api_secret: account.apiSecret,
    });
    const balance = await t.app.inject({
      method: 'POST',
      url: '/api/account_balance/get_account_balance/',
      headers: other.headers,
      payload: { platform_uuid: PAPER_PLATFORM_UUID, pin_code: '13579' },
    });
    expect(balance.statusCode, balance.body).toBeLessThan(300);
  });

  it('answers 503', async () => {
    const alone = await createTestApp();
    try {
      const user = await signUpAndLogIn(alone.app);
      const response = await alone.app.inject({
        method: 'POST',
        url: '/api/analysis/get_analysis/',
        headers: user.headers,
        payload: { datatime_start: iso(Date.now() - DAY_MS), datatime_end: iso(Date.now()) },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().detail).toMatch(/^Market data is not available: bitcoin's 5-minute prices/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await alone.close();
    }
  });
});
