// Issue 35, server mode: the exchange holds each trade's take profit and trailing stop, so they close the
// position with no page open and no PIN given after the open. The record follows when a PIN is back (the
// balance call's reconciliation, or the next open on the symbol), with the exchange's fill, commission and
// status; the exits a close leaves waiting on the exchange are cancelled then, before any new open there.
// Everything against the real paper exchange, as strict as Binance (the Algo Order API, mark-price triggers).
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { tradeAnswer, type Trade } from '../../../../contracts';
import { clientOrderIds } from '../../../../shared-core/trade-flow';
import {
  addDecimals,
  compareDecimals,
  mulDecimals,
  roundDecimal,
  stopPrice,
  takeProfitPrice,
  trailingActivationPrice,
} from '../../../../shared-core/trade-core-node';
import { trades, type TradeRow } from '../../db/schema-trades';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  serverModeTrader,
  type TestApp,
} from '../../../test/test-app';

const PIN = '24680';
const SYMBOL = 'ETHUSDT';
const ENTRY = '3000';
let exchange: PaperExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 35 });
  t = await createTestApp({ exchange });
});
afterAll(async () => {
  exchange?.admin.setPrice(SYMBOL, null);
  await t?.close();
  await exchange?.close();
});

type Algo = { clientAlgoId: string; algoStatus?: string; orderType?: string };

/** A trader with a funded paper account and a server-mode token under PIN. */
async function newTrader() {
  const { call, credentials, client } = await serverModeTrader(t, exchange.url, PIN, 'walkaway');
  /** A signed read of the exchange's own view, beside the client under test. */
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
    call,
    client,
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
      return tradeAnswer.parse(response.json()).result;
    },
    /** The PIN is back: the balance call, and the reconciliation it starts. */
    async pinBack(): Promise<void> {
      const balance = await call('POST', '/api/account_balance/get_account_balance/', {
        platform_uuid: PAPER_PLATFORM_UUID,
        pin_code: PIN,
      });
      expect(balance.statusCode, balance.body).toBe(200);
      await t.tradeDesk.idle();
    },
    position: async () => (await client.getPositionRisk(SYMBOL)).positionAmt,
    /** The trader's algo orders still waiting on the symbol (stop, take profit, trailing stop). */
    waiting: async () =>
      (await signedGet<Algo[]>('/fapi/v1/openAlgoOrders', { symbol: SYMBOL })).map(
        (algo) => algo.clientAlgoId,
      ),
    /** The price of the account's latest fill on the symbol. */
    async lastFill(): Promise<string | undefined> {
      const fills = await signedGet<{ price: string; id: number }[]>('/fapi/v1/userTrades', {
        symbol: SYMBOL,
      });
      return fills.sort((a, b) => a.id - b.id).at(-1)?.price;
    },
  };
}

const rowOf = async (trade: Trade): Promise<TradeRow> =>
  (await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid)))[0]!;

const heldPrice = (trade: Trade, exit: 'take_profit' | 'trailing'): string => {
  const hold = trade.trade_exits?.[exit];
  if (hold?.held_by !== 'exchange') throw new Error(`${exit} is not held by the exchange`);
  return hold.price;
};

/** Commission of a taker fill on the paper exchange: 0.05 % of its notional, 8 decimals. */
const takerFee = (quantity: string, price: string) =>
  roundDecimal(mulDecimals(mulDecimals(quantity, price), '0.0005'), 8);

