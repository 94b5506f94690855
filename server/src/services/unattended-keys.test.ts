// Issue 54: the server acting while the trader is away, by the trader's choice. With
// trade_server_acts_when_away on, a call with the PIN keeps a second seal of the server-mode token (never in
// clear), and a trade its stop closed with nobody looking leaves no order of it on the exchange seconds later;
// with the option off its leftovers stay listed until the PIN is back. The unattended key sends protective
// calls only: an opening order, a close and a leverage change never leave. Against the real paper exchange.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import { tradeAnswer, type Trade } from '../../../contracts';
import { clientOrderIds } from '../../../shared-core/trade-flow';
import { mulDecimals, roundDecimal, stopPrice } from '../../../shared-core/trade-core-node';
import { followedAccounts } from '../db/schema';
import { trades } from '../db/schema-trades';
import { AccountStreams } from './account-streams';
import { PAPER_PLATFORM_UUID } from './platforms';
import { notProtective } from './protective-calls';
import { leftoversCancelledWhenAway, unattendedClient } from './unattended-keys';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  serverModeTrader,
  type TestApp,
} from '../../test/test-app';
import { startPushEndpoint, type PushEndpoint } from '../../test/push-endpoint';

const PIN = '24681';
const SYMBOL = 'DOGEUSDT';
let exchange: PaperExchangeHandle;
let t: TestApp;
let streams: AccountStreams;
let push: PushEndpoint;
const outcomes = new Map<string, string>();

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 54 });
  push = await startPushEndpoint();
  t = await createTestApp({ exchange, pushEndpointOrigins: [push.origin] });
  const log = { info: () => undefined, warn: () => undefined };
  streams = new AccountStreams({
    db: t.db,
    box: t.app.secretBox,
    desk: t.tradeDesk,
    log,
    refreshMs: 100,
    // The wiring of engine/leader-duties.ts.
    onClose: leftoversCancelledWhenAway({
      db: t.db,
      box: t.app.secretBox,
      reconciler: t.tradeDesk.reconciler,
      log,
      push: t.app.webPush,
      onOutcome: ({ trade_uuid, outcome }) => outcomes.set(trade_uuid, outcome),
    }),
  });
  await streams.start();
});
afterAll(async () => {
  await streams?.close();
  exchange?.admin.setPrice(SYMBOL, null);
  await t?.close();
  await push?.close();
  await exchange?.close();
});

const id = (kind: string) => `sd${kind}${'0123456789abcdef'.repeat(2)}`;
const request = (query: Record<string, string>, path = '/fapi/v1/algoOrder') =>
  new URL(`http://exchange.test${path}?${new URLSearchParams(query).toString()}`);

describe('the calls the unattended key may send (issue 54)', () => {
  it('refuses an opening order, a close, a leverage or margin change, and orders Signaldesk does not hold', () => {
    const market = { symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '100' };
    expect(
      notProtective('POST', request({ ...market, newClientOrderId: id('o') }, '/fapi/v1/order')),
    ).toBeDefined();
    // A reduce-only MARKET close is the trader's, with the PIN: not protective either.
    const close = { ...market, reduceOnly: 'true', newClientOrderId: id('c') };
    expect(notProtective('POST', request(close, '/fapi/v1/order'))).toBeDefined();
    expect(
      notProtective('POST', request({ symbol: SYMBOL, leverage: '20' }, '/fapi/v1/leverage')),
    ).toBeDefined();
    expect(
      notProtective('POST', request({ symbol: SYMBOL, marginType: 'CROSSED' }, '/fapi/v1/marginType')),
    ).toBeDefined();
    // A stop that is not reduce-only would open a position when it fires.
    const stop = { symbol: SYMBOL, side: 'SELL', type: 'STOP_MARKET', triggerPrice: '0.1', quantity: '100' };
    expect(notProtective('POST', request({ ...stop, clientAlgoId: id('b') }))).toBeDefined();
    expect(
      notProtective('POST', request({ ...stop, reduceOnly: 'true', clientAlgoId: 'my-own' })),
    ).toBeDefined();
    expect(notProtective('DELETE', request({ clientAlgoId: 'my-own' }))).toBeDefined();
    expect(
      notProtective('DELETE', request({ symbol: SYMBOL, orderId: '123' }, '/fapi/v1/order')),
    ).toBeDefined();
    expect(notProtective('GET', request({}, '/fapi/v2/account'))).toBeDefined();
  });

  it('sends the cancel and the reduce-only placing of a Signaldesk stop or exit, and reads', () => {
    expect(notProtective('DELETE', request({ clientAlgoId: id('t') }))).toBeUndefined();
    expect(
      notProtective('DELETE', request({ symbol: SYMBOL, origClientOrderId: id('s') }, '/fapi/v1/order')),
    ).toBeUndefined();
    const stop = { symbol: SYMBOL, side: 'SELL', type: 'STOP_MARKET', triggerPrice: '0.1', quantity: '100' };
    expect(
      notProtective('POST', request({ ...stop, reduceOnly: 'true', clientAlgoId: id('b') })),
    ).toBeUndefined();
    expect(notProtective('GET', request({ symbol: SYMBOL }, '/fapi/v1/openAlgoOrders'))).toBeUndefined();
    // Through the relay's path too: /api/exchange_relay/{uuid}/fapi/….
    const relayed = request({ clientAlgoId: id('r') }, '/api/exchange_relay/x/fapi/v1/algoOrder');
    expect(notProtective('DELETE', relayed)).toBeUndefined();
  });
});

