// The what-if replay (issue 42) on a first start's backfill: a paper exchange with a 2-day history, its signals,
// candles and house trades stored as server.ts stores them. One truth with the public record (item 5): the
// replay of the house's settings over the backfilled range — read back from the database, as a trader's replay
// reads it — is the house's stored trades, trade for trade, fees included; the endpoint's answer for the house
// sums exactly those trades. Then a trader's own settings change the answer, and bad questions get a 4xx.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, SYMBOLS, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { whatIfAnswer, type WhatIfResult } from '../../../../contracts';
import { addDecimals, compareDecimals, sumDecimals } from '../../../../shared-core/trade-core-node';
import { DEFAULT_TAKER_RATE } from '../../../../shared-core/trade-fees';
import { marketCandleDays } from '../../db/schema-signals';
import { trades, type TradeRow } from '../../db/schema-trades';
import { backfillFirstStart } from '../../engine/house-backfill';
import { EXCHANGE_ORDER_FILTERS } from '../../engine/trade-replay';
import { replayWhatIf } from '../../engine/what-if';
import { WhatIfStore } from '../../engine/what-if-data';
import { ensureHouseAccount, type HouseAccount } from '../../services/house';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import { replaySettingsOf } from '../../engine/replay-settings';
import { WHAT_IF_RUNNING } from './what-if';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let exchange: PaperExchangeHandle;
let t: TestApp;
let house: HouseAccount;
const log = { info: () => undefined, warn: () => undefined };

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 7, historyDays: 2 });
  t = await createTestApp({ exchange });
  house = await ensureHouseAccount({
    db: t.db,
    box: t.app.secretBox,
    platformUuid: PAPER_PLATFORM_UUID,
    createAccount: (balance) => exchange.admin.createAccount(balance),
    log,
  });
  await backfillFirstStart({ db: t.db, exchange, house, log });
  t.clock.nowMs = exchange.historyEndTime + 30_000;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

const compared = (row: Partial<TradeRow>) => ({
  signal: row.signal_uuid,
  direction: row.trade_direction,
  status: row.trade_status,
  open: row.trade_open_price,
  quantity: row.trade_quantity,
  stop: row.trade_stop_price,
  close: row.trade_close_price ?? null,
  closed: row.trade_close_timestamp?.getTime() ?? null,
  pnl: row.trade_status === 'open' ? null : row.trade_pnl_current,
  roe: row.trade_status === 'open' ? null : row.trade_roe_current,
  openFee: row.trade_open_commission,
  closeFee: row.trade_close_commission ?? null,
  net: row.trade_pnl_net ?? null,
  roeNet: row.trade_roe_net ?? null,
});

async function askWhatIf(headers: Record<string, string>, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams({ platform_uuid: PAPER_PLATFORM_UUID, ...query } as Record<
    string,
    string
  >);
  return t.app.inject({ method: 'GET', url: `/api/trade_preferences/get_what_if/?${search}`, headers });
}