describe('exits held by the exchange, server mode (issue 35)', () => {
  it("places both exits at trade-core's prices; with no PIN the take profit closes the position, and the PIN's return records it", async () => {
    exchange.admin.setPrice(SYMBOL, ENTRY);
    const trader = await newTrader();
    const trade = await trader.open();
    const terms = {
      direction: 'BUY' as const,
      entryPrice: trade.trade_open_price,
      leverage: 10,
      pricePrecision: trade.symbol.symbol_price_precision,
    };
    expect(trade.trade_exits).toEqual({
      take_profit: {
        held_by: 'exchange',
        price: takeProfitPrice({ ...terms, takeProfitPercent: 5 }),
      },
      trailing: {
        held_by: 'exchange',
        price: trailingActivationPrice({ ...terms, trailingPercent: 3 }),
      },
    });
    const ids = clientOrderIds(trade.signal_uuid);
    // The stop's market backstop beside them (issue 54).
    expect(trade.trade_backstop?.held_by).toBe('exchange');
    expect((await trader.waiting()).sort()).toEqual(
      [ids.stop, ids.backstop, ids.takeProfit, ids.trailing].sort(),
    );

    // Nobody is looking: the price passes the take profit, and the exchange alone closes the position.
    exchange.admin.setPrice(SYMBOL, addDecimals(heldPrice(trade, 'take_profit'), '1'));
    await expect.poll(trader.position).toBe('0.000');
    const fill = (await trader.lastFill())!;
    // Nothing is recorded without a key, and the stop and the trailing stop wait on the exchange.
    expect((await rowOf(trade)).trade_status).toBe('open');
    expect((await trader.waiting()).sort()).toEqual([ids.stop, ids.backstop, ids.trailing].sort());

    await trader.pinBack();
    const row = await rowOf(trade);
    expect(row).toMatchObject({ trade_status: 'take_profit', trade_close_timestamp: expect.any(Date) });
    expect(compareDecimals(row.trade_close_price!, fill)).toBe(0);
    expect(compareDecimals(row.trade_close_commission!, takerFee(trade.trade_quantity, fill))).toBe(0);
    expect(await trader.waiting()).toEqual([]);
  });

  it('with no PIN the trailing stop closes after the price rose past its activation and fell back by the callback', async () => {
    exchange.admin.setPrice(SYMBOL, ENTRY);
    const trader = await newTrader();
    const trade = await trader.open();
    const activation = heldPrice(trade, 'trailing');
    // Past the activation, short of the take profit; then 0.3 % (3 % at 10×) and more below that best price.
    const best = addDecimals(activation, '2');
    expect(compareDecimals(best, heldPrice(trade, 'take_profit'))).toBe(-1);
    exchange.admin.setPrice(SYMBOL, best);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await trader.position()).toBe(trade.trade_quantity);
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(best, '0.996'), 2));
    await expect.poll(trader.position).toBe('0.000');
    const fill = (await trader.lastFill())!;

    await trader.pinBack();
    const row = await rowOf(trade);
    expect(row.trade_status).toBe('treiling_stop');
    expect(compareDecimals(row.trade_close_price!, fill)).toBe(0);
    expect(await trader.waiting()).toEqual([]);
  });

  it('with no PIN the stop closes it; the PIN records stop_loss and cancels both exits', async () => {
    exchange.admin.setPrice(SYMBOL, ENTRY);
    const trader = await newTrader();
    const trade = await trader.open();
    const stop = stopPrice({
      direction: 'BUY',
      entryPrice: trade.trade_open_price,
      stopLossPercent: 10,
      leverage: 10,
      pricePrecision: trade.symbol.symbol_price_precision,
    });
    // Just through the stop, within its limit (1 % beyond the trigger).
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(stop, '0.998'), 2));
    await expect.poll(trader.position).toBe('0.000');
    const ids = clientOrderIds(trade.signal_uuid);
    expect((await trader.waiting()).sort()).toEqual([ids.backstop, ids.takeProfit, ids.trailing].sort());

    await trader.pinBack();
    expect((await rowOf(trade)).trade_status).toBe('stop_loss');
    expect(await trader.waiting()).toEqual([]);
  });

  it('a new open on the symbol first records the trade the exchange closed and cancels its leftover exits', async () => {
    exchange.admin.setPrice(SYMBOL, ENTRY);
    const trader = await newTrader();
    const first = await trader.open();
    exchange.admin.setPrice(SYMBOL, addDecimals(heldPrice(first, 'take_profit'), '1'));
    await expect.poll(trader.position).toBe('0.000');
    const old = clientOrderIds(first.signal_uuid);
    expect(await trader.waiting()).toContain(old.trailing);

    // No balance call in between: the open itself settles the symbol before its MARKET order.
    exchange.admin.setPrice(SYMBOL, ENTRY);
    const second = await trader.open();
    expect((await rowOf(first)).trade_status).toBe('take_profit');
    const fresh = clientOrderIds(second.signal_uuid);
    expect((await trader.waiting()).sort()).toEqual(
      [fresh.stop, fresh.backstop, fresh.takeProfit, fresh.trailing].sort(),
    );
    // The new position is whole: nothing of the first trade acted on it.
    expect(await trader.position()).toBe(second.trade_quantity);

    // A close by hand cancels the stop and both exits.
    const closed = await trader.call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: second.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await trader.waiting()).toEqual([]);
    expect(await trader.position()).toBe('0.000');
  });

  it('the preference off leaves both exits to Signaldesk, as before', async () => {
    exchange.admin.setPrice(SYMBOL, ENTRY);
    const trader = await newTrader();
    const saved = await trader.call('POST', '/api/trade_preferences/set_preferences/', {
      trade_auto_open_delay: 0,
      trade_auto_close_delay: 0,
      minimal_accuracy: 60,
      trade_in_server_side: 1,
      trade_exits_on_exchange: 0,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const trade = await trader.open();
    expect(trade.trade_exits).toBeNull();
    const ids = clientOrderIds(trade.signal_uuid);
    expect((await trader.waiting()).sort()).toEqual([ids.stop, ids.backstop].sort());
    exchange.admin.setPrice(SYMBOL, addDecimals(trade.trade_open_price, '30'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await trader.position()).toBe(trade.trade_quantity);
    await trader.call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
  });
});
