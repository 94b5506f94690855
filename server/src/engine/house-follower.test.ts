// The house account live, against a real paper exchange (docs/server.md "House account"): a live signal that
// reaches the default minimal_accuracy opens a server-mode house trade on the exchange through the traders'
// calls, one per symbol; the monitor's flags close it (or reset it for DIRECTION_SIGNAL) at once; the house
// cannot log in, keeps its PIN and keys sealed, and its trades never show to a trader.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import { tradeListAnswer, type SignalDirection } from '../../../contracts';
import { ExchangeClient } from '../../../shared-core/exchange-client';
import { serverSecrets, tradeTokens } from '../db/schema';
import { trades, type TradeRow } from '../db/schema-trades';
import {
  HOUSE_EMAIL,
  HOUSE_NICKNAME,
  HOUSE_USER_UUID,
  ensureHouseAccount,
  type HouseAccount,
} from '../services/house';
import { PAPER_PLATFORM_UUID } from '../services/platforms';
import { DEFAULT_PLATFORM_PREFERENCES } from '../services/preferences';
import {
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/test-app';
import { priceAtRoe } from '../services/trade-math';
import { findTradeToken, openTradeToken } from '../services/trade-tokens';
import { findUser, userTradeTokenKey } from '../services/users';
import { HouseFollower } from './house-follower';

let exchange: PaperExchangeHandle;
let t: TestApp;
let house: HouseAccount;
let follower: HouseFollower;
let houseClient: ExchangeClient;
const warnings: string[] = [];
const log = {
  info: () => undefined,
  warn: (obj: object, msg: string) => warnings.push(`${msg} ${JSON.stringify(obj)}`),
};

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 31 });
  t = await createTestApp({ exchange });
  house = await ensureHouseAccount({
    db: t.db,
    box: t.app.secretBox,
    platformUuid: PAPER_PLATFORM_UUID,
    createAccount: (balance) => exchange.admin.createAccount(balance),
    log,
  });
  follower = new HouseFollower({
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
  const user = (await findUser(t.db, HOUSE_USER_UUID))!;
  const token = (await findTradeToken(t.db, HOUSE_USER_UUID, PAPER_PLATFORM_UUID))!;
  const credentials = openTradeToken(
    t.app.secretBox,
    token,
    house.pin_code,
    userTradeTokenKey(t.app.secretBox, user),
  );
  houseClient = new ExchangeClient({ baseUrl: exchange.url, credentials });
}, 120_000);
afterAll(async () => {
  await follower?.close();
  await t?.close();
  await exchange?.close();
});

/** A stored live signal reaching the house (as live-core hands it over: monitor first, then the house). */
async function liveSignal(symbol_pair: string, direction: SignalDirection, accuracy = 0.7) {
  const price = exchange.admin.markPrice(symbol_pair);
  const signal = await insertTestSignal(t.db, {
    platform_uuid: PAPER_PLATFORM_UUID,
    symbol_pair,
    direction,
    accuracy,
    price,
  });
  await t.monitor.onSignals([signal]);
  follower.onSignals([signal]);
  await follower.idle();
  return signal;
}

async function houseTrades(symbolUuid?: string): Promise<TradeRow[]> {
  const rows = await t.db.select().from(trades).where(eq(trades.user_uuid, HOUSE_USER_UUID));
  return rows.filter((row) => symbolUuid === undefined || row.symbol_uuid === symbolUuid);
}

async function houseTradeOf(signalUuid: string): Promise<TradeRow | undefined> {
  const [row] = await t.db
    .select()
    .from(trades)
    .where(and(eq(trades.user_uuid, HOUSE_USER_UUID), eq(trades.signal_uuid, signalUuid)));
  return row;
}

const positionOf = async (pair: string) => Number((await houseClient.getPositionRisk(pair)).positionAmt);

