// Websocket streams of reference §9-10 against the running server: raw and combined market streams under
// every prefix, SUBSCRIBE/UNSUBSCRIBE, and the user data stream with its three event types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PaperExchangeHandle } from '../src/index.js';
import { newAccount, setPrice, startTestExchange, type TestClient } from './helpers.js';

type Message = Record<string, unknown>;

/** A websocket with a queue of parsed messages and a helper that waits for one matching a predicate. */
class Socket {
  readonly messages: Message[] = [];
  private waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
    this.ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  next(test: (m: Message) => boolean, timeoutMs = 20_000): Promise<Message> {
    const found = this.messages.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching websocket message')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  send(payload: unknown): void {
    this.ws.send(JSON.stringify(payload));
  }

  close(): void {
    this.ws.close();
  }
}

let handle: PaperExchangeHandle;
beforeAll(async () => {
  handle = await startTestExchange({ tickMs: 200 });
});
afterAll(async () => {
  await handle.close();
});

const data = (m: Message) => (m.data ?? m) as Message;
/** The private stream as Binance's production serves it since 2026-04-23 (reference §9). */
const CURRENT_FORM =
  '/private/ws?listenKey=KEY&events=ORDER_TRADE_UPDATE/ACCOUNT_UPDATE/ALGO_UPDATE/listenKeyExpired';

describe('market streams', () => {
  it.each(['', '/market', '/public'])('serves raw streams under "%s/ws/<stream>"', async (prefix) => {
    const socket = new Socket(`${handle.wsUrl}${prefix}/ws/btcusdt@markPrice@1s`);
    const update = await socket.next((m) => m.e === 'markPriceUpdate');
    expect(update).toMatchObject({
      s: 'BTCUSDT',
      p: expect.stringMatching(/^\d+\.\d{8}$/),
      r: '0.00010000',
      T: expect.any(Number),
    });
    socket.close();
  });

  it('wraps combined streams as {stream,data} (the server market feed uses /market/stream)', async () => {
    const socket = new Socket(
      `${handle.wsUrl}/market/stream?streams=ethusdt@markPrice@1s/ethusdt@kline_1m/ethusdt@aggTrade`,
    );
    const mark = await socket.next((m) => m.stream === 'ethusdt@markPrice@1s');
    expect(data(mark)).toMatchObject({ e: 'markPriceUpdate', s: 'ETHUSDT' });
    // The minute's candle as it forms (x false); right at a minute boundary the previous minute's closing one
    // (x true) comes first, so it is skipped.
    const kline = await socket.next(
      (m) => m.stream === 'ethusdt@kline_1m' && (data(m).k as { x?: boolean } | undefined)?.x === false,
    );
    expect(data(kline)).toMatchObject({
      e: 'kline',
      s: 'ETHUSDT',
      k: { i: '1m', x: false, o: expect.any(String) },
    });
    const trade = await socket.next((m) => m.stream === 'ethusdt@aggTrade');
    expect(data(trade)).toMatchObject({
      e: 'aggTrade',
      s: 'ETHUSDT',
      p: expect.any(String),
      q: expect.any(String),
      m: expect.any(Boolean),
    });
    socket.close();
  });

  it('follows a pinned price', async () => {
    const socket = new Socket(`${handle.wsUrl}/ws/dogeusdt@markPrice@1s`);
    await socket.opened;
    await setPrice(handle, 'DOGEUSDT', '0.123450');
    const update = await socket.next((m) => m.p === '0.12345000');
    expect(update.s).toBe('DOGEUSDT');
    await setPrice(handle, 'DOGEUSDT', null);
    socket.close();
  });

  it('subscribes, lists and unsubscribes on /ws', async () => {
    const socket = new Socket(`${handle.wsUrl}/ws`);
    await socket.opened;
    socket.send({ method: 'SUBSCRIBE', params: ['solusdt@markPrice@1s', 'solusdt@bookTicker'], id: 1 });
    expect(await socket.next((m) => m.id === 1)).toEqual({ result: null, id: 1 });
    expect(await socket.next((m) => m.e === 'bookTicker')).toMatchObject({
      s: 'SOLUSDT',
      b: expect.any(String),
      a: expect.any(String),
    });
    socket.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    expect(await socket.next((m) => m.id === 2)).toEqual({
      result: ['solusdt@markPrice@1s', 'solusdt@bookTicker'],
      id: 2,
    });
    socket.send({ method: 'UNSUBSCRIBE', params: ['solusdt@bookTicker'], id: 3 });
    expect(await socket.next((m) => m.id === 3)).toEqual({ result: null, id: 3 });
    socket.send({ method: 'SUBSCRIBE', params: ['nonsense'], id: 4 });
    expect(await socket.next((m) => m.id === 4)).toMatchObject({ code: 2, msg: expect.any(String) });
    socket.send({ method: 'SET_PROPERTY', params: ['combined', true], id: 5 });
    expect(await socket.next((m) => m.id === 5)).toEqual({ result: null, id: 5 });
    expect(await socket.next((m) => m.stream === 'solusdt@markPrice@1s')).toMatchObject({
      data: { e: 'markPriceUpdate' },
    });
    socket.close();
  });
});

