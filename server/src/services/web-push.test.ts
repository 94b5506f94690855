// Issue 41: news that reaches the trader away from the page. With no page open, a take profit the exchange fills
// (followed on the account's user data stream, issue 37) reaches the device's push service as a payload that
// decrypts with the device's keys (RFC 8291) to the close with its net PNL, signed with the server's VAPID key
// (RFC 8292); a new signal that passes the trader's filter does too; one that does not, or a kind the trader
// switched off, does not. All against the real paper exchange and a push endpoint the test runs.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import { TradeError, tradeAnswer, type PushMessage, type Signal, type Trade } from '../../../contracts';
import {
  addDecimals,
  compareDecimals,
  mulDecimals,
  roundDecimal,
} from '../../../shared-core/trade-core-node';
import { clientOrderIds } from '../../../shared-core/trade-flow';
import { pushSubscriptions } from '../db/schema';
import { trades } from '../db/schema-trades';
import { AccountStreams } from './account-streams';
import { PAPER_PLATFORM_UUID } from './platforms';
import { decimalText, pushEndpointAllowed, PUSH_ENDPOINT_REFUSED } from './web-push';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  serverModeTrader,
  type TestApp,
} from '../../test/test-app';
import { startPushEndpoint, verifyVapid, type PushDevice, type PushEndpoint } from '../../test/push-endpoint';

const PIN = '24680';
const SYMBOL = 'SOLUSDT';
let exchange: PaperExchangeHandle;
let push: PushEndpoint;
let t: TestApp;
let streams: AccountStreams;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 41 });
  push = await startPushEndpoint();
  t = await createTestApp({ exchange, pushEndpointOrigins: [push.origin] });
  streams = new AccountStreams({
    db: t.db,
    box: t.app.secretBox,
    desk: t.tradeDesk,
    log: { info: () => undefined, warn: () => undefined },
    refreshMs: 100,
    onStopLost: (trade, pair) => t.app.webPush.unprotected(trade, pair),
    onRefused: (account, code, reason) =>
      t.app.webPush.refusal(account.user_uuid, account.platform_uuid, code, reason),
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

async function traderWithDevice(nickname: string, language: 'en' | 'ua' = 'en') {
  const trader = await serverModeTrader(t, exchange.url, PIN, nickname);
  const device = push.device();
  const subscribed = await trader.call('POST', '/api/push/subscribe/', {
    endpoint: device.endpoint,
    keys: device.keys,
    language,
  });
  expect(subscribed.statusCode, subscribed.body).toBe(200);
  return { ...trader, device, user_uuid: trader.login.user_uuid };
}

type Trader = Awaited<ReturnType<typeof traderWithDevice>>;

async function open(trader: Trader): Promise<Trade> {
  const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: SYMBOL });
  const response = await trader.call('POST', '/api/trade_server/create_trade/', {
    signal_uuid: signal.signal_uuid,
    ...TEST_TRADE_SETTINGS,
    pin_code: PIN,
  });
  expect(response.statusCode, response.body).toBe(201);
  const trade = tradeAnswer.parse(response.json()).result;
  await expect.poll(() => streams.connected(trader.user_uuid, PAPER_PLATFORM_UUID)).toBe(true);
  return trade;
}

const heldTakeProfit = (trade: Trade): string => {
  const hold = trade.trade_exits?.take_profit;
  if (hold?.held_by !== 'exchange') throw new Error('take profit is not held by the exchange');
  return hold.price;
};

const forTrade = (trade: Trade, kind: PushMessage['kind']) => (message: PushMessage) =>
  message.kind === kind && message.trade_uuid === trade.trade_uuid;

const signalOf = (accuracy: number, direction: 'BUY' | 'SELL', pair = 'ETHUSDT'): Signal => ({
  signal_uuid: crypto.randomUUID(),
  platform_uuid: PAPER_PLATFORM_UUID,
  platform: {
    platform_uuid: PAPER_PLATFORM_UUID,
    platform_name: 'Paper Futures',
    platform_background: '#333',
  },
  symbol: {
    symbol_uuid: crypto.randomUUID(),
    symbol_name: pair.replace('USDT', ''),
    symbol_pair: pair,
    symbol_price_precision: 2,
  },
  signal_direction_created: direction,
  signal_price_enter: 2500.5,
  signal_accuracy: accuracy,
  trend_moment: 1,
  neuron: { neuron_uuid: crypto.randomUUID(), neuron_tag_name: 'alpha' },
  signal_created_at: new Date().toISOString(),
});