async function trader(nickname: string, actsWhenAway: 0 | 1) {
  const made = await serverModeTrader(t, exchange.url, PIN, nickname);
  const saved = await made.call('POST', '/api/trade_preferences/set_preferences/', {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side: 1,
    trade_server_acts_when_away: actsWhenAway,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json().result.trade_server_acts_when_away).toBe(actsWhenAway);
  const user_uuid = made.login.user_uuid;
  const sealed = async () =>
    (
      await t.db
        .select({ sealed: followedAccounts.unattended_sealed })
        .from(followedAccounts)
        .where(eq(followedAccounts.user_uuid, user_uuid))
    )[0]?.sealed ?? null;
  return {
    ...made,
    user_uuid,
    sealed,
    async open(): Promise<Trade> {
      const signal = await insertTestSignal(t.db, {
        platform_uuid: PAPER_PLATFORM_UUID,
        symbol_pair: SYMBOL,
      });
      const response = await made.call('POST', '/api/trade_server/create_trade/', {
        signal_uuid: signal.signal_uuid,
        ...TEST_TRADE_SETTINGS,
        pin_code: PIN,
      });
      expect(response.statusCode, response.body).toBe(201);
      await expect.poll(() => streams.connected(user_uuid, PAPER_PLATFORM_UUID)).toBe(true);
      return tradeAnswer.parse(response.json()).result;
    },
    /** The client ids of the symbol's open orders, plain and algo. */
    async waiting(): Promise<string[]> {
      const [algos, orders] = await Promise.all([
        made.client.getOpenAlgoIds(SYMBOL),
        made.client.getOpenOrderIds(SYMBOL),
      ]);
      return [...algos, ...orders].sort();
    },
  };
}

/** The price through the trade's stop (ROE −15 % at the test's stop loss of 10 %), within its limit. */
function throughTheStop(trade: Trade): string {
  const stop = stopPrice({
    direction: trade.trade_direction,
    entryPrice: trade.trade_open_price,
    stopLossPercent: 10,
    leverage: 10,
    pricePrecision: trade.symbol.symbol_price_precision,
  });
  const factor = trade.trade_direction === 'BUY' ? '0.998' : '1.002';
  return roundDecimal(mulDecimals(stop, factor), trade.symbol.symbol_price_precision);
}

const rowOf = async (trade: Trade) =>
  (await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid)))[0]!;

