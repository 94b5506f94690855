// The live market and signals end to end on a real paper exchange whose clock the test moves: prices and
// trends on the websocket, signals to the traders whose minimal_accuracy they reach, their stored track record
// behind GET /api/signal/*, bad_event for malformed frames, a dropped exchange connection that is filled from
// REST, a client that reconnects with a new token, and the heartbeat.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { serverEvent, type ServerEvent, type Signal } from '../../../contracts';
import { WS_UNAUTHORIZED_CLOSE_CODE } from '../services/socket-hub';
import { signUpAndLogIn } from '../../test/test-app';
import { MINUTE_MS } from './candles';
import { startLiveHarness, type LiveHarness } from '../../test/live-harness';

const BTC = 'BTCUSDT';
let h: LiveHarness;

interface Client {
  socket: WebSocket;
  events: ServerEvent[];
  closed: Promise<number>;
}

async function websocketToken(authorization: string): Promise<string> {
  const response = await h.app.inject({
    method: 'GET',
    url: '/api/auth/create_websocket_token/',
    headers: { authorization },
  });
  return response.json().result.token;
}

async function connect(token: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
  const socket = new WebSocket(`${h.wsBase}/${token}`, options);
  const events: ServerEvent[] = [];
  socket.on('message', (data) => events.push(serverEvent.parse(JSON.parse(data.toString()))));
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, events, closed };
}

const signalsOf = (client: Client): Signal[] =>
  client.events.flatMap((event) =>
    event.event === 'signal_from_core' ? Object.values(event.message.signal_by_uuid) : [],
  );

let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
let picky: Awaited<ReturnType<typeof signUpAndLogIn>>;
let traderClient: Client;
let pickyClient: Client;

beforeAll(async () => {
  h = await startLiveHarness({ symbols: [BTC] });
  trader = await signUpAndLogIn(h.app, 'trader');
  picky = await signUpAndLogIn(h.app, 'picky');
  const saved = await h.app.inject({
    method: 'POST',
    url: '/api/trade_preferences/set_preferences/',
    headers: picky.headers,
    payload: {
      trade_auto_open_delay: 0,
      trade_auto_close_delay: 0,
      minimal_accuracy: 90,
      trade_in_server_side: 0,
    },
  });
  expect(saved.statusCode).toBe(200);
  traderClient = await connect(await websocketToken(trader.headers.authorization));
  pickyClient = await connect(await websocketToken(picky.headers.authorization));
}, 120_000);

afterAll(async () => {
  traderClient?.socket.terminate();
  pickyClient?.socket.terminate();
  await h?.close();
});