describe('house account', () => {
  it('is a user nobody can log in as, with its PIN and keys sealed at rest', async () => {
    const user = await findUser(t.db, HOUSE_USER_UUID);
    expect(user).toMatchObject({ user_nickname: HOUSE_NICKNAME, user_email: HOUSE_EMAIL });
    for (const password of [TEST_PASSWORD, '', user!.password_hash]) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { user_email: HOUSE_EMAIL, user_password: password },
      });
      expect(login.statusCode).not.toBe(200);
    }
    const secrets = await t.db.select().from(serverSecrets);
    const pinRow = secrets.find((row) => row.name === `house_pin:${PAPER_PLATFORM_UUID}`);
    expect(pinRow?.value.startsWith('sb1.')).toBe(true);
    expect(pinRow?.value).not.toContain(house.pin_code);
    const [token] = await t.db.select().from(tradeTokens).where(eq(tradeTokens.user_uuid, HOUSE_USER_UUID));
    const credentials = openTradeToken(
      t.app.secretBox,
      token!,
      house.pin_code,
      userTradeTokenKey(t.app.secretBox, (await findUser(t.db, HOUSE_USER_UUID))!),
    );
    expect(token!.envelope).not.toContain(credentials.api_key);
    expect(token!.envelope).not.toContain(credentials.api_secret);
    // Funded on the exchange.
    expect((await houseClient.getAccount()).total_wallet_balance).toBeGreaterThan(1000);
  });

  it('keeps its account across restarts, and replaces one the exchange no longer knows', async () => {
    const again = await ensureHouseAccount({
      db: t.db,
      box: t.app.secretBox,
      platformUuid: PAPER_PLATFORM_UUID,
      createAccount: () => {
        throw new Error('a working account must be kept');
      },
      log,
    });
    expect(again.pin_code).toBe(house.pin_code);

    const other = await startPaperExchange({ port: 0, seed: 32 });
    try {
      const t2 = await createTestApp({ exchange: other });
      try {
        // The same stored token (another database copy) on an exchange that never made that account.
        const first = await ensureHouseAccount({
          db: t2.db,
          box: t2.app.secretBox,
          platformUuid: PAPER_PLATFORM_UUID,
          createAccount: (balance) => exchange.admin.createAccount(balance),
          log,
        });
        let made = 0;
        const second = await ensureHouseAccount({
          db: t2.db,
          box: t2.app.secretBox,
          platformUuid: PAPER_PLATFORM_UUID,
          createAccount: (balance) => {
            made += 1;
            return other.admin.createAccount(balance);
          },
          log,
        });
        expect(made).toBe(1);
        expect(second.pin_code).toBe(first.pin_code);
      } finally {
        await t2.close();
      }
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe('house follower', () => {
  it('opens a server-mode trade on the exchange for a signal, one per symbol, and closes it on a flag', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const signal = await liveSignal('ETHUSDT', 'BUY');
    const trade = await houseTradeOf(signal.signal_uuid);
    expect(warnings).toEqual([]);
    expect(trade).toMatchObject({
      trade_in_server_side: 1,
      trade_phase: 'ready',
      trade_status: 'open',
      trade_direction: 'BUY',
      // The default preferences: 10 USDT × 10 ÷ 3000 at 3 decimals.
      trade_margin: '10',
      trade_leverage: 10,
      trade_quantity: '0.033',
      trade_stop_loss_percent: DEFAULT_PLATFORM_PREFERENCES.trade_stop_loss_percent,
      trade_take_profit_percent: DEFAULT_PLATFORM_PREFERENCES.trade_take_profit_percent,
      trade_treiling_stop_percent: DEFAULT_PLATFORM_PREFERENCES.trade_treiling_stop_percent,
    });
    expect(trade!.trade_stop_order_id).not.toBeNull();
    expect(await positionOf('ETHUSDT')).toBe(0.033);
    expect(t.monitor.calculated(trade!.trade_uuid)).toBeDefined();

    // A second signal on the symbol opens nothing; neither does one below the minimal accuracy elsewhere, nor
    // one the exchange refuses (BTCUSDT's minimum notional is 100 USDT: 0.001 × 90000 is below).
    await liveSignal('ETHUSDT', 'BUY');
    const weak = await liveSignal('LINKUSDT', 'BUY', 0.55);
    expect(await houseTradeOf(weak.signal_uuid)).toBeUndefined();
    exchange.admin.setPrice('BTCUSDT', '90000');
    const refused = await liveSignal('BTCUSDT', 'BUY');
    expect(await houseTradeOf(refused.signal_uuid)).toBeUndefined();
    exchange.admin.setPrice('BTCUSDT', null);
    expect(await houseTrades(trade!.symbol_uuid)).toHaveLength(1);
    expect(await positionOf('ETHUSDT')).toBe(0.033);

    // Past the take profit (ROE ≥ the default's, half a point more): the monitor flags TAKE_PROFIT and the house
    // closes at once with that status.
    const target = priceAtRoe(
      {
        trade_direction: 'BUY',
        trade_open_price: trade!.trade_open_price!,
        trade_quantity: trade!.trade_quantity!,
        trade_leverage: 10,
      },
      String(DEFAULT_PLATFORM_PREFERENCES.trade_take_profit_percent + 0.5),
      2,
    );
    exchange.admin.setPrice('ETHUSDT', target);
    t.monitor.onPrice('ETHUSDT', target);
    await follower.idle();
    const closed = await houseTradeOf(signal.signal_uuid);
    expect(closed).toMatchObject({ trade_status: 'take_profit', trade_ui_status: null });
    expect(Number(closed!.trade_pnl_current)).toBeGreaterThan(0);
    expect(await positionOf('ETHUSDT')).toBe(0);
    expect(t.monitor.calculated(trade!.trade_uuid)).toBeUndefined();
    exchange.admin.setPrice('ETHUSDT', null);
  });

  it('resets DIRECTION_SIGNAL to open and closes on REVERSE_SIGNAL', async () => {
    exchange.admin.setPrice('SOLUSDT', '150');
    const first = await liveSignal('SOLUSDT', 'SELL');
    const trade = (await houseTradeOf(first.signal_uuid))!;
    expect(trade.trade_status).toBe('open');

    await liveSignal('SOLUSDT', 'SELL');
    await t.tradeDesk.idle();
    expect(t.monitor.calculated(trade.trade_uuid)?.trade_ui_status).toBeNull();
    expect((await houseTradeOf(first.signal_uuid))?.trade_status).toBe('open');

    const reverse = await liveSignal('SOLUSDT', 'BUY');
    expect((await houseTradeOf(first.signal_uuid))?.trade_status).toBe('reverse_signal');
    // The reversing signal does not open the opposite trade.
    expect(await houseTradeOf(reverse.signal_uuid)).toBeUndefined();
    expect(await positionOf('SOLUSDT')).toBe(0);
    // The symbol is free again for the next signal.
    const next = await liveSignal('SOLUSDT', 'BUY');
    expect((await houseTradeOf(next.signal_uuid))?.trade_status).toBe('open');
    exchange.admin.setPrice('SOLUSDT', null);
  });

  it('never shows its trades to a trader', async () => {
    expect((await houseTrades()).length).toBeGreaterThan(2);
    const trader = await signUpAndLogIn(t.app, 'visitor');
    const open = await t.app.inject({
      method: 'GET',
      url: '/api/trade/get_trades/open/',
      headers: trader.headers,
    });
    expect(tradeListAnswer.parse(open.json()).result.trade_list).toEqual([]);
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/trade/get_trades_history/',
      headers: trader.headers,
      query: { start_date: '2020-01-01T00:00:00Z', end_date: '2099-12-31T23:59:59Z' },
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(tradeListAnswer.parse(history.json()).result.trade_list).toEqual([]);
    const someHouseTrade = (await houseTrades())[0]!;
    const trend = await t.app.inject({
      method: 'GET',
      url: `/api/trade/get_trade_trend_by_uuid/${someHouseTrade.trade_uuid}/`,
      headers: trader.headers,
    });
    expect(trend.statusCode).toBe(404);
    expect(warnings).toEqual([]);
  });
});
