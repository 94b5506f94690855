// Risk limits (issue 18 item 3): GET /api/trade/get_risk_limit_state/ counts the open trades of both modes and
// the realized loss of the UTC day, and POST /api/trade_server/create_trade/ is refused (409, RiskLimitText)
// when a limit is reached — before the PIN is tried or the exchange called — while a client-mode record is
// never refused. Server-mode opens run against a real paper exchange.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { RiskLimitText, parseRiskLimitText, riskLimitStateAnswer } from '../../../../contracts';
import { trades } from '../../db/schema-trades';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import {
  TEST_TRADE_SETTINGS,
  createClientTrade,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../../test/test-app';

const PIN = '24680';
const BTC = 'BTCUSDT';
/** 23:50 UTC: ten minutes before a day ends. */
const LATE = Date.UTC(2026, 2, 14, 23, 50);
let exchange: PaperExchangeHandle;
let t: TestApp;
type Trader = Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 18 });
  exchange.admin.setPrice(BTC, '97000');
  t = await createTestApp({ exchange });
  t.clock.nowMs = LATE;
});
afterAll(async () => {
  exchange?.admin.setPrice(BTC, null);
  await t?.close();
  await exchange?.close();
});

const call = (trader: Trader, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: trader.headers, ...(payload ? { payload } : {}) });

async function stateOf(trader: Trader) {
  const response = await call(trader, 'GET', '/api/trade/get_risk_limit_state/');
  expect(response.statusCode, response.body).toBe(200);
  return riskLimitStateAnswer.parse(response.json()).result;
}