describe('Web Push (issue 41)', () => {
  it('a take profit filled with no page open reaches the device as the close with its net PNL, encrypted for it and signed with the VAPID key', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('away');
    const trade = await open(trader);

    const opened = await push.next(trader.device, forTrade(trade, 'trade_opened'));
    expect(opened.title).toBe(`Trade opened: BUY ${SYMBOL}`);
    expect(opened.body).toContain(
      `At ${trade.trade_open_price}, margin ${TEST_TRADE_SETTINGS.trade_margin.toFixed(2)} $ × ${TEST_TRADE_SETTINGS.trade_leverage}, Paper Futures (server mode).`,
    );

    exchange.admin.setPrice(SYMBOL, addDecimals(heldTakeProfit(trade), '0.5'));
    const closed = await push.next(trader.device, forTrade(trade, 'trade_closed'));
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
    expect(row!.trade_status).toBe('take_profit');
    expect(row!.trade_pnl_net).not.toBeNull();
    expect(closed.trade_status).toBe('take_profit');
    expect(compareDecimals(closed.trade_pnl_net!, row!.trade_pnl_net!)).toBe(0);
    const pnl = decimalText(row!.trade_pnl_net!, 2, 'en', true);
    expect(closed.title).toBe(`Take profit: ${SYMBOL} ${pnl} $`);
    expect(closed.body).toContain(`Net ${pnl} $ after fees`);
    expect(closed.url).toBe(`/trade_history?trade=${trade.trade_uuid}`);

    // What went over the wire: aes128gcm, a TTL, signed for the push service's origin with the server's key.
    const delivery = push.deliveries.filter((d) => d.device === trader.device.id).at(-1)!;
    expect(delivery.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(delivery.headers.ttl)).toBeGreaterThan(0);
    const key = await verifyVapid(delivery.headers, push.origin);
    const published = await trader.call('GET', '/api/push/get_public_key/');
    expect(published.json().result.public_key).toBe(key);
    expect(delivery.body.toString('latin1')).not.toContain('take_profit');
  });

  it("in the device's language: a Ukrainian device is told in Ukrainian", async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('ua-away', 'ua');
    const trade = await open(trader);
    const opened = await push.next(trader.device, forTrade(trade, 'trade_opened'));
    expect(opened.title).toBe(`Угоду відкрито: BUY ${SYMBOL}`);
    const margin = TEST_TRADE_SETTINGS.trade_margin.toFixed(2).replace('.', ',');
    expect(opened.body).toContain(
      `маржа ${margin} $ × ${TEST_TRADE_SETTINGS.trade_leverage}, Навчальні ф’ючерси (режим сервера).`,
    );
  });

  it('a kind the trader switched off is not sent; the others still are', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('quiet');
    const saved = await trader.call('POST', '/api/trade_preferences/set_preferences/', {
      trade_auto_open_delay: 0,
      trade_auto_close_delay: 0,
      minimal_accuracy: 60,
      trade_in_server_side: 1,
      push_trade_opened: 0,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().result).toMatchObject({
      push_trade_opened: 0,
      push_trade_closed: 1,
      push_signals: 1,
    });
    const trade = await open(trader);
    exchange.admin.setPrice(SYMBOL, addDecimals(heldTakeProfit(trade), '0.5'));
    await push.next(trader.device, forTrade(trade, 'trade_closed'));
    await t.app.webPush.idle();
    const kinds = push.deliveries
      .filter((d) => d.device === trader.device.id)
      .map((d) => trader.device.decrypt(d.body).kind);
    expect(kinds).toEqual(['trade_closed']);
  });

  it("signals: only those that reach the trader's minimal accuracy, one per symbol and side, and none once switched off", async () => {
    const keen = await traderWithDevice('keen');
    const picky = await traderWithDevice('picky');
    const setPreferences = (trader: Trader, values: object) =>
      trader.call('POST', '/api/trade_preferences/set_preferences/', {
        trade_auto_open_delay: 0,
        trade_auto_close_delay: 0,
        minimal_accuracy: 60,
        trade_in_server_side: 1,
        ...values,
      });
    expect((await setPreferences(picky, { minimal_accuracy: 75 })).statusCode).toBe(200);

    const weak = signalOf(0.7, 'SELL');
    const strong = signalOf(0.8, 'BUY');
    // The same signal for another platform (a copy per platform): one notification.
    const copy = { ...strong, signal_uuid: crypto.randomUUID() };
    t.app.webPush.signals([weak, strong, copy]);
    await t.app.webPush.idle();
    const told = (trader: Trader) =>
      push.deliveries
        .filter((d) => d.device === trader.device.id)
        .map((d) => trader.device.decrypt(d.body))
        .filter((m) => m.kind === 'signal');
    expect(
      told(keen)
        .map((m) => m.signal_uuid)
        .sort(),
    ).toEqual([weak.signal_uuid, strong.signal_uuid].sort());
    const [only, ...none] = told(picky);
    expect(none).toEqual([]);
    expect(only).toMatchObject({
      signal_uuid: strong.signal_uuid,
      title: 'BUY ETHUSDT at 2500.5',
      url: `/trading?signal=${strong.signal_uuid}`,
    });
    expect(only!.body).toBe('Accuracy 80.00 %, neuron alpha. Open Signaldesk within 99 s to trade it.');
    expect(only!.expires_at! - Date.parse(strong.signal_created_at)).toBe(99_000);

    expect((await setPreferences(keen, { push_signals: 0 })).statusCode).toBe(200);
    t.app.webPush.signals([signalOf(0.9, 'BUY', 'BTCUSDT')]);
    await t.app.webPush.idle();
    expect(told(keen)).toHaveLength(2);
    expect(told(picky)).toHaveLength(2);
  });

  it('the exchange refusing a followed key (-2015) is pushed once while nobody is looking', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('refused');
    const trade = await open(trader);
    // The trader deletes the key on the exchange (or its IP list leaves our address out): the stream drops and
    // every listen key after is refused.
    exchange.admin.setFaults({ account: trader.credentials.api_key, refuseKey: true });
    try {
      exchange.admin.setFaults({ account: trader.credentials.api_key, dropWebsockets: true });
      const refused = await push.next(trader.device, (m) => m.kind === 'refusal', 15_000);
      expect(refused.title).toBe('Paper Futures refused your API key');
      expect(refused.body).toMatch(/^Invalid API-key, IP, or permissions for action.* \(code -2015\)\. /);
      // Told once, though the stream keeps trying.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await t.app.webPush.idle();
      const refusals = push.deliveries
        .filter((d) => d.device === trader.device.id)
        .filter((d) => trader.device.decrypt(d.body).kind === 'refusal');
      expect(refusals).toHaveLength(1);
    } finally {
      exchange.admin.clearFaults(trader.credentials.api_key);
    }
    expect(trade.trade_status).toBe('open');
  });

  it('a stop cancelled by hand on the exchange: the trade is marked unprotected and the trader told; the liquidation that follows is recorded manual_close (liquidation) and pushed', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('careless');
    const trade = await open(trader);
    const stopId = clientOrderIds(trade.signal_uuid).stop;
    // The trader cancels the stop in the exchange's own app, and its market backstop (issue 54) with it.
    await trader.client.cancelStopOrder(SYMBOL, stopId);
    await trader.client.cancelExitOrder(clientOrderIds(trade.signal_uuid).backstop);
    const told = await push.next(trader.device, forTrade(trade, 'unprotected'), 15_000);
    expect(told.title).toBe(`${SYMBOL} is open without its stop`);
    const [marked] = await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
    expect(marked!.trade_status).toBe('open');
    expect(marked!.trade_error).toBe(TradeError.STOP_MISSING);
    expect(marked!.trade_stop_order_id).toBeNull();

    // Nothing protects it now: the price falls through the liquidation price and the exchange liquidates it.
    exchange.admin.setPrice(SYMBOL, roundDecimal(mulDecimals(trade.trade_open_price, '0.8'), 2));
    const closed = await push.next(trader.device, forTrade(trade, 'trade_closed'), 15_000);
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
    expect(row!.trade_status).toBe('manual_close');
    expect(row!.trade_close_cause).toBe('liquidation');
    expect(closed.trade_status).toBe('manual_close');
    expect(closed.title.startsWith(`Manual close: ${SYMBOL} -`)).toBe(true);
  });

  it('a close through Signaldesk cancels the stop after the position: nobody is told it is unprotected', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('tidy');
    const trade = await open(trader);
    const closed = await trader.call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await push.next(trader.device, forTrade(trade, 'trade_closed'));
    await new Promise((resolve) => setTimeout(resolve, 3500));
    await streams.idle();
    await t.app.webPush.idle();
    const kinds = push.deliveries
      .filter((d) => d.device === trader.device.id)
      .map((d) => trader.device.decrypt(d.body).kind);
    expect(kinds).toEqual(['trade_opened', 'trade_closed']);
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
    expect(row!.trade_error).toBeNull();
  });

  it('a device the push service says is gone (410) is forgotten; logout forgets the devices of that login', async () => {
    exchange.admin.setPrice(SYMBOL, '150');
    const trader = await traderWithDevice('gone');
    push.gone(trader.device);
    await open(trader);
    await t.app.webPush.idle();
    await expect
      .poll(
        async () =>
          (
            await t.db
              .select()
              .from(pushSubscriptions)
              .where(eq(pushSubscriptions.user_uuid, trader.user_uuid))
          ).length,
      )
      .toBe(0);

    const other = await traderWithDevice('leaving');
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      headers: other.login.headers,
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    const left = await t.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.user_uuid, other.user_uuid));
    expect(left).toEqual([]);
  });

  it('subscriptions are validated: only known push services, keys of the right size, a trader signed in', async () => {
    const trader = await serverModeTrader(t, exchange.url, PIN, 'validator');
    const device: PushDevice = push.device();
    const attempt = (body: object) => trader.call('POST', '/api/push/subscribe/', body);
    const inside = await attempt({ endpoint: 'https://169.254.169.254/latest/meta-data', keys: device.keys });
    expect(inside.statusCode).toBe(400);
    expect(inside.json().detail).toBe(PUSH_ENDPOINT_REFUSED);
    const plain = await attempt({ endpoint: 'http://fcm.googleapis.com/fcm/send/x', keys: device.keys });
    expect(plain.statusCode).toBe(400);
    const shortKey = await attempt({ endpoint: device.endpoint, keys: { ...device.keys, auth: 'AAAA' } });
    expect(shortKey.statusCode).toBe(400);
    expect(shortKey.json().detail).toContain('keys.auth must encode 16 bytes');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscribe/',
      payload: { endpoint: device.endpoint, keys: device.keys },
    });
    expect(anonymous.statusCode).toBe(401);

    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(pushEndpointAllowed('https://updates.push.services.mozilla.com/wpush/v2/abc')).toBe(true);
    expect(pushEndpointAllowed('https://web.push.apple.com/abc')).toBe(true);
    expect(pushEndpointAllowed('https://evilfcm.googleapis.com.example.com/x')).toBe(false);
    expect(pushEndpointAllowed('https://fcm.googleapis.com:8443/x')).toBe(false);
    expect(pushEndpointAllowed('https://user@fcm.googleapis.com/x')).toBe(false);
  });

  it('the push texts have the same keys and placeholders in en and ua', () => {
    const read = (lng: string) =>
      JSON.parse(
        fs.readFileSync(path.join(import.meta.dirname, '../../../public/locales', lng, 'push.json'), 'utf8'),
      ) as Record<string, unknown>;
    const leaves = (value: unknown, at = ''): [string, string][] =>
      typeof value === 'string'
        ? [
            [
              at,
              [...value.matchAll(/\{\{(\w+)\}\}/g)]
                .map((m) => m[1])
                .sort()
                .join(','),
            ],
          ]
        : Object.entries(value as object).flatMap(([key, child]) => leaves(child, `${at}.${key}`));
    expect(leaves(read('ua'))).toEqual(leaves(read('en')));
  });
});