describe('user data stream', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await newAccount(handle);
    await setPrice(handle, 'BTCUSDT', '60000.0');
  });

  /** A BUY of 0.002 BTCUSDT closed again at once: fills, and account updates back to flat. */
  const roundTrip = async () => {
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.002',
    });
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.002',
      reduceOnly: 'true',
    });
  };
  const flatAgain = (m: Message) =>
    m.e === 'ACCOUNT_UPDATE' && ((m.a as Message).P as Message[])[0]?.pa === '0.000';

  it.each([CURRENT_FORM])('pushes order, account and algo events on %s', async (path) => {
    const { listenKey } = (await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body;
    const socket = new Socket(`${handle.wsUrl}${path.replace('KEY', listenKey)}`);
    await socket.opened;
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.002',
    });
    const filled = await socket.next((m) => m.e === 'ORDER_TRADE_UPDATE' && (m.o as Message).X === 'FILLED');
    expect(filled.o).toMatchObject({
      s: 'BTCUSDT',
      S: 'BUY',
      o: 'MARKET',
      x: 'TRADE',
      z: '0.002',
      N: 'USDT',
      ps: 'BOTH',
      m: false,
    });
    const account = await socket.next((m) => m.e === 'ACCOUNT_UPDATE');
    expect(account.a).toMatchObject({
      m: 'ORDER',
      B: [{ a: 'USDT', wb: expect.any(String) }],
      P: [{ s: 'BTCUSDT', ps: 'BOTH' }],
    });
    const algo = await client.signed<Message>('POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: '50000.0',
      quantity: '0.002',
      reduceOnly: 'true',
    });
    expect(await socket.next((m) => m.e === 'ALGO_UPDATE' && (m.o as Message).X === 'NEW')).toMatchObject({
      o: { aid: algo.body.algoId, at: 'CONDITIONAL', o: 'STOP_MARKET', tp: '50000.00' },
    });
    await client.signed('DELETE', '/fapi/v1/algoOrder', { algoId: String(algo.body.algoId) });
    await socket.next((m) => m.e === 'ALGO_UPDATE' && (m.o as Message).X === 'CANCELED');
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.002',
      reduceOnly: 'true',
    });
    await socket.next(
      (m) => m.e === 'ACCOUNT_UPDATE' && ((m.a as Message).P as Message[])[0]?.pa === '0.000',
    );
    socket.close();
  });

  it.each([
    ['the legacy path', '/ws/KEY'],
    ['the key in the path', '/private/ws/KEY'],
    ['no events=', '/private/ws?listenKey=KEY'],
    ['a market path', '/market/ws?listenKey=KEY&events=ORDER_TRADE_UPDATE'],
  ])('accepts %s (%s) and delivers nothing, as production does since 2026-04-23', async (_name, path) => {
    const { listenKey } = (await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body;
    const silent = new Socket(`${handle.wsUrl}${path.replace('KEY', listenKey)}`);
    const current = new Socket(`${handle.wsUrl}${CURRENT_FORM.replace('KEY', listenKey)}`);
    await Promise.all([silent.opened, current.opened]);
    await roundTrip();
    // The current form got both fills (and so would the other, had it been served).
    await current.next(flatAgain);
    expect(silent.messages.filter((m) => typeof m.e === 'string')).toEqual([]);
    silent.close();
    current.close();
  });

  it('delivers only the events events= lists', async () => {
    const { listenKey } = (await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body;
    const socket = new Socket(`${handle.wsUrl}/private/ws?listenKey=${listenKey}&events=ACCOUNT_UPDATE`);
    await socket.opened;
    await roundTrip();
    await socket.next(flatAgain);
    expect(new Set(socket.messages.map((m) => m.e))).toEqual(new Set(['ACCOUNT_UPDATE']));
    socket.close();
  });

  it('reports a triggered stop as ALGO_UPDATE TRIGGERING, TRIGGERED, FINISHED around its fill', async () => {
    const { listenKey } = (await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body;
    const socket = new Socket(`${handle.wsUrl}${CURRENT_FORM.replace('KEY', listenKey)}`);
    await socket.opened;
    await setPrice(handle, 'LINKUSDT', '20.000');
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'LINKUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1.00',
    });
    await client.signed('POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'LINKUSDT',
      side: 'SELL',
      type: 'TAKE_PROFIT_MARKET',
      triggerPrice: '21.000',
      closePosition: 'true',
    });
    await setPrice(handle, 'LINKUSDT', '21.500');
    await socket.next((m) => m.e === 'ALGO_UPDATE' && (m.o as Message).X === 'FINISHED');
    const statuses = socket.messages.filter((m) => m.e === 'ALGO_UPDATE').map((m) => (m.o as Message).X);
    expect(statuses).toEqual(['NEW', 'TRIGGERING', 'TRIGGERED', 'FINISHED']);
    const fills = socket.messages.filter(
      (m) => m.e === 'ORDER_TRADE_UPDATE' && (m.o as Message).X === 'FILLED',
    );
    expect(fills.at(-1)?.o).toMatchObject({ S: 'SELL', o: 'MARKET', R: true, z: '1.00' });
    socket.close();
  });

  it('keeps the listen key alive with PUT, closes it with DELETE, and answers -1125 afterwards', async () => {
    const { listenKey } = (await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body;
    expect((await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body.listenKey).toBe(
      listenKey,
    );
    expect((await client.keyed('PUT', '/fapi/v1/listenKey')).body).toEqual({ listenKey });
    const socket = new Socket(`${handle.wsUrl}/ws/${listenKey}`);
    await socket.opened;
    expect((await client.keyed('DELETE', '/fapi/v1/listenKey')).body).toEqual({});
    await socket.closed;
    const again = await client.keyed('PUT', '/fapi/v1/listenKey');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: -1125 });
  });

  it('closes a connection to an unknown listen key', async () => {
    const socket = new Socket(`${handle.wsUrl}/private/ws/${'x'.repeat(64)}`);
    expect(await socket.closed).toBe(1008);
  });
});

describe('user data on the old forms, with legacyUserStreams (as demo and testnet serve it)', () => {
  it('pushes every event on /ws/<listenKey>', async () => {
    const legacy = await startTestExchange({ tickMs: 200, legacyUserStreams: true });
    try {
      const client = await newAccount(legacy);
      await setPrice(legacy, 'BTCUSDT', '60000.0');
      const { listenKey } = (await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey')).body;
      const socket = new Socket(`${legacy.wsUrl}/ws/${listenKey}`);
      await socket.opened;
      await client.signed('POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '0.002',
      });
      await socket.next((m) => m.e === 'ORDER_TRADE_UPDATE' && (m.o as Message).X === 'FILLED');
      await socket.next((m) => m.e === 'ACCOUNT_UPDATE');
      socket.close();
    } finally {
      await legacy.close();
    }
  });
});
