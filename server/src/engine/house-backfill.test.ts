// The first start's backfill end to end, through the function server.ts calls (backfillFirstStart), on a paper
// exchange with a 2-day history: the exchange's own candles are replayed; signals, house trades and statistics
// are stored; the public statistics answer from the first request; progress is logged; a second start does not
// replay again; and the house follower takes over the replayed trades still open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import { statisticTradeByDayAnswer, statisticTradeByMonthAnswer } from '../../../contracts';
import { statisticTradeDays, statisticTradePoints } from '../db/schema-statistics';
import { signals } from '../db/schema-signals';
import { trades } from '../db/schema-trades';
import { ensureHouseAccount, HOUSE_USER_UUID, type HouseAccount } from '../services/house';
import { PAPER_PLATFORM_UUID } from '../services/platforms';
import { createTestApp, type TestApp } from '../../test/test-app';
import { BITCOIN_SYMBOL } from './market-feed';
import { needsBackfill } from './backfill';
import { backfillFirstStart, type FirstStartSummary } from './house-backfill';
import { HouseFollower } from './house-follower';

let exchange: PaperExchangeHandle;
let t: TestApp;
let house: HouseAccount;
let summary: FirstStartSummary | undefined;
const lines: string[] = [];
const log = {
  info: (obj: object, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`),
  warn: (obj: object, msg: string) => lines.push(`WARN ${msg} ${JSON.stringify(obj)}`),
};

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 11, historyDays: 2 });
  t = await createTestApp({ exchange });
  house = await ensureHouseAccount({
    db: t.db,
    box: t.app.secretBox,
    platformUuid: PAPER_PLATFORM_UUID,
    createAccount: (balance) => exchange.admin.createAccount(balance),
    log,
  });
  expect(await needsBackfill(t.db)).toBe(true);
  summary = await backfillFirstStart({ db: t.db, exchange, house, log });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

describe('first start backfill', () => {
  it('stores the replay’s signals, house trades and statistics, and logs its progress and time', async () => {
    expect(summary).toBeDefined();
    const { signals: signalCount, houseTrades, points, items, minutes } = summary!;
    expect(minutes).toBe(2 * 1440);
    expect(signalCount).toBeGreaterThan(100);
    expect(houseTrades).toBeGreaterThan(10);
    expect(await t.db.$count(signals)).toBe(signalCount);
    expect(await t.db.$count(trades)).toBe(houseTrades);
    expect(await t.db.$count(statisticTradePoints)).toBe(points);
    expect(await t.db.$count(statisticTradeDays)).toBe(items);
    expect(points).toBe(2 * 288);
    expect(items).toBe(2);
    const stored = await t.db.select().from(trades);
    expect(stored.every((row) => row.user_uuid === HOUSE_USER_UUID)).toBe(true);
    expect(lines.filter((line) => line.startsWith('backfill: replaying history'))).toHaveLength(10);
    expect(lines.some((line) => /^backfill: done in \d+ ms/.test(line))).toBe(true);
    expect(lines.filter((line) => line.startsWith('WARN'))).toEqual([]);
  });

  it('replays the exchange’s own candles', async () => {
    const [last] = await t.db
      .select()
      .from(statisticTradePoints)
      .orderBy(statisticTradePoints.statistic_time)
      .limit(1)
      .offset(summary!.points - 1);
    const end = last!.statistic_time.getTime();
    const [candle] = await t.feed.candlesBetween(BITCOIN_SYMBOL, end - 60_000, end);
    expect(candle?.close).toBe(last!.current_price);
  });

  it('answers the public statistics from the first request', async () => {
    // The first request, a second after the history's end (the live recorder adds the next points).
    t.clock.nowMs = exchange.historyEndTime + 1000;
    const byDay = await t.app.inject({ method: 'GET', url: '/api/public/get_statistic_trade_by_day/' });
    const list = statisticTradeByDayAnswer.parse(byDay.json()).result.statistic_trade_by_day_list;
    expect(list).toHaveLength(288);
    const times = list.map((point) => Date.parse(point.statistic_time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const byMonth = await t.app.inject({ method: 'GET', url: '/api/public/get_statistic_trade_by_month/' });
    const month = statisticTradeByMonthAnswer.parse(byMonth.json()).result.statistic_trade_by_month_list;
    expect(month).toHaveLength(2);
    expect(
      month.reduce((sum, item) => sum + item.trade_close_count_buy + item.trade_close_count_sell, 0),
    ).toBe(
      (await t.db.select().from(trades)).filter((row) => {
        const closed = row.trade_close_timestamp?.getTime();
        return (
          closed !== undefined && closed < Date.parse(`${month[1]!.statistic_date}T00:00:00Z`) + 86_400_000
        );
      }).length,
    );
  });

  it('does not replay on a second start, and the house follower takes over the trades still open', async () => {
    expect(await backfillFirstStart({ db: t.db, exchange, house, log })).toBeUndefined();
    const open = (await t.db.select().from(trades)).filter((row) => row.trade_status === 'open');
    expect(open.every((row) => row.trade_in_server_side === 0)).toBe(true);
    const follower = new HouseFollower({
      app: t.app,
      db: t.db,
      desk: t.tradeDesk,
      monitor: t.monitor,
      box: t.app.secretBox,
      house,
      log,
      sweepIntervalMs: 3_600_000,
    });
    await follower.start();
    try {
      for (const row of open) expect(t.monitor.calculated(row.trade_uuid)).toBeDefined();
    } finally {
      await follower.close();
    }
  });
});
