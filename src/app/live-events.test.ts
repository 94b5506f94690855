import type { AddressInfo } from 'node:net';
import type { ClientEvent } from '../../contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { subscribe } from 'valtio';
import WebSocket, { WebSocketServer } from 'ws';
import { bitcoinStore } from '../features/bitcoin/bitcoin-store';
import { notificationsStore } from '../stores/notifications-store';
import { pricesStore } from '../stores/prices-store';
import { getRecentSignalList } from '../features/signals/api/get-recent-signal-list';
import { signalSecondsLeft, signalsStore } from '../features/signals/signals-store';
import { getOpenTrades } from '../features/trades/api/get-open-trades';
import { makeCalculated, makeTrade } from '../testing/trade-fixtures';
import { setOpenTrades, tradesStore } from '../features/trades/trades-store';
import { TRADE_REFETCH_DELAY_MS } from '../config/constants';
import { WsStatus, type WebSocketConstructor } from '../lib/ws-client';
import {
  LIVE_BATCH_MS,
  notifyConnectionStatus,
  RECOMPUTE_MIN_INTERVAL_MS,
  RECOMPUTE_WAIT_MS,
  resetRecomputeRequests,
  routeServerEvent,
  startLiveEvents,
  stopLiveEvents,
} from './live-events';
import { resetAllStores } from './reset-all-stores';
import { BTC_UUID, byUuid, ETH_UUID, makePrice, makeSignal, PLATFORM_UUID } from '../testing/live-fixtures';
import { loadTradeCoreForTests } from '../testing/load-trade-core';

vi.mock('../features/trades/api/get-open-trades', () => ({ getOpenTrades: vi.fn(async () => []) }));
vi.mock('../features/signals/api/get-recent-signal-list', () => ({
  getRecentSignalList: vi.fn(async () => ({ signal_list: [], server_time: new Date().toISOString() })),
}));

const TRADE_UUID = '66666666-6666-4666-8666-666666666666';

function fakeClient(isOpen: boolean) {
  return { send: vi.fn((_event: ClientEvent) => isOpen), isOpen: () => isOpen };
}

beforeAll(loadTradeCoreForTests);
beforeEach(() => {
  localStorage.clear();
  resetAllStores();
  resetRecomputeRequests();
  vi.mocked(getOpenTrades).mockClear();
  vi.mocked(getRecentSignalList).mockClear();
});
afterEach(() => {
  stopLiveEvents();
  vi.useRealTimers();
});

