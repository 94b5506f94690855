// Issue 37, server mode: the server follows the trader's account on the exchange's user data stream, so a trade
// the exchange closes while nobody is looking — by its take profit, its trailing stop, its stop, or by hand on
// the exchange — is recorded closed within moments, with the exchange's fill, commission and status, with no
// page open and no PIN after the open. The orders the close left waiting are marked, and the next call with the
// key cancels them. Everything against the real paper exchange, which serves user data only as Binance's
// production does (/private/ws?listenKey=…&events=…).
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import { tradeAnswer, type Trade } from '../../../contracts';
import { clientOrderIds } from '../../../shared-core/trade-flow';
import {
  addDecimals,
  compareDecimals,
  mulDecimals,
  roundDecimal,
  stopPrice,
} from '../../../shared-core/trade-core-node';
import { followedAccounts, platforms } from '../db/schema';
import { trades, type TradeRow } from '../db/schema-trades';
import { AccountStreams } from './account-streams';
import { followAccount, followedApiKey } from './followed-accounts';
import { PAPER_PLATFORM_UUID } from './platforms';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  serverModeTrader,
  type TestApp,
} from '../../test/test-app';

const PIN = '13579';
const SYMBOL = 'SOLUSDT';
let exchange: PaperExchangeHandle;
let t: TestApp;
let streams: AccountStreams;
const recorded: string[] = [];

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 37 });
  t = await createTestApp({ exchange });
  streams = new AccountStreams({
    db: t.db,
    box: t.app.secretBox,
    desk: t.tradeDesk,
    log: { info: () => undefined, warn: () => undefined },
    refreshMs: 100,
    onClose: (tradeUuid) => recorded.push(tradeUuid),
  });
  await streams.start();
});
afterAll(async () => {
  await streams?.close();
  exchange?.admin.setPrice(SYMBOL, null);
  await t?.close();
  await exchange?.close();
});

type Algo = { clientAlgoId: string };

async function newTrader() {
  const trader = await serverModeTrader(t, exchange.url, PIN, 'away');
  const { call, credentials, client, login } = trader;
  const signedGet = async <T>(path: string, params: Record<string, string>): Promise<T> => {
    const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) });
    const signature = createHmac('sha256', credentials.api_secret).update(query.toString()).digest('hex');
    const response = await fetch(`${exchange.url}${path}?${query.toString()}&signature=${signature}`, {
      headers: { 'X-MBX-APIKEY': credentials.api_key },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  return {
    ...trader,
    user_uuid: login.user_uuid,
    async open(): Promise<Trade> {
      const signal = await insertTestSignal(t.db, {
        platform_uuid: PAPER_PLATFORM_UUID,
        symbol_pair: SYMBOL,
      });
      const response = await call('POST', '/api/trade_server/create_trade/', {
        signal_uuid: signal.signal_uuid,
        ...TEST_TRADE_SETTINGS,
        pin_code: PIN,
      });
      expect(response.statusCode, response.body).toBe(201);
      const trade = tradeAnswer.parse(response.json()).result;
      // The stream of the account is up before anything happens on the exchange.
      await expect.poll(() => streams.connected(login.user_uuid, PAPER_PLATFORM_UUID)).toBe(true);
      return trade;
    },
    position: async () => (await client.getPositionRisk(SYMBOL)).positionAmt,
    waiting: async () =>
      (await signedGet<Algo[]>('/fapi/v1/openAlgoOrders', { symbol: SYMBOL }))
        .map((a) => a.clientAlgoId)
        .sort(),
    /** The client ids of the symbol's open regular orders (a triggered stop's resting limit order). */
    resting: async () =>
      (await signedGet<{ clientOrderId: string }[]>('/fapi/v1/openOrders', { symbol: SYMBOL }))
        .map((order) => order.clientOrderId)
        .sort(),
    async lastFill(): Promise<string> {
      const fills = await signedGet<{ price: string; id: number }[]>('/fapi/v1/userTrades', {
        symbol: SYMBOL,
      });
      return fills.sort((a, b) => a.id - b.id).at(-1)!.price;
    },
  };
}

const rowOf = async (trade: Trade): Promise<TradeRow> =>
  (await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid)))[0]!;

/** The trade's row once it is no longer open (no PIN, no page: only the stream can close it). */
async function closedRow(trade: Trade): Promise<TradeRow> {
  await expect.poll(async () => (await rowOf(trade)).trade_status, { timeout: 10_000 }).not.toBe('open');
  return rowOf(trade);
}

const heldPrice = (trade: Trade, exit: 'take_profit' | 'trailing'): string => {
  const hold = trade.trade_exits?.[exit];
  if (hold?.held_by !== 'exchange') throw new Error(`${exit} is not held by the exchange`);
  return hold.price;
};

const takerFee = (quantity: string, price: string) =>
  roundDecimal(mulDecimals(mulDecimals(quantity, price), '0.0005'), 8);

