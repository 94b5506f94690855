// Issue 37, client mode: the page hands the server its token's API key (never the secret) so the server can
// follow the account on the exchange's user data stream while no page is open. Only a key the exchange accepted
// from this trader through our relay is taken; only while "Follow my account while I'm away" is on. A trade the
// exchange closes then is recorded with no page open; the orders the close left waiting are listed for the page,
// which cancels them with the key and clears the mark. On a listening app, through the real relay, against the
// real paper exchange (which serves user data only as Binance's production does).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { tradeAnswer, waitingOrdersAnswer, type Trade, type TradePreferences } from '../../../../contracts';
import { ExchangeClient, signerFor } from '../../../../shared-core/exchange-client';
import {
  addDecimals,
  compareDecimals,
  mulDecimals,
  roundDecimal,
} from '../../../../shared-core/trade-core-node';
import { clientOrderIds, openPosition } from '../../../../shared-core/trade-flow';
import { cancelExitQuietly, cancelQuietly } from '../../../../shared-core/trade-flow-common';
import { followedAccounts, symbols } from '../../db/schema';
import { trades } from '../../db/schema-trades';
import { AccountStreams } from '../../services/account-streams';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../../test/test-app';

const SYMBOL = 'XRPUSDT';
let exchange: PaperExchangeHandle;
let t: TestApp;
let appUrl: string;
let streams: AccountStreams;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 371 });
  t = await createTestApp({ exchange });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  appUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  streams = new AccountStreams({
    db: t.db,
    box: t.app.secretBox,
    desk: t.tradeDesk,
    log: { info: () => undefined, warn: () => undefined },
    refreshMs: 100,
  });
  await streams.start();
});
afterAll(async () => {
  await streams?.close();
  exchange?.admin.setPrice(SYMBOL, null);
  await t?.close();
  await exchange?.close();
});

/** A client-mode trader: the keys stay on "the page" (this test), requests go through the relay. */
async function clientModeTrader(nickname: string) {
  const login = await signUpAndLogIn(t.app, nickname);
  const account = exchange.admin.createAccount('10000');
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: login.headers, ...(payload ? { payload } : {}) });
  const client = new ExchangeClient({
    baseUrl: `${appUrl}/api/exchange_relay/${PAPER_PLATFORM_UUID}`,
    credentials: { api_key: account.apiKey, signer: signerFor(account.apiSecret) },
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', login.headers.authorization);
      return fetch(input, { ...init, headers });
    },
  });
  const setFollow = async (follow: 0 | 1) => {
    const saved = await call('POST', '/api/trade_preferences/set_preferences/', {
      trade_auto_open_delay: 0,
      trade_auto_close_delay: 0,
      minimal_accuracy: 60,
      trade_in_server_side: 0,
      trade_follow_when_away: follow,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return saved.json().result as TradePreferences;
  };
  return {
    login,
    account,
    call,
    client,
    setFollow,
    follow: (apiKey = account.apiKey) =>
      call('POST', '/api/trade_token/follow_account/', {
        platform_uuid: PAPER_PLATFORM_UUID,
        api_key: apiKey,
      }),
    /** As the page opens a client-mode trade: signed here, through the relay, then recorded. */
    async open(beforeRecord?: (exits: { take_profit: string }) => Promise<void>): Promise<Trade> {
      exchange.admin.setPrice(SYMBOL, '2.5');
      const signal = await insertTestSignal(t.db, {
        platform_uuid: PAPER_PLATFORM_UUID,
        symbol_pair: SYMBOL,
      });
      const [row] = await t.db.select().from(symbols).where(eq(symbols.symbol_pair, SYMBOL));
      const symbol = { price: row!.symbol_price_precision, quantity: row!.symbol_quantity_precision };
      const opened = await openPosition(client, {
        symbol_pair: SYMBOL,
        trade_direction: 'BUY',
        trade_margin: TEST_TRADE_SETTINGS.trade_margin,
        trade_leverage: TEST_TRADE_SETTINGS.trade_leverage,
        trade_stop_loss_percent: TEST_TRADE_SETTINGS.trade_stop_loss_percent,
        symbol_price_precision: symbol.price,
        symbol_quantity_precision: symbol.quantity,
        signal_uuid: signal.signal_uuid,
        exits: {
          trade_take_profit_percent: TEST_TRADE_SETTINGS.trade_take_profit_percent,
          trade_treiling_stop_percent: TEST_TRADE_SETTINGS.trade_treiling_stop_percent,
        },
      });
      const held = opened.exits?.take_profit;
      if (beforeRecord && held?.held_by === 'exchange') await beforeRecord({ take_profit: held.price });
      const created = await call('POST', '/api/trade_client/create_trade/', {
        signal_uuid: signal.signal_uuid,
        ...TEST_TRADE_SETTINGS,
        trade_quantity: opened.trade_quantity,
        trade_open_price: opened.trade_open_price,
        trade_order_id: opened.trade_order_id,
        trade_stop_order_id: opened.trade_stop_order_id,
        trade_stop_price: opened.trade_stop_price,
        trade_exits: opened.exits ?? null,
        trade_backstop: opened.trade_backstop ?? null,
      });
      expect(created.statusCode, created.body).toBe(201);
      return tradeAnswer.parse(created.json()).result;
    },
  };
}

const statusOf = async (trade: Trade) =>
  (await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid)))[0]!;