describe('routeServerEvent', () => {
  test('a price goes to the prices store; no message without an open trade', () => {
    const client = fakeClient(true);
    routeServerEvent(
      { event: 'symbol_price_base_from_core', message: { symbol_price_base: makePrice(), trend_moment: 1 } },
      client,
    );
    expect(pricesStore.symbol_price_by_uuid[BTC_UUID]?.current_price).toBe(97123.4);
    expect(pricesStore.symbol_price_queue).toHaveLength(1);
    expect(client.send).not.toHaveBeenCalled();
  });

  test('a price for a symbol with an open trade sends update_trade_by_current_price_from_client', () => {
    setOpenTrades([
      { trade_uuid: TRADE_UUID, platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } },
    ]);
    const client = fakeClient(true);
    routeServerEvent(
      { event: 'symbol_price_base_from_core', message: { symbol_price_base: makePrice(), trend_moment: 1 } },
      client,
    );
    routeServerEvent(
      {
        event: 'symbol_price_base_from_core',
        message: { symbol_price_base: makePrice({ symbol_uuid: ETH_UUID }), trend_moment: 1 },
      },
      client,
    );
    expect(client.send).toHaveBeenCalledExactlyOnceWith({
      event: 'update_trade_by_current_price_from_client',
      message: { trade_uuid: TRADE_UUID },
    });
  });

  test('every open trade of the priced symbol is asked for, not only one', () => {
    const other = '7b0c4a8e-2a4f-4d52-9a4e-0c0d1e2f3a4b';
    setOpenTrades([
      { trade_uuid: TRADE_UUID, platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } },
      { trade_uuid: other, platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } },
    ]);
    const client = fakeClient(true);
    routeServerEvent(
      { event: 'symbol_price_base_from_core', message: { symbol_price_base: makePrice(), trend_moment: 1 } },
      client,
    );
    expect(client.send.mock.calls).toEqual([
      [{ event: 'update_trade_by_current_price_from_client', message: { trade_uuid: TRADE_UUID } }],
      [{ event: 'update_trade_by_current_price_from_client', message: { trade_uuid: other } }],
    ]);
  });

  test('nothing is sent while the socket is not open', () => {
    setOpenTrades([
      { trade_uuid: TRADE_UUID, platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } },
    ]);
    const client = fakeClient(false);
    routeServerEvent(
      { event: 'symbol_price_base_from_core', message: { symbol_price_base: makePrice(), trend_moment: 1 } },
      client,
    );
    expect(client.send).not.toHaveBeenCalled();
  });

  test('signals become cards, bitcoin information updates the widget, bad_event is a receive event error', () => {
    const client = fakeClient(true);
    const signal = makeSignal();
    routeServerEvent(
      { event: 'signal_from_core', message: { signal_by_uuid: byUuid(signal), trend_moment: 1 } },
      client,
    );
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
    expect(signalSecondsLeft(signalsStore.countdown_start_by_uuid[signal.signal_uuid]!, Date.now())).toBe(99);
    const information = { current_price: 97_000, trend_moment: -1 as const, trend_prediction: -0.3 };
    routeServerEvent(
      { event: 'bitcoin_public_information_from_core', message: { bitcoin_public_information: information } },
      client,
    );
    expect(bitcoinStore.information).toEqual(information);
    routeServerEvent({ event: 'bad_event', message: { detail: 'Unknown event' } }, client);
    expect(notificationsStore.notification_list.at(-1)).toMatchObject({
      type: 'Error',
      description: ['notification.websocket_receive_event_error', 'Unknown event'],
    });
  });
});

test('a pushed signal counts down from its age on the server’s clock (sent_at)', () => {
  const sentAt = Date.UTC(2026, 10, 22, 9, 0, 30);
  const signal = makeSignal({ signal_created_at: new Date(sentAt - 25_000).toISOString() });
  routeServerEvent(
    {
      event: 'signal_from_core',
      message: { signal_by_uuid: byUuid(signal), trend_moment: 1, sent_at: sentAt + 0.25 },
    },
    fakeClient(true),
  );
  const start = signalsStore.countdown_start_by_uuid[signal.signal_uuid]!;
  expect(signalSecondsLeft(start, Date.now())).toBe(74);
});

describe('recompute requests in flight', () => {
  const price = () =>
    ({
      event: 'symbol_price_base_from_core',
      message: { symbol_price_base: makePrice(), trend_moment: 1 },
    }) as const;
  const answer = (trade: ReturnType<typeof makeTrade>) =>
    ({
      event: 'trade_updated_response_from_core',
      message: { trade_uuid: trade.trade_uuid, trade_update_calculated: makeCalculated(trade) },
    }) as const;

  /** One open trade, an open socket and fake timers; `priceAfter(ms)` routes a price that much later. */
  function oneOpenTrade() {
    vi.useFakeTimers();
    const trade = makeTrade({ trade_uuid: TRADE_UUID });
    setOpenTrades([trade]);
    const client = fakeClient(true);
    const priceAfter = (ms: number) => {
      vi.advanceTimersByTime(ms);
      routeServerEvent(price(), client);
    };
    return { trade, client, priceAfter };
  }

  test('a trade is asked for again only once answered, or after RECOMPUTE_WAIT_MS without an answer', () => {
    const { trade, client, priceAfter } = oneOpenTrade();
    priceAfter(0);
    priceAfter(RECOMPUTE_MIN_INTERVAL_MS);
    expect(client.send).toHaveBeenCalledTimes(1);
    routeServerEvent(answer(trade), client);
    priceAfter(0);
    expect(client.send).toHaveBeenCalledTimes(2);
    priceAfter(RECOMPUTE_WAIT_MS - 1);
    expect(client.send).toHaveBeenCalledTimes(2);
    priceAfter(1);
    expect(client.send).toHaveBeenCalledTimes(3);
  });

  test('an answered trade is asked for at most once every RECOMPUTE_MIN_INTERVAL_MS', () => {
    const { trade, client, priceAfter } = oneOpenTrade();
    priceAfter(0);
    routeServerEvent(answer(trade), client);
    priceAfter(RECOMPUTE_MIN_INTERVAL_MS - 1);
    expect(client.send).toHaveBeenCalledTimes(1);
    priceAfter(1);
    expect(client.send).toHaveBeenCalledTimes(2);
  });

  test('a request the socket did not take is not waited for', () => {
    setOpenTrades([makeTrade({ trade_uuid: TRADE_UUID })]);
    const client = { send: vi.fn(() => false), isOpen: () => true };
    routeServerEvent(price(), client);
    routeServerEvent(price(), client);
    expect(client.send).toHaveBeenCalledTimes(2);
  });
});

