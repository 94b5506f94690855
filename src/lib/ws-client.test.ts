import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import {
  createWsClient,
  reconnectDelayMs,
  WsStatus,
  type WebSocketConstructor,
  type WebSocketLike,
  type WsClient,
} from './ws-client';

const BITCOIN_EVENT = {
  event: 'bitcoin_public_information_from_core',
  message: {
    bitcoin_public_information: { current_price: 97123.4, trend_moment: 1, trend_prediction: 0.42 },
  },
};

interface Harness {
  server: WebSocketServer;
  port: number;
  /** The token of every connection, in order. */
  tokens: string[];
  /** Frames the server received. */
  received: string[];
}

async function startServer(): Promise<Harness> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const harness: Harness = { server, port: (server.address() as AddressInfo).port, tokens: [], received: [] };
  server.on('connection', (socket, request) => {
    harness.tokens.push(decodeURIComponent(request.url?.split('/').pop() ?? ''));
    socket.on('message', (data) => harness.received.push(String(data)));
  });
  return harness;
}

function nextConnection(server: WebSocketServer): Promise<WebSocket> {
  return new Promise((resolve) => server.once('connection', (socket) => resolve(socket)));
}

let harness: Harness;
let client: WsClient | undefined;

beforeEach(async () => {
  harness = await startServer();
});
afterEach(async () => {
  client?.close();
  client = undefined;
  for (const socket of harness.server.clients) socket.terminate();
  await new Promise((resolve) => harness.server.close(resolve));
});

function makeClient(overrides: Partial<Parameters<typeof createWsClient>[0]> = {}) {
  const events: unknown[] = [];
  const statuses: [WsStatus, string | undefined][] = [];
  let renewals = 0;
  client = createWsClient({
    urlFor: (token) => `ws://127.0.0.1:${harness.port}/api/ws_core/${token}`,
    renewToken: async () => `renewed-${++renewals}`,
    onEvent: (event) => events.push(event),
    onStatus: (status, detail) => statuses.push([status, detail]),
    WebSocketImpl: WebSocket as unknown as WebSocketConstructor,
    reconnectMinMs: 20,
    reconnectMaxMs: 80,
    ...overrides,
  });
  return { client, events, statuses };
}

describe('ws-client against a real websocket server', () => {
  test('connects with the token, reports "connected" and hands parsed events to onEvent', async () => {
    const connection = nextConnection(harness.server);
    const { client, events, statuses } = makeClient();
    client.connect('first-token');
    const socket = await connection;
    await vi.waitFor(() => expect(statuses).toContainEqual([WsStatus.CONNECTED, undefined]));
    expect(harness.tokens).toEqual(['first-token']);
    expect(client.isOpen()).toBe(true);
    socket.send(JSON.stringify(BITCOIN_EVENT));
    await vi.waitFor(() => expect(events).toEqual([BITCOIN_EVENT]));
  });

  test('start() connects with a token from renewToken (the one fetched after login)', async () => {
    const connection = nextConnection(harness.server);
    const { client, statuses } = makeClient();
    client.start();
    await connection;
    await vi.waitFor(() => expect(statuses).toContainEqual([WsStatus.CONNECTED, undefined]));
    expect(harness.tokens).toEqual(['renewed-1']);
  });

  test('a frame that is not JSON or not a known event is an onmessage error, reported once per text', async () => {
    const connection = nextConnection(harness.server);
    const { client, events, statuses } = makeClient();
    client.connect('t');
    const socket = await connection;
    socket.send('not json');
    socket.send('not json');
    socket.send(JSON.stringify({ event: 'no_such_event', message: {} }));
    socket.send(JSON.stringify(BITCOIN_EVENT));
    await vi.waitFor(() => expect(events).toHaveLength(1));
    const messageErrors = statuses.filter(([status]) => status === WsStatus.MESSAGE_ERROR);
    expect(messageErrors).toHaveLength(2);
  });

  test('a handler that throws is a receive event error naming the event', async () => {
    const connection = nextConnection(harness.server);
    const { client, statuses } = makeClient({
      onEvent: () => {
        throw new Error('store refused');
      },
    });
    client.connect('t');
    (await connection).send(JSON.stringify(BITCOIN_EVENT));
    await vi.waitFor(() =>
      expect(statuses).toContainEqual([
        WsStatus.EVENT_ERROR,
        'bitcoin_public_information_from_core: store refused',
      ]),
    );
  });

  test('send delivers an event while open and refuses when closed', async () => {
    const connection = nextConnection(harness.server);
    const { client, statuses } = makeClient();
    const event = {
      event: 'update_trade_by_current_price_from_client',
      message: { trade_uuid: 'abc' },
    } as const;
    expect(client.send(event)).toBe(false);
    client.connect('t');
    await connection;
    await vi.waitFor(() => expect(statuses).toContainEqual([WsStatus.CONNECTED, undefined]));
    expect(client.send(event)).toBe(true);
    await vi.waitFor(() => expect(harness.received).toEqual([JSON.stringify(event)]));
    client.close();
    expect(client.send(event)).toBe(false);
  });

  test('a lost connection reports "closed" and reconnects with a NEW token', async () => {
    const first = nextConnection(harness.server);
    const { client, statuses } = makeClient();
    client.connect('login-token');
    const socket = await first;
    await vi.waitFor(() => expect(client.isOpen()).toBe(true));
    const second = nextConnection(harness.server);
    socket.close(4401, 'Invalid or expired websocket token');
    await second;
    await vi.waitFor(() => expect(client.isOpen()).toBe(true));
    expect(harness.tokens).toEqual(['login-token', 'renewed-1']);
    expect(statuses.map(([status]) => status)).toEqual([
      WsStatus.CONNECTED,
      WsStatus.CLOSED,
      WsStatus.CONNECTED,
    ]);
  });

  test('close() stops for good: no "closed" report and no reconnect', async () => {
    const connection = nextConnection(harness.server);
    const renewToken = vi.fn(async () => 'never');
    const { client, statuses } = makeClient({ renewToken });
    client.connect('t');
    const socket = await connection;
    await vi.waitFor(() => expect(client.isOpen()).toBe(true));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    client.close();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(renewToken).not.toHaveBeenCalled();
    expect(statuses.map(([status]) => status)).toEqual([WsStatus.CONNECTED]);
  });
});

