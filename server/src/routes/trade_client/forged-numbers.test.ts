// Numbers trade-core cannot hold never enter (issue 52): a client-mode record with a 20-digit quantity or price
// is refused with a 400 and stores nothing; and a database that holds such a row anyway (stored before the
// rule) still starts a server, whose monitor leaves the row out and flags it for its trader, and whose open
// trades, trend and export answer.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trades } from '../../db/schema-trades';
import {
  TEST_TRADE_SETTINGS,
  createClientTrade,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../../test/test-app';

const HUGE = '99999999999999999999';

let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  t = await createTestApp();
  trader = await signUpAndLogIn(t.app, 'forger');
});
afterAll(async () => t?.close());

async function recordBody(overrides: Record<string, unknown>) {
  const signal = await insertTestSignal(t.db);
  return {
    signal_uuid: signal.signal_uuid,
    ...TEST_TRADE_SETTINGS,
    trade_quantity: '0.002',
    trade_open_price: '97000',
    trade_order_id: `open-${signal.signal_uuid.slice(0, 8)}`,
    trade_stop_order_id: `stop-${signal.signal_uuid.slice(0, 8)}`,
    trade_stop_price: '96030',
    ...overrides,
  };
}

const storedCount = async () =>
  (await t.db.select().from(trades).where(eq(trades.user_uuid, trader.user_uuid))).length;

describe('a record with numbers trade-core cannot hold', () => {
  for (const field of ['trade_quantity', 'trade_open_price', 'trade_stop_price']) {
    it(`${field} of 20 digits is a 400 and stores nothing`, async () => {
      const before = await storedCount();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/trade_client/create_trade/',
        headers: trader.headers,
        payload: await recordBody({ [field]: HUGE }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().detail).toMatch(new RegExp(`^${field}: `));
      expect(await storedCount()).toBe(before);
    });
  }

  it('a quantity and a price each in range whose margin rounds to 0 is a 400 and stores nothing', async () => {
    const before = await storedCount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/trade_client/create_trade/',
      headers: trader.headers,
      payload: await recordBody({
        trade_quantity: '0.0000000000000001',
        trade_open_price: '0.0000000000000001',
        trade_stop_price: '0.0000000000000001',
      }),
    });
    // Each number passes the field's bound; the position's check refuses their product.
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().detail).toMatch(/^trade_quantity: .*cannot be priced/);
    expect(await storedCount()).toBe(before);
  });

  it('an ordinary trade is still recorded', async () => {
    const trade = await createClientTrade(t, trader.headers);
    expect(trade.trade_quantity).toBe('0.002');
  });
});

describe('a database that holds such a row already', () => {
  it('starts a server that serves it: the row is left out of the monitor and flagged, the rest answers', async () => {
    const good = await createClientTrade(t, trader.headers);
    const bad = await createClientTrade(t, trader.headers);
    // Stored before the rule: written straight into the database, as an older server did.
    await t.db
      .update(trades)
      .set({ trade_quantity: HUGE, trade_open_price: HUGE })
      .where(eq(trades.trade_uuid, bad.trade_uuid));
    const warnings: string[] = [];
    const logger = silentLogger(warnings);
    // A second process on the same database: its start loads every open trade.
    const restarted = await createTestApp({ instanceOf: { db: t.db, app: t.app }, logger });
    try {
      expect(restarted.monitor.calculated(good.trade_uuid)).toBeDefined();
      expect(restarted.monitor.calculated(bad.trade_uuid)).toBeUndefined();
      expect(warnings.filter((message) => message.includes('cannot be priced'))).toHaveLength(1);
      const open = await restarted.app.inject({
        method: 'GET',
        url: '/api/trade/get_trades/open/',
        headers: trader.headers,
      });
      expect(open.statusCode, open.body).toBe(200);
      const listed = open.json().result.trade_list as { trade_uuid: string; trade_error: string | null }[];
      expect(listed.find((row) => row.trade_uuid === good.trade_uuid)?.trade_error).toBeNull();
      expect(listed.find((row) => row.trade_uuid === bad.trade_uuid)?.trade_error).toBe('unpriceable');
      const trend = await restarted.app.inject({
        method: 'GET',
        url: `/api/trade/get_trade_trend_by_uuid/${bad.trade_uuid}/`,
        headers: trader.headers,
      });
      // This app has no exchange to read candles from (a 503 that says so); never an internal error.
      expect(trend.statusCode, trend.body).not.toBe(500);
      const exported = await restarted.app.inject({
        method: 'GET',
        url: '/api/trade/export_trades_history/?format=csv',
        headers: trader.headers,
      });
      expect(exported.statusCode, exported.body).toBeLessThan(500);
      // A resync (the bus lost news) does not fail on it either.
      await restarted.monitor.resync();
      expect(restarted.monitor.calculated(bad.trade_uuid)).toBeUndefined();
    } finally {
      await restarted.close();
    }
  });
});

function silentLogger(warnings: string[]) {
  const logger = {
    level: 'warn',
    fatal: () => undefined,
    error: (...args: unknown[]) => warnings.push(String(args.at(-1))),
    warn: (...args: unknown[]) => warnings.push(String(args.at(-1))),
    info: () => undefined,
    debug: () => undefined,
    trace: () => undefined,
    silent: () => undefined,
    child: () => logger,
  };
  return logger as never;
}