describe('the what-if replay of a backfilled range', () => {
  it('stores the replayed candles beside the signals', async () => {
    const days = await t.db.select().from(marketCandleDays);
    const [filled] = await t.db
      .select({ value: sql<string>`sum(cardinality(array_remove(${marketCandleDays.close}, null)))` })
      .from(marketCandleDays);
    expect(Number(filled!.value)).toBe(SYMBOLS.length * 2 * 1440);
    // Each symbol's rows are its UTC days: the 2-day history touches 2 or 3 of them.
    expect(days.length).toBeGreaterThanOrEqual(SYMBOLS.length * 2);
  });

  it('replays the house’s settings into the house’s stored trades, trade for trade, fees included', async () => {
    const stored = await t.db.select().from(trades).orderBy(trades.trade_create_timestamp);
    expect(stored.length).toBeGreaterThan(10);
    const statuses = new Set(stored.map((row) => row.trade_status));
    // The record holds exits of several kinds, the exchange's among them (trade_exits_on_exchange is on).
    expect(statuses.size).toBeGreaterThanOrEqual(3);
    expect(stored.filter((row) => row.trade_status !== 'open').every((row) => row.trade_pnl_net)).toBe(true);

    const settings = await replaySettingsOf(t.db, house.user_uuid, house.platform);
    // Its newest trade's rate: the backfill booked its fees at the default (no fill was ever charged before).
    expect(compareDecimals(settings.takerRate, DEFAULT_TAKER_RATE)).toBe(0);
    const data = await new WhatIfStore(t.db, () => t.clock.nowMs).load(
      PAPER_PLATFORM_UUID,
      exchange.originTime,
      exchange.historyEndTime,
    );
    const { replay } = replayWhatIf({
      userUuid: house.user_uuid,
      platformUuid: PAPER_PLATFORM_UUID,
      fromMs: exchange.originTime,
      toMs: exchange.historyEndTime,
      symbols: data.symbols,
      neurons: data.neurons,
      days: data.days,
      settings,
      orderFilters: EXCHANGE_ORDER_FILTERS,
    });
    const replayed = replay.trades.map((trade) => compared(trade.row as Partial<TradeRow>));
    const order = (list: ReturnType<typeof compared>[]) =>
      [...list].sort((a, b) => (a.signal as string).localeCompare(b.signal as string));
    expect(order(replayed)).toEqual(order(stored.map(compared)));
  });

  it('answers the house the sums of its stored trades', async () => {
    const token = await t.app.issueAccessToken(house.user_uuid);
    const answer = await askWhatIf(
      { authorization: `Bearer ${token}` },
      {
        start_date: new Date(exchange.originTime).toISOString(),
        end_date: new Date(exchange.historyEndTime).toISOString(),
      },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const result = whatIfAnswer.parse(answer.json()).result;
    const stored = await t.db.select().from(trades);
    const closed = stored.filter((row) => row.trade_status !== 'open');
    expect(result.total.trades).toBe(stored.length);
    expect(result.total.closed).toBe(closed.length);
    expect(result.total.pnl_net).toBe(sumDecimals(closed.map((row) => row.trade_pnl_net as string)));
    expect(result.total.won).toBe(closed.filter((row) => compareDecimals(row.trade_pnl_net!, 0) > 0).length);
    for (const status of ['take_profit', 'stop_loss', 'treiling_stop', 'reverse_signal'] as const) {
      expect(result.total.by_status[status]).toBe(closed.filter((row) => row.trade_status === status).length);
    }
    const fees = sumDecimals(
      closed.flatMap((row) => [row.trade_open_commission!, row.trade_close_commission!]),
    );
    expect(result.total.fees).toBe(fees);
    expect(addDecimals(result.total.pnl_net, fees)).toBe(result.total.pnl_gross);
    expect(result.by_neuron.reduce((sum, item) => sum + item.trades, 0)).toBe(stored.length);
    expect(result.by_symbol.reduce((sum, item) => sum + item.trades, 0)).toBe(stored.length);
    expect(result.data.signals).toBeGreaterThan(0);
    expect(result.data.candles).toBe(SYMBOLS.length * 2 * 1440);
    // Asked again: the same answer (kept for the same settings, range and data).
    const again = await askWhatIf(
      { authorization: `Bearer ${token}` },
      {
        start_date: new Date(exchange.originTime).toISOString(),
        end_date: new Date(exchange.historyEndTime).toISOString(),
      },
    );
    expect(again.json()).toEqual(answer.json());
  });

  it('replays a trader’s settings: the saved ones, and the query’s in their place', async () => {
    const trader = await signUpAndLogIn(t.app, 'whatif');
    const saved = await askWhatIf(trader.headers);
    expect(saved.statusCode, saved.body).toBe(200);
    const base: WhatIfResult = whatIfAnswer.parse(saved.json()).result;
    expect(base.settings).toMatchObject({
      trade_margin: 10,
      trade_exits_on_exchange: 1,
      minimal_accuracy: 60,
    });
    // Default range: the last 30 days up to the last whole minute.
    expect(Date.parse(base.end_date)).toBe(Math.floor(t.clock.nowMs / 60_000) * 60_000);
    expect(Date.parse(base.end_date) - Date.parse(base.start_date)).toBe(30 * 86_400_000);

    const doubled = whatIfAnswer.parse((await askWhatIf(trader.headers, { trade_margin: 20 })).json()).result;
    expect(doubled.settings.trade_margin).toBe(20);
    expect(doubled.total.trades).toBeGreaterThanOrEqual(base.total.trades);
    expect(doubled.total.pnl_net).not.toBe(base.total.pnl_net);

    const limited = whatIfAnswer.parse(
      (await askWhatIf(trader.headers, { trade_max_open_trades: 1 })).json(),
    ).result;
    expect(limited.total.open).toBeLessThanOrEqual(1);
    expect(limited.skipped.max_open_trades).toBeGreaterThan(0);
    expect(limited.total.trades).toBeLessThan(base.total.trades);

    const strict = whatIfAnswer.parse(
      (await askWhatIf(trader.headers, { minimal_accuracy: 100 })).json(),
    ).result;
    expect(strict.total.trades).toBe(0);
    expect(strict.total.pnl_net).toBe('0');
    expect(strict.total.win_rate).toBeNull();
  });

  it('a question asked again while its replay runs waits for it; another question of the trader is refused', async () => {
    const trader = await signUpAndLogIn(t.app, 'whatiftwice');
    // The same question twice at once (a page reloaded while its replay ran): one replay, both answered.
    const [first, again] = await Promise.all([
      askWhatIf(trader.headers, { trade_margin: 25 }),
      askWhatIf(trader.headers, { trade_margin: 25 }),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    // Two different questions at once: the trader's second waits for nothing, it is refused (429).
    const both = await Promise.all([
      askWhatIf(trader.headers, { trade_margin: 30 }),
      askWhatIf(trader.headers, { trade_margin: 35 }),
    ]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 429]);
    const refused = both.find((answer) => answer.statusCode === 429)!;
    expect(refused.json()).toEqual({ detail: WHAT_IF_RUNNING });
    expect(refused.headers['retry-after']).toBe('2');
  });

  it('refuses bad questions with a 4xx and a detail', async () => {
    const trader = await signUpAndLogIn(t.app, 'whatifbad');
    const cases: [Record<string, string | number>, number, RegExp][] = [
      [{ trade_margin: 1 }, 400, /trade_margin/],
      [{ trade_margin: 'ten' }, 400, /trade_margin/],
      [{ trade_leverage: 126 }, 400, /trade_leverage/],
      [{ minimal_accuracy: 59 }, 400, /minimal_accuracy/],
      [
        { start_date: '2026-01-10T00:00:00Z', end_date: '2026-01-01T00:00:00Z' },
        400,
        /end_date must be after start_date/,
      ],
      [{ start_date: '2026-01-01T00:00:00Z', end_date: '2026-03-01T00:00:00Z' }, 400, /longer than 31 days/],
      [{ platform_uuid: '00000000-0000-4000-8000-000000000000' }, 404, /unknown platform/],
      // A start alone runs to now: 40 days ago is too long a range too (issue 52).
      [
        { start_date: new Date(t.clock.now() - 40 * 86_400_000).toISOString() },
        400,
        /^start_date: The range must not be longer than 31 days$/,
      ],
      [
        { start_date: new Date(t.clock.now() - 31 * 86_400_000 - 120_000).toISOString() },
        400,
        /^start_date: The range must not be longer than 31 days$/,
      ],
    ];
    for (const [query, status, detail] of cases) {
      const answer = await askWhatIf(trader.headers, query);
      expect(answer.statusCode, JSON.stringify(query)).toBe(status);
      expect(answer.json().detail).toMatch(detail);
    }
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/trade_preferences/get_what_if/?platform_uuid=${PAPER_PLATFORM_UUID}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