describe('trade_updated_response_from_core', () => {
  test('a recalculation goes to the trades store and adjusts current_pnl', () => {
    const trade = makeTrade({ trade_uuid: TRADE_UUID, trade_pnl_current: '0.1' });
    setOpenTrades([trade]);
    routeServerEvent(
      {
        event: 'trade_updated_response_from_core',
        message: {
          trade_uuid: TRADE_UUID,
          trade_update_calculated: makeCalculated(trade, {
            trade_pnl_current: '0.35',
            trade_ui_status: 'DIRECTION_SIGNAL',
          }),
        },
      },
      fakeClient(true),
    );
    expect(tradesStore.trade_by_uuid_dict[TRADE_UUID]).toMatchObject({
      trade_pnl_current: '0.35',
      trade_ui_status: 'DIRECTION_SIGNAL',
    });
    expect(tradesStore.current_pnl).toBe('0.35');
  });

  test('a closed status removes the trade from the open list', () => {
    const trade = makeTrade({ trade_uuid: TRADE_UUID });
    setOpenTrades([trade]);
    routeServerEvent(
      {
        event: 'trade_updated_response_from_core',
        message: {
          trade_uuid: TRADE_UUID,
          trade_update_calculated: makeCalculated(trade, { trade_status: 'take_profit' }),
        },
      },
      fakeClient(true),
    );
    expect(tradesStore.trade_by_uuid_dict).toEqual({});
    expect(tradesStore.trade_uuid_by_symbol_uuid_dict).toEqual({});
  });

  test('an open trade the list does not know makes it read the open trades again after 1 s', async () => {
    vi.useFakeTimers();
    const trade = makeTrade();
    routeServerEvent(
      {
        event: 'trade_updated_response_from_core',
        message: { trade_uuid: trade.trade_uuid, trade_update_calculated: makeCalculated(trade) },
      },
      fakeClient(true),
    );
    expect(getOpenTrades).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TRADE_REFETCH_DELAY_MS);
    expect(getOpenTrades).toHaveBeenCalledTimes(1);
  });
});

describe('connection notifications (SPEC.md §8)', () => {
  test.each([
    [WsStatus.CONNECTED, 'Success', 'notification.websocket_connected'],
    [WsStatus.CLOSED, 'Information', 'notification.websocket_closed'],
    [WsStatus.ERROR, 'Error', 'notification.websocket_error'],
    [WsStatus.MESSAGE_ERROR, 'Error', 'notification.websocket_onmessage_error'],
    [WsStatus.EVENT_ERROR, 'Error', 'notification.websocket_receive_event_error'],
  ])('%s is a %s notification', (status, type, key) => {
    notifyConnectionStatus(status);
    expect(notificationsStore.notification_list.at(-1)).toMatchObject({ type, description: [key] });
  });
});