async function setLimits(
  trader: Trader,
  limits: { trade_max_open_trades?: number; trade_daily_loss_limit?: number },
) {
  const response = await call(trader, 'POST', '/api/trade_preferences/set_preferences/', {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side: 1,
    ...limits,
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function withServerToken(trader: Trader) {
  const account = await call(trader, 'POST', '/api/paper_exchange/create_account/', { balance: 10000 });
  const stored = await call(trader, 'POST', '/api/trade_token/create_trade_token/', {
    ...account.json().result,
    platform_uuid: PAPER_PLATFORM_UUID,
    pin_code: PIN,
  });
  expect(stored.statusCode, stored.body).toBe(200);
}

/** Each open on a symbol of its own: one trade per symbol and account (issue 36) is not what these test. */
const OPEN_PAIRS = ['ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT', 'LINKUSDT', 'BNBUSDT'];
let opens = 0;

async function openServerTrade(trader: Trader) {
  opens += 1;
  const symbol_pair = OPEN_PAIRS[opens % OPEN_PAIRS.length]!;
  const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair });
  return call(trader, 'POST', '/api/trade_server/create_trade/', {
    signal_uuid: signal.signal_uuid,
    ...TEST_TRADE_SETTINGS,
    pin_code: PIN,
  });
}

const closeClient = (trader: Trader, trade_uuid: string, price: string) =>
  call(trader, 'POST', '/api/trade_client/close_trade/', {
    trade_uuid,
    trade_status: 'manual_close',
    trade_close_price: price,
  });

describe('GET /api/trade/get_risk_limit_state/', () => {
  it('answers the limits OFF, no open trade and no loss for a new trader, on the UTC day', async () => {
    const trader = await signUpAndLogIn(t.app, 'fresh');
    expect(await stateOf(trader)).toEqual({
      trade_max_open_trades: 0,
      trade_daily_loss_limit: 0,
      open_trade_count: 0,
      daily_realized_pnl: '0',
      daily_loss: '0',
      day_start: '2026-03-14T00:00:00.000Z',
      day_end: '2026-03-15T00:00:00.000Z',
      is_max_open_trades_reached: false,
      is_daily_loss_limit_reached: false,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/trade/get_risk_limit_state/' })).statusCode).toBe(
      401,
    );
  });

  it('counts open trades of both modes and nets the day’s closed ones, exactly; another trader’s never', async () => {
    t.clock.nowMs = LATE;
    const trader = await signUpAndLogIn(t.app, 'counter');
    const other = await signUpAndLogIn(t.app, 'other');
    await withServerToken(trader);
    await setLimits(trader, { trade_max_open_trades: 5, trade_daily_loss_limit: 10 });
    const first = await createClientTrade(t, trader.headers);
    const second = await createClientTrade(t, trader.headers);
    const server = await openServerTrade(trader);
    expect(server.statusCode, server.body).toBe(201);
    await createClientTrade(t, other.headers);
    expect(await stateOf(trader)).toMatchObject({ open_trade_count: 3, daily_loss: '0' });
    // BUY 0.002 at 97000: −2.468 at 95766, +0.246 at 97123 — net −2.222 today.
    expect((await closeClient(trader, first.trade_uuid, '95766')).statusCode).toBe(200);
    expect((await closeClient(trader, second.trade_uuid, '97123')).statusCode).toBe(200);
    const state = await stateOf(trader);
    expect(state).toMatchObject({
      open_trade_count: 1,
      daily_realized_pnl: '-2.222',
      daily_loss: '2.222',
      is_max_open_trades_reached: false,
      is_daily_loss_limit_reached: false,
    });
    // Past 00:00 UTC a new day starts from no loss; the open trade still counts.
    t.clock.advance(11 * 60_000);
    trader.headers.authorization = `bearer ${await t.app.issueAccessToken(trader.user_uuid)}`;
    expect(await stateOf(trader)).toMatchObject({
      open_trade_count: 1,
      daily_loss: '0',
      day_start: '2026-03-15T00:00:00.000Z',
    });
  });
});

describe('the limits on opening a trade', () => {
  it('server mode: refused with 409 and the sentence at the maximum of open trades, before the PIN or the exchange', async () => {
    t.clock.nowMs = LATE;
    const trader = await signUpAndLogIn(t.app, 'max-open');
    await withServerToken(trader);
    await setLimits(trader, { trade_max_open_trades: 2 });
    await createClientTrade(t, trader.headers);
    const opened = await openServerTrade(trader);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(await stateOf(trader)).toMatchObject({ open_trade_count: 2, is_max_open_trades_reached: true });

    const refused = await openServerTrade(trader);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(RiskLimitText.maxOpenTrades(2, 2));
    expect(parseRiskLimitText(refused.json().detail)).toEqual({ kind: 'maxOpenTrades', open: 2, max: 2 });
    // Refused before the PIN is tried: a wrong PIN gets the same answer, and nothing is stored.
    const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: BTC });
    const wrongPin = await call(trader, 'POST', '/api/trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...TEST_TRADE_SETTINGS,
      pin_code: '00000',
    });
    expect(wrongPin.statusCode).toBe(409);
    const rows = await t.db.select().from(trades).where(eq(trades.user_uuid, trader.user_uuid));
    expect(rows).toHaveLength(2);

    // A client-mode record is never refused: the position exists on the exchange.
    await createClientTrade(t, trader.headers);
    expect(await stateOf(trader)).toMatchObject({ open_trade_count: 3, is_max_open_trades_reached: true });

    // Turning the limit off (0) opens again.
    await setLimits(trader, { trade_max_open_trades: 0 });
    expect((await openServerTrade(trader)).statusCode).toBe(201);
  });

  it('server mode: refused once the UTC day’s realized loss reaches the limit; the next day opens again', async () => {
    t.clock.nowMs = LATE;
    const trader = await signUpAndLogIn(t.app, 'daily-loss');
    await withServerToken(trader);
    await setLimits(trader, { trade_daily_loss_limit: 5 });
    // −4.998 (BUY 0.002 from 97000 to 94501): below the limit, still open to trade.
    const losing = await createClientTrade(t, trader.headers);
    await closeClient(trader, losing.trade_uuid, '94501');
    expect(await stateOf(trader)).toMatchObject({ daily_loss: '4.998', is_daily_loss_limit_reached: false });
    // −0.002 more: the day has lost exactly 5.000, the limit.
    const more = await createClientTrade(t, trader.headers);
    await closeClient(trader, more.trade_uuid, '96999');
    expect(await stateOf(trader)).toMatchObject({ daily_loss: '5', is_daily_loss_limit_reached: true });
    const refused = await openServerTrade(trader);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(RiskLimitText.dailyLossLimit('5.00', 5));
    expect(parseRiskLimitText(refused.json().detail)).toEqual({
      kind: 'dailyLossLimit',
      loss: '5.00',
      limit: 5,
    });

    t.clock.advance(11 * 60_000);
    trader.headers.authorization = `bearer ${await t.app.issueAccessToken(trader.user_uuid)}`;
    expect((await openServerTrade(trader)).statusCode).toBe(201);
  });

  it('two server-mode opens at once with room for one: one opens, the other is refused', async () => {
    t.clock.nowMs = LATE;
    const trader = await signUpAndLogIn(t.app, 'race');
    await withServerToken(trader);
    await setLimits(trader, { trade_max_open_trades: 1 });
    const answers = await Promise.all([openServerTrade(trader), openServerTrade(trader)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await stateOf(trader)).toMatchObject({ open_trade_count: 1 });
  });
});