describe('the account followed while the trader is away, server mode (issue 37)', () => {
  it('stores the API key, never the secret, sealed apart from the envelope, bound to its trader', async () => {
    const trader = await newTrader();
    const [row] = await t.db
      .select()
      .from(followedAccounts)
      .where(eq(followedAccounts.user_uuid, trader.user_uuid));
    expect(row).toBeDefined();
    expect(row!.api_key_sealed.startsWith('sb1.')).toBe(true);
    expect(row!.api_key_sealed).not.toContain(trader.credentials.api_key);
    expect(JSON.stringify(row)).not.toContain(trader.credentials.api_secret);
    expect(followedApiKey(t.app.secretBox, row!)).toBe(trader.credentials.api_key);
    // Moved to another trader's row, the sealed key does not open.
    expect(() => followedApiKey(t.app.secretBox, { ...row!, user_uuid: crypto.randomUUID() })).toThrow();

    // Another trader who pasted this API key cannot have it followed: it is bound to its owner.
    const other = await serverModeTrader(t, exchange.url, PIN, 'copycat');
    const answer = await followAccount(t.db, t.app.secretBox, {
      user_uuid: other.login.user_uuid,
      platform_uuid: PAPER_PLATFORM_UUID,
      api_key: trader.credentials.api_key,
    });
    expect(answer).toBe('not_bound');
    const [theirs] = await t.db
      .select()
      .from(followedAccounts)
      .where(eq(followedAccounts.user_uuid, other.login.user_uuid));
    expect(followedApiKey(t.app.secretBox, theirs!)).toBe(other.credentials.api_key);
  });

  it('the platform names its stream as production serves it', async () => {
    const [paper] = await t.db
      .select()
      .from(platforms)
      .where(eq(platforms.platform_uuid, PAPER_PLATFORM_UUID));
    expect(paper!.user_stream_url).toBe(
      `${exchange.url.replace(/^http/, 'ws')}/private/ws?listenKey={listenKey}&events={events}`,
    );
  });

  it('take profit filled with nobody looking: recorded take_profit at the fill with its commission; the leftovers are marked, then cancelled by the next call with the key', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await newTrader();
    const trade = await trader.open();
    const ids = clientOrderIds(trade.signal_uuid);
    exchange.admin.setPrice(SYMBOL, addDecimals(heldPrice(trade, 'take_profit'), '0.5'));
    const row = await closedRow(trade);
    const fill = await trader.lastFill();
    expect(row.trade_status).toBe('take_profit');
    expect(compareDecimals(row.trade_close_price!, fill)).toBe(0);
    expect(compareDecimals(row.trade_close_commission!, takerFee(trade.trade_quantity, fill))).toBe(0);
    expect(row.trade_close_cause).toBeNull();
    expect(recorded).toContain(trade.trade_uuid);
    // The stop and the trailing stop still wait on the exchange, and the record says so.
    // The stop, its backstop (issue 54) and the trailing stop still wait on the exchange, and the record says so.
    expect(await trader.waiting()).toEqual([ids.stop, ids.backstop, ids.trailing].sort());
    expect([...row.trade_exits_waiting!].sort()).toEqual([ids.stop, ids.backstop, ids.trailing].sort());

    // The PIN is back (the balance call): they are cancelled, and the mark goes.
    const balance = await trader.call('POST', '/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    expect(balance.statusCode, balance.body).toBe(200);
    await t.tradeDesk.idle();
    expect(await trader.waiting()).toEqual([]);
    expect((await rowOf(trade)).trade_exits_waiting).toBeNull();
  });

  it('the trailing stop: recorded treiling_stop at its fill', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await newTrader();
    const trade = await trader.open();
    const best = addDecimals(heldPrice(trade, 'trailing'), '0.1');
    expect(compareDecimals(best, heldPrice(trade, 'take_profit'))).toBe(-1);
    exchange.admin.setPrice(SYMBOL, best);
    await new Promise((resolve) => setTimeout(resolve, 50));
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(best, '0.996'), 2));
    const row = await closedRow(trade);
    expect(row.trade_status).toBe('treiling_stop');
    expect(compareDecimals(row.trade_close_price!, await trader.lastFill())).toBe(0);
    const ids = clientOrderIds(trade.signal_uuid);
    expect([...row.trade_exits_waiting!].sort()).toEqual([ids.stop, ids.backstop, ids.takeProfit].sort());
  });

  it('the stop: recorded stop_loss at its fill; the next open on the symbol cancels the exits it left', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await newTrader();
    const trade = await trader.open();
    const stop = stopPrice({
      direction: 'BUY',
      entryPrice: trade.trade_open_price,
      stopLossPercent: 10,
      leverage: 10,
      pricePrecision: trade.symbol.symbol_price_precision,
    });
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(stop, '0.998'), 2));
    const row = await closedRow(trade);
    const fill = await trader.lastFill();
    expect(row.trade_status).toBe('stop_loss');
    expect(compareDecimals(row.trade_close_price!, fill)).toBe(0);
    expect(compareDecimals(row.trade_close_commission!, takerFee(trade.trade_quantity, fill))).toBe(0);
    const ids = clientOrderIds(trade.signal_uuid);
    // The stop-limit filled: its backstop is left with the exits (issue 54).
    expect([...row.trade_exits_waiting!].sort()).toEqual([ids.takeProfit, ids.trailing, ids.backstop].sort());

    exchange.admin.setPrice(SYMBOL, '150');
    const next = await trader.open();
    const fresh = clientOrderIds(next.signal_uuid);
    expect(await trader.waiting()).toEqual(
      [fresh.stop, fresh.backstop, fresh.takeProfit, fresh.trailing].sort(),
    );
    expect((await rowOf(trade)).trade_exits_waiting).toBeNull();
    expect(await trader.position()).toBe(next.trade_quantity);
  });

  it('a gap through the stop-limit with nobody looking: the backstop closes at market, recorded stop_loss at its fill; the PIN cancels the rest (issue 54)', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await newTrader();
    const trade = await trader.open();
    const stop = stopPrice({
      direction: 'BUY',
      entryPrice: trade.trade_open_price,
      stopLossPercent: 10,
      leverage: 10,
      pricePrecision: trade.symbol.symbol_price_precision,
    });
    // 3 % below the stop: past its limit (1 % beyond it) and its backstop; the limit order rests unfilled.
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(stop, '0.97'), 2));
    const row = await closedRow(trade);
    const fill = await trader.lastFill();
    expect(row.trade_status).toBe('stop_loss');
    expect(compareDecimals(row.trade_close_price!, fill)).toBe(0);
    expect(compareDecimals(fill, mulDecimals(stop, '0.99'))).toBe(-1);
    expect(compareDecimals(await trader.position(), '0')).toBe(0);
    const ids = clientOrderIds(trade.signal_uuid);
    // The stop's resting limit order and both exits wait, and the record says so; the PIN cancels them all.
    expect([...row.trade_exits_waiting!].sort()).toEqual([ids.stop, ids.takeProfit, ids.trailing].sort());
    expect(await trader.resting()).toEqual([ids.stop]);
    const balance = await trader.call('POST', '/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    expect(balance.statusCode, balance.body).toBe(200);
    await t.tradeDesk.idle();
    expect(await trader.waiting()).toEqual([]);
    expect(await trader.resting()).toEqual([]);
    expect((await rowOf(trade)).trade_exits_waiting).toBeNull();
  });

  it('closed by hand on the exchange: manual_close at that fill, with the cause', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await newTrader();
    const trade = await trader.open();
    exchange.admin.setPrice(SYMBOL, '150.2');
    // The trader closes the position in the exchange's own app (an order that is not Signaldesk's).
    await trader.client.placeMarketOrder({
      symbol: SYMBOL,
      side: 'SELL',
      quantity: trade.trade_quantity,
      newClientOrderId: 'web_closed_by_hand_1',
      reduceOnly: true,
    });
    const row = await closedRow(trade);
    const fill = await trader.lastFill();
    expect(row.trade_status).toBe('manual_close');
    expect(row.trade_close_cause).toBe('by_hand');
    expect(compareDecimals(row.trade_close_price!, fill)).toBe(0);
    expect(compareDecimals(row.trade_close_commission!, takerFee(trade.trade_quantity, fill))).toBe(0);
    const ids = clientOrderIds(trade.signal_uuid);
    expect([...row.trade_exits_waiting!].sort()).toEqual(
      [ids.stop, ids.backstop, ids.takeProfit, ids.trailing].sort(),
    );
    // On the wire with its cause.
    const range = new URLSearchParams({
      start_date: new Date(Date.now() - 86_400_000).toISOString(),
      end_date: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const history = await trader.call('GET', `/api/trade/get_trades_history/?${range.toString()}`);
    expect(history.statusCode, history.body).toBe(200);
    const listed = (history.json().result.trade_list as Trade[]).find(
      (x) => x.trade_uuid === trade.trade_uuid,
    );
    expect(listed?.trade_close_cause).toBe('by_hand');
  });

  it('a close through Signaldesk is recorded once, by the close, not as a close by hand', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await newTrader();
    const trade = await trader.open();
    const closed = await trader.call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
    expect(closed.statusCode, closed.body).toBe(200);
    // The stream saw the close's fill and the position at 0; its grace passes and nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await streams.idle();
    const row = await rowOf(trade);
    expect(row.trade_status).toBe('manual_close');
    expect(row.trade_close_cause).toBeNull();
    expect(recorded).not.toContain(trade.trade_uuid);
  });
});