describe('startLiveEvents against a real websocket server', () => {
  let server: WebSocketServer;
  let port: number;
  beforeEach(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    for (const socket of server.clients) socket.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  test('connects with a token, routes events to the stores, and stops on logout', async () => {
    const serverNow = Date.now();
    const recent = makeSignal({ signal_created_at: new Date(serverNow - 10_000).toISOString() });
    vi.mocked(getRecentSignalList).mockResolvedValueOnce({
      signal_list: [recent],
      server_time: new Date(serverNow).toISOString(),
    });
    const tokens: string[] = [];
    const connected = new Promise<WebSocket>((resolve) =>
      server.once('connection', (socket, request) => {
        tokens.push(request.url ?? '');
        resolve(socket);
      }),
    );
    startLiveEvents({
      renewToken: async () => 'single-use',
      urlFor: (token) => `ws://127.0.0.1:${port}/api/ws_core/${token}`,
      WebSocketImpl: WebSocket as unknown as WebSocketConstructor,
    });
    const socket = await connected;
    expect(tokens).toEqual(['/api/ws_core/single-use']);
    // Every (re)connection reads the open trades again: updates sent while it was down are lost.
    await vi.waitFor(() => expect(getOpenTrades).toHaveBeenCalledTimes(1));
    // … and the recent signals, whose cards come back with the rest of their countdown.
    await vi.waitFor(() => expect(signalsStore.signal_list).toEqual([recent.signal_uuid]));
    expect(
      signalSecondsLeft(signalsStore.countdown_start_by_uuid[recent.signal_uuid]!, Date.now()),
    ).toBeLessThanOrEqual(89);
    const signal = makeSignal();
    socket.send(
      JSON.stringify({
        event: 'signal_from_core',
        message: { signal_by_uuid: byUuid(signal), trend_moment: 0 },
      }),
    );
    await vi.waitFor(() =>
      expect(signalsStore.signal_list).toEqual([signal.signal_uuid, recent.signal_uuid]),
    );
    expect(notificationsStore.notification_list.map((item) => item.description[0])).toContain(
      'notification.websocket_connected',
    );
    const closed = new Promise((resolve) => socket.once('close', resolve));
    stopLiveEvents();
    await closed;
    expect(notificationsStore.notification_list.map((item) => item.description[0])).not.toContain(
      'notification.websocket_closed',
    );
  });

  test('applies a burst of frames together, in order, with one store notification per batch', async () => {
    const trade = makeTrade({ trade_uuid: TRADE_UUID, trade_pnl_current: '0' });
    // The read every connection makes answers the trade.
    vi.mocked(getOpenTrades).mockResolvedValueOnce([trade]);
    const connected = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
    startLiveEvents({
      renewToken: async () => 'single-use',
      urlFor: (token) => `ws://127.0.0.1:${port}/api/ws_core/${token}`,
      WebSocketImpl: WebSocket as unknown as WebSocketConstructor,
    });
    const socket = await connected;
    await vi.waitFor(() => expect(tradesStore.trade_by_uuid_dict[TRADE_UUID]).toBeDefined());
    let notifications = 0;
    const started = performance.now();
    const unsubscribe = subscribe(tradesStore, () => (notifications += 1));
    // Each frame in its own write, a macrotask apart, so each arrives in its own task as in a browser.
    const FRAMES = 100;
    for (let index = 1; index <= FRAMES; index += 1) {
      socket.send(
        JSON.stringify({
          event: 'trade_updated_response_from_core',
          message: {
            trade_uuid: TRADE_UUID,
            trade_update_calculated: makeCalculated(trade, { trade_pnl_current: `${index}.5` }),
          },
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.waitFor(() => expect(tradesStore.current_pnl).toBe(`${FRAMES}.5`));
    unsubscribe();
    const elapsed = performance.now() - started;
    // The last frame wins (order kept), and the stores heard of them once a batch, not once a frame: a batch
    // waits LIVE_BATCH_MS, so there can be no more of them than that fits in the time taken (a bound, not a
    // speed: a slow machine only widens it).
    expect(tradesStore.trade_by_uuid_dict[TRADE_UUID]?.trade_pnl_current).toBe(`${FRAMES}.5`);
    expect(notifications).toBeGreaterThan(0);
    expect(notifications).toBeLessThanOrEqual(Math.floor(elapsed / LIVE_BATCH_MS) + 1);
  });
});