describe('server mode acting while the trader is away (issue 54)', () => {
  it('with the option on: the PIN keeps a sealed second key; a stop closing the trade with nobody looking leaves no order of it on the exchange', async () => {
    exchange.admin.setPrice(SYMBOL, '0.2');
    const on = await trader('acts-away', 1);
    const trade = await on.open();
    const ids = clientOrderIds(trade.signal_uuid);
    expect(await on.waiting()).toEqual([ids.stop, ids.backstop, ids.takeProfit, ids.trailing].sort());
    // Kept sealed: neither the key nor the secret is in it in clear.
    await expect.poll(on.sealed).not.toBeNull();
    const sealed = (await on.sealed())!;
    expect(sealed).not.toContain(on.credentials.api_secret);
    expect(sealed).not.toContain(on.credentials.api_key);

    exchange.admin.setPrice(SYMBOL, throughTheStop(trade));
    await expect.poll(async () => (await rowOf(trade)).trade_status, { timeout: 10_000 }).toBe('stop_loss');
    // Within seconds, with no PIN and no page: the take profit, the trailing stop and the backstop are gone.
    await expect.poll(() => on.waiting(), { timeout: 10_000 }).toEqual([]);
    await expect.poll(async () => (await rowOf(trade)).trade_exits_waiting).toBeNull();
    expect(outcomes.get(trade.trade_uuid)).toBe('cancelled');
  });

  it('the unattended key cannot open, close or change leverage: the calls never reach the exchange', async () => {
    exchange.admin.setPrice(SYMBOL, '0.2');
    const on = await trader('acts-away-guard', 1);
    const trade = await on.open();
    await expect.poll(on.sealed).not.toBeNull();
    const client = (await unattendedClient(t.db, t.app.secretBox, on.user_uuid, PAPER_PLATFORM_UUID))!;
    expect(client).toBeDefined();
    const before = (await on.client.getPositionRisk(SYMBOL)).positionAmt;
    const opening = {
      symbol: SYMBOL,
      side: 'BUY' as const,
      quantity: '100',
      newClientOrderId: clientOrderIds(trade.signal_uuid).open.replace('sdo', 'sdx'),
    };
    await expect(client.placeMarketOrder(opening)).rejects.toThrow(/not a protective call/);
    await expect(client.placeMarketOrder({ ...opening, side: 'SELL', reduceOnly: true })).rejects.toThrow(
      /not a protective call/,
    );
    await expect(client.setLeverage(SYMBOL, 20)).rejects.toThrow(/not a protective call/);
    expect((await on.client.getPositionRisk(SYMBOL)).positionAmt).toBe(before);
    // What it may do, it does: the trade's own take profit is cancelled.
    await client.cancelExitOrder(clientOrderIds(trade.signal_uuid).takeProfit);
    expect(await on.waiting()).not.toContain(clientOrderIds(trade.signal_uuid).takeProfit);
  });

  it('with the option off no key is kept: the leftovers stay listed on the trade until the PIN is back; switched off, a kept key is deleted', async () => {
    exchange.admin.setPrice(SYMBOL, '0.2');
    const off = await trader('stays-away', 0);
    const device = push.device();
    const subscribed = await off.call('POST', '/api/push/subscribe/', {
      endpoint: device.endpoint,
      keys: device.keys,
      language: 'en',
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const trade = await off.open();
    expect(await off.sealed()).toBeNull();
    exchange.admin.setPrice(SYMBOL, throughTheStop(trade));
    await expect.poll(async () => (await rowOf(trade)).trade_status, { timeout: 10_000 }).toBe('stop_loss');
    await expect.poll(() => outcomes.get(trade.trade_uuid)).toBe('no_key');
    const ids = clientOrderIds(trade.signal_uuid);
    expect([...(await rowOf(trade)).trade_exits_waiting!].sort()).toEqual(
      [ids.backstop, ids.takeProfit, ids.trailing].sort(),
    );
    expect(await off.waiting()).toEqual([ids.backstop, ids.takeProfit, ids.trailing].sort());
    // The trader is told, on the subscribed device.
    const told = await push.arrival(
      device,
      (message) => message.trade_uuid === trade.trade_uuid && /still on the exchange/.test(message.title),
      10_000,
    );
    expect(told.message.title).toBe(`${SYMBOL}: orders of this trade still on the exchange: 3`);

    // On, then a PIN: the key is kept; off again: deleted.
    const setActs = (value: 0 | 1) =>
      off.call('POST', '/api/trade_preferences/set_preferences/', {
        trade_auto_open_delay: 0,
        trade_auto_close_delay: 0,
        minimal_accuracy: 60,
        trade_in_server_side: 1,
        trade_server_acts_when_away: value,
      });
    expect((await setActs(1)).statusCode).toBe(200);
    const balance = await off.call('POST', '/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    expect(balance.statusCode, balance.body).toBe(200);
    await expect.poll(off.sealed).not.toBeNull();
    expect((await setActs(0)).statusCode).toBe(200);
    expect(await off.sealed()).toBeNull();
    expect(await unattendedClient(t.db, t.app.secretBox, off.user_uuid, PAPER_PLATFORM_UUID)).toBeUndefined();
  });
});