describe('live market and signals', () => {
  it('sends prices with the trend, and signals to the traders whose minimal_accuracy they reach', async () => {
    // A staircase: three minutes up 0.4 %, one down 0.5 %. The trend turns bull, trend-momentum signals BUY
    // every minute, and each BUY is a hit unless the next minute is a down minute: about 3 hits in 4.
    let price = 60_000;
    h.setPrice(BTC, price.toFixed(1));
    for (let minute = 1; minute <= 95; minute++) {
      price *= minute % 4 === 0 ? 0.995 : 1.004;
      h.setPrice(BTC, price.toFixed(1));
      await h.minute(BTC);
    }
    const prices = traderClient.events.filter((event) => event.event === 'symbol_price_base_from_core');
    expect(prices.length).toBeGreaterThan(50);
    const last = prices[prices.length - 1]!;
    expect(last.event === 'symbol_price_base_from_core' && last.message.symbol_price_base.symbol_pair).toBe(
      BTC,
    );
    expect(last.event === 'symbol_price_base_from_core' && last.message.trend_moment).toBe(1);
    expect(traderClient.events.some((event) => event.event === 'bitcoin_public_information_from_core')).toBe(
      true,
    );

    const received = signalsOf(traderClient);
    expect(received.length).toBeGreaterThan(5);
    for (const signal of received) {
      expect(signal.signal_accuracy).toBeGreaterThanOrEqual(0.6);
      expect(signal.signal_direction_created).toBe('BUY');
      expect(signal.trend_moment).toBe(1);
      expect(signal.platform.platform_name).toBe('Paper Futures');
      expect(signal.neuron?.neuron_tag_name).toBe('trend-momentum');
    }
    // The accuracy is measured, so it stays below the picky trader's 90 %: they get none.
    expect(received.some((signal) => signal.signal_accuracy < 0.9)).toBe(true);
    expect(signalsOf(pickyClient).filter((signal) => signal.signal_accuracy < 0.9)).toEqual([]);
  });

  it('answers each sent signal with the stored track record its accuracy was measured over', async () => {
    for (const signal of signalsOf(traderClient).slice(-3)) {
      const history = await h.app.inject({
        method: 'GET',
        url: `/api/signal/get_signal_history_by_uuid/${signal.signal_uuid}/`,
        headers: trader.headers,
      });
      expect(history.statusCode).toBe(200);
      const result = history.json().result;
      expect(result.hit_count / result.resolved_count).toBe(signal.signal_accuracy);
      expect(result.signal_history_list).toHaveLength(result.resolved_count);

      const trend = await h.app.inject({
        method: 'GET',
        url: `/api/signal/get_signal_trend_by_uuid/${signal.signal_uuid}/`,
        headers: trader.headers,
      });
      expect(trend.statusCode).toBe(200);
      const data = trend.json().result;
      expect(data.signal.signal_price_enter).toBe(signal.signal_price_enter);
      expect(data.price_target).toBeGreaterThan(signal.signal_price_enter);
      expect(data.trend_data_list.length).toBeGreaterThan(30);
    }
    const anonymous = await h.app.inject({
      method: 'GET',
      url: `/api/signal/get_signal_history_by_uuid/${signalsOf(traderClient)[0]!.signal_uuid}/`,
    });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await h.app.inject({
      method: 'GET',
      url: '/api/signal/get_signal_trend_by_uuid/00000000-0000-4000-8000-000000000000/',
      headers: trader.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('serves the bitcoin trend data for a chart', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/public/get_bitcoin_public_trend_data/' });
    expect(response.statusCode).toBe(200);
    const result = response.json().result;
    expect(result.trend_data_list.length).toBeGreaterThan(90);
    expect(result.bitcoin_public_information.trend_moment).toBe(1);
  });

  it('answers malformed frames with bad_event and keeps the socket', async () => {
    const before = traderClient.events.length;
    traderClient.socket.send(
      JSON.stringify({
        event: 'update_trade_by_current_price_from_client',
        message: { trade_uuid: '2b0e6c4a-8d7f-4c1e-9a3b-5f6d7e8c9a0b' },
      }),
    );
    traderClient.socket.send('not json');
    traderClient.socket.send(
      JSON.stringify({ event: 'update_trade_by_current_price_from_client', message: {} }),
    );
    await vi.waitFor(
      () => expect(traderClient.events.slice(before).filter((e) => e.event === 'bad_event')).toHaveLength(2),
      { timeout: 20_000 },
    );
    // The well-formed event got no answer: the first answer after it is the bad_event of 'not json'.
    expect(traderClient.events.slice(before).find((e) => e.event === 'bad_event')).toBeDefined();
    expect(traderClient.socket.readyState).toBe(WebSocket.OPEN);
    h.advance(1000);
    const count = traderClient.events.length;
    await vi.waitFor(() => expect(traderClient.events.length).toBeGreaterThan(count), { timeout: 20_000 });
  });

  it('fills the candles missed while the exchange connection was down', async () => {
    h.exchange.exchange.faults.set({ refuseWebsockets: true, dropWebsockets: true });
    for (let i = 0; i < 3; i++) h.advance(MINUTE_MS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    h.exchange.exchange.faults.clear();
    const ticks: number[] = [];
    const onTick = () => ticks.push(1);
    h.feed.on('tick', onTick);
    await vi.waitFor(
      () => {
        h.advance(1000);
        expect(ticks.length).toBeGreaterThan(0);
      },
      { timeout: 60_000, interval: 200 },
    );
    h.feed.off('tick', onTick);
    await h.minute(BTC);
    await h.feed.settled();
    const candles = h.feed.analytics.recent(BTC, 200).map((item) => item.candle.openTime);
    for (let i = 1; i < candles.length; i++) expect(candles[i]! - candles[i - 1]!).toBe(MINUTE_MS);
  });

  it('lets a client reconnect with a new token, never with a used one', async () => {
    const token = await websocketToken(trader.headers.authorization);
    const first = await connect(token);
    first.socket.close();
    await first.closed;
    const replay = new WebSocket(`${h.wsBase}/${token}`);
    const code = await new Promise<number>((resolve) => replay.once('close', (c) => resolve(c)));
    expect(code).toBe(WS_UNAUTHORIZED_CLOSE_CODE);
    const again = await connect(await websocketToken(trader.headers.authorization));
    await vi.waitFor(
      () => {
        h.advance(1000);
        expect(again.events.some((event) => event.event === 'symbol_price_base_from_core')).toBe(true);
      },
      { timeout: 20_000, interval: 200 },
    );
    again.socket.terminate();
  });

  it('drops a socket that stops answering pings and keeps the others', async () => {
    const dead = await connect(await websocketToken(trader.headers.authorization), { autoPong: false });
    const pinged = new Promise((resolve) => traderClient.socket.once('ping', resolve));
    h.hub.sweep();
    await pinged;
    // Let the automatic pong of the live socket arrive before the next sweep.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    h.hub.sweep();
    expect(await dead.closed).toBe(1006);
    expect(traderClient.socket.readyState).toBe(WebSocket.OPEN);
  });
});