const takeProfitOf = (trade: Trade) => {
  const hold = trade.trade_exits?.take_profit;
  if (hold?.held_by !== 'exchange') throw new Error('the take profit is not held by the exchange');
  return hold.price;
};

describe('client mode followed while the trader is away (issue 37)', () => {
  it('takes only a key the exchange accepted from this trader through the relay', async () => {
    const trader = await clientModeTrader('follow-unbound');
    // Not yet used through the relay: bound to nobody.
    const early = await trader.follow();
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(/not accepted this API key/);

    await trader.client.getAccount();
    const answer = await trader.follow();
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().result).toEqual({ platform_uuid: PAPER_PLATFORM_UUID, followed: true });

    // Someone who got hold of this API key cannot have the owner's account followed.
    const thief = await clientModeTrader('follow-thief');
    const stolen = await thief.follow(trader.account.apiKey);
    expect(stolen.statusCode).toBe(409);
    const rows = await t.db
      .select()
      .from(followedAccounts)
      .where(eq(followedAccounts.user_uuid, thief.login.user_uuid));
    expect(rows).toEqual([]);
    // Bad input: a clear 400.
    const bad = await trader.call('POST', '/api/trade_token/follow_account/', { platform_uuid: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBeTruthy();
  });

  it('a take profit filled with no page open is recorded; the page then cancels what the close left waiting', async () => {
    const trader = await clientModeTrader('follow-away');
    await trader.client.getAccount();
    expect((await trader.follow()).statusCode).toBe(200);
    const trade = await trader.open();
    await expect.poll(() => streams.connected(trader.login.user_uuid, PAPER_PLATFORM_UUID)).toBe(true);

    // The page is closed; the exchange fills the take profit.
    exchange.admin.setPrice(SYMBOL, addDecimals(takeProfitOf(trade), '0.001'));
    await expect
      .poll(async () => (await statusOf(trade)).trade_status, { timeout: 10_000 })
      .toBe('take_profit');
    const row = await statusOf(trade);
    expect(compareDecimals(row.trade_close_price!, takeProfitOf(trade))).toBeGreaterThanOrEqual(0);

    // Back, with the key: the waiting orders are listed, cancelled through the relay, and cleared.
    const ids = clientOrderIds(trade.signal_uuid);
    const listed = waitingOrdersAnswer.parse(
      (await trader.call('GET', '/api/trade/get_waiting_orders/')).json(),
    ).result.waiting;
    expect(listed).toEqual([
      {
        trade_uuid: trade.trade_uuid,
        platform_uuid: PAPER_PLATFORM_UUID,
        symbol_pair: SYMBOL,
        order_ids: expect.arrayContaining([ids.stop, ids.trailing, ids.backstop]) as unknown as string[],
      },
    ]);
    expect(listed[0]!.order_ids).toHaveLength(3);
    expect(await cancelQuietly(trader.client, SYMBOL, ids.stop)).toBe(true);
    expect(await cancelExitQuietly(trader.client, ids.trailing)).toBe(true);
    expect(await cancelExitQuietly(trader.client, ids.backstop)).toBe(true);
    const cleared = await trader.call('POST', '/api/trade/clear_waiting_orders/', {
      trade_uuid: trade.trade_uuid,
      order_ids: listed[0]!.order_ids,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const after = waitingOrdersAnswer.parse(
      (await trader.call('GET', '/api/trade/get_waiting_orders/')).json(),
    );
    expect(after.result.waiting).toEqual([]);
  });

  it('a gap through the stop-limit with no page open: the backstop closes at market, recorded stop_loss; back, the page cancels the rest and nothing is left (issue 54)', async () => {
    const trader = await clientModeTrader('follow-gap');
    await trader.client.getAccount();
    expect((await trader.follow()).statusCode).toBe(200);
    const trade = await trader.open();
    await expect.poll(() => streams.connected(trader.login.user_uuid, PAPER_PLATFORM_UUID)).toBe(true);
    const ids = clientOrderIds(trade.signal_uuid);
    if (trade.trade_backstop?.held_by !== 'exchange')
      throw new Error('the backstop is not held by the exchange');

    // The page is closed; the price gaps past the stop's limit and the backstop.
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(trade.trade_backstop.price, '0.98'), 4));
    await expect
      .poll(async () => (await statusOf(trade)).trade_status, { timeout: 10_000 })
      .toBe('stop_loss');
    expect(compareDecimals((await trader.client.getPositionRisk(SYMBOL)).positionAmt, '0')).toBe(0);
    expect(compareDecimals((await statusOf(trade)).trade_close_price!, trade.trade_backstop.price)).toBe(-1);

    // Back: the stop's resting limit order and both exits are listed; the page cancels them and nothing is left.
    const listed = waitingOrdersAnswer.parse(
      (await trader.call('GET', '/api/trade/get_waiting_orders/')).json(),
    ).result.waiting;
    expect([...listed[0]!.order_ids].sort()).toEqual([ids.stop, ids.takeProfit, ids.trailing].sort());
    expect(await cancelQuietly(trader.client, SYMBOL, ids.stop)).toBe(true);
    expect(await cancelExitQuietly(trader.client, ids.takeProfit)).toBe(true);
    expect(await cancelExitQuietly(trader.client, ids.trailing)).toBe(true);
    expect(await trader.client.getOpenAlgoIds(SYMBOL)).toEqual([]);
    expect(await trader.client.getOpenOrderIds(SYMBOL)).toEqual([]);
  });

  it('an exit that fills before the page recorded its trade is recorded once the record arrives', async () => {
    const trader = await clientModeTrader('follow-early');
    await trader.client.getAccount();
    expect((await trader.follow()).statusCode).toBe(200);
    // A first trade starts the account's stream (it stays a while after its close).
    const first = await trader.open();
    await expect.poll(() => streams.connected(trader.login.user_uuid, PAPER_PLATFORM_UUID)).toBe(true);
    exchange.admin.setPrice(SYMBOL, addDecimals(takeProfitOf(first), '0.001'));
    await expect
      .poll(async () => (await statusOf(first)).trade_status, { timeout: 10_000 })
      .toBe('take_profit');
    await cancelQuietly(trader.client, SYMBOL, clientOrderIds(first.signal_uuid).stop);
    await cancelExitQuietly(trader.client, clientOrderIds(first.signal_uuid).trailing);

    // The next one's take profit fills between the exchange steps and the page's record.
    const trade = await trader.open(async ({ take_profit }) => {
      exchange.admin.setPrice(SYMBOL, addDecimals(take_profit, '0.001'));
      await expect
        .poll(async () => (await trader.client.getPositionRisk(SYMBOL)).positionAmt)
        .toMatch(/^0(\.0+)?$/);
    });
    await expect
      .poll(async () => (await statusOf(trade)).trade_status, { timeout: 10_000 })
      .toBe('take_profit');
    expect(
      compareDecimals((await statusOf(trade)).trade_close_price!, takeProfitOf(trade)),
    ).toBeGreaterThanOrEqual(0);
  });

  it('switched off: the key is forgotten, the stream stops, and a close by the exchange waits for the page', async () => {
    const trader = await clientModeTrader('follow-off');
    await trader.client.getAccount();
    expect((await trader.follow()).statusCode).toBe(200);
    const trade = await trader.open();
    await expect.poll(() => streams.connected(trader.login.user_uuid, PAPER_PLATFORM_UUID)).toBe(true);

    const saved = await trader.setFollow(0);
    expect(saved.trade_follow_when_away).toBe(0);
    const keys = await t.db
      .select()
      .from(followedAccounts)
      .where(eq(followedAccounts.user_uuid, trader.login.user_uuid));
    expect(keys).toEqual([]);
    await expect.poll(() => streams.connected(trader.login.user_uuid, PAPER_PLATFORM_UUID)).toBe(false);
    const refused = await trader.follow();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/off in Trade Preferences/);

    exchange.admin.setPrice(SYMBOL, addDecimals(takeProfitOf(trade), '0.001'));
    await expect
      .poll(async () => (await trader.client.getPositionRisk(SYMBOL)).positionAmt)
      .toMatch(/^0(\.0+)?$/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await statusOf(trade)).trade_status).toBe('open');
  });
});