/** A socket that fails after 10 ms, as a browser's does when the server is down. */
const FAIL_AFTER_MS = 10;

function failingSocketClass(created: number[]): WebSocketConstructor {
  return class implements WebSocketLike {
    readyState = 0;
    onopen: WebSocketLike['onopen'] = null;
    onclose: WebSocketLike['onclose'] = null;
    onerror: WebSocketLike['onerror'] = null;
    onmessage: WebSocketLike['onmessage'] = null;
    constructor(_url: string) {
      created.push(Date.now());
      setTimeout(() => {
        this.readyState = 3;
        this.onerror?.({});
        this.onclose?.({ code: 1006, reason: '' });
      }, FAIL_AFTER_MS);
    }
    send(): void {}
    close(): void {}
  };
}

describe('reconnect backoff', () => {
  afterEach(() => vi.useRealTimers());

  test('delays double from the minimum and stop at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => reconnectDelayMs(n, 1000, 30_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(reconnectDelayMs(500, 1000, 30_000)).toBe(30_000);
  });

  test('retries follow the capped backoff, each with a new token; an outage is reported once', async () => {
    vi.useFakeTimers({ now: 0 });
    const created: number[] = [];
    const statuses: WsStatus[] = [];
    const tokens: string[] = [];
    let n = 0;
    client = createWsClient({
      urlFor: (token) => {
        tokens.push(token);
        return `ws://nowhere/${token}`;
      },
      renewToken: async () => `t${++n}`,
      onEvent: () => undefined,
      onStatus: (status) => statuses.push(status),
      WebSocketImpl: failingSocketClass(created),
      reconnectMinMs: 1000,
      reconnectMaxMs: 4000,
    });
    client.connect('t0');
    await vi.advanceTimersByTimeAsync(16_000);
    // Each retry starts its delay when the previous attempt has failed (FAIL_AFTER_MS after it began).
    expect(created).toEqual([0, 1010, 3020, 7030, 11_040, 15_050]);
    expect(tokens).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect(statuses).toEqual([WsStatus.ERROR, WsStatus.CLOSED]);
  });

  test('without a token a retry waits for the next delay instead of connecting', async () => {
    vi.useFakeTimers({ now: 0 });
    const created: number[] = [];
    const answers = [undefined, 'fresh'];
    client = createWsClient({
      urlFor: (token) => `ws://nowhere/${token}`,
      renewToken: async () => answers.shift(),
      onEvent: () => undefined,
      onStatus: () => undefined,
      WebSocketImpl: failingSocketClass(created),
      reconnectMinMs: 1000,
      reconnectMaxMs: 8000,
    });
    client.connect('t0');
    await vi.advanceTimersByTimeAsync(3500);
    expect(created).toEqual([0, 3010]);
  });
});
