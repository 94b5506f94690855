// Client-mode trades through the API (SPEC.md §4, §7): recording, the open list with live fields, history by
// creation date, the reset of a UI status, closing with exact realized PNL, the trade trend, the websocket
// answer to update_trade_by_current_price_from_client (owner only) and the repair of error trades that needs
// no exchange.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serverEvent, tradeListAnswer, type ServerEvent } from '../../../../contracts';
import { trades } from '../../db/schema-trades';
import { findUserTrade } from '../../services/trades';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../../test/test-app';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndLogIn>>;
let other: Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpAndLogIn(t.app, 'owner');
  other = await signUpAndLogIn(t.app, 'other');
});
afterAll(async () => t?.close());

async function clientBody(overrides: Record<string, unknown> = {}) {
  const signal = await insertTestSignal(t.db);
  return {
    signal_uuid: signal.signal_uuid,
    ...TEST_TRADE_SETTINGS,
    trade_quantity: '0.002',
    trade_open_price: '97000',
    trade_order_id: `open-${signal.signal_uuid.slice(0, 8)}`,
    trade_stop_order_id: `stop-${signal.signal_uuid.slice(0, 8)}`,
    trade_stop_price: '96030',
    ...overrides,
  };
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers = owner.headers) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function createTrade(overrides: Record<string, unknown> = {}, headers = owner.headers) {
  const response = await call(
    'POST',
    '/api/trade_client/create_trade/',
    await clientBody(overrides),
    headers,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().result;
}

describe('POST /api/trade_client/create_trade/', () => {
  it('records the trade with the signal’s direction, the symbol and the opening trailing level', async () => {
    const body = await clientBody();
    const response = await call('POST', '/api/trade_client/create_trade/', body);
    expect(response.statusCode).toBe(201);
    const trade = response.json().result;
    expect(trade).toMatchObject({
      signal_uuid: body.signal_uuid,
      trade_direction: 'BUY',
      trade_in_server_side: 0,
      trade_open_price: '97000',
      trade_quantity: '0.002',
      trade_margin: '19.5',
      trade_current_price: '97000',
      trade_status: 'open',
      trade_ui_status: null,
      trade_error: null,
      trade_treiling_stop_percent_current: '-10.00',
      trade_close_price: null,
      trade_close_timestamp: null,
      symbol: { symbol_pair: 'BTCUSDT', symbol_name: 'BTC', symbol_quantity_precision: 3 },
    });
  });

  it('records the commission and bracket the page read (issue 18): liquidation price, fees, net figures', async () => {
    // BUY 0.002 at 97000, 10×: margin 19.4; the page read a 0.097 commission (0.05 %) and the 0.4 % bracket.
    const trade = await createTrade({
      trade_open_commission: '0.09700000',
      trade_maint_margin_rate: '0.004',
      trade_maint_amount: '0',
    });
    // (19.4 + 0 − 194) ÷ (0.002 × 0.004 − 0.002) = 87650.6024…, at the symbol's price precision.
    expect(trade.trade_liquidation_price).toBe(
      trade.symbol.symbol_price_precision === 1 ? '87650.6' : '87650.60',
    );
    expect(Number(trade.trade_open_commission)).toBe(0.097);
    // At the entry: closing 0.0005 × 0.002 × 97000 = 0.097; net −0.194, −1.00 % of 19.4.
    expect(Number(trade.trade_close_commission)).toBe(0.097);
    expect(Number(trade.trade_pnl_net)).toBe(-0.194);
    expect(trade.trade_roe_net).toBe('-1.00');
    // The close with its fill's commission: 0.2 − 0.097 − 0.0971 = 0.0059; 0.0059 ÷ 19.4 × 100 = 0.0304… %.
    const response = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      trade_close_price: '97100',
      trade_close_commission: '0.0971',
    });
    expect(response.statusCode, response.body).toBe(200);
    const closed = response.json().result;
    expect(Number(closed.trade_close_commission)).toBe(0.0971);
    expect(Number(closed.trade_pnl_net)).toBe(0.0059);
    expect(closed.trade_roe_net).toBe('0.03');
    // Unknown costs leave the figures null; a negative commission or a rate of 1 or more is refused.
    const plain = await createTrade();
    expect(plain).toMatchObject({
      trade_liquidation_price: null,
      trade_open_commission: null,
      trade_pnl_net: null,
    });
    const negative = await call(
      'POST',
      '/api/trade_client/create_trade/',
      await clientBody({ trade_open_commission: '-0.1' }),
    );
    expect(negative.statusCode).toBe(400);
    expect(negative.json().detail).toBe('trade_open_commission: Must not be below 0');
    const rate = await call(
      'POST',
      '/api/trade_client/create_trade/',
      await clientBody({ trade_maint_margin_rate: '1.5' }),
    );
    expect(rate.statusCode).toBe(400);
    expect(rate.json().detail).toBe('trade_maint_margin_rate: Must be below 1');
  });

  it('marks a trade without a stop order as stop_missing', async () => {
    const trade = await createTrade({ trade_stop_order_id: null });
    expect(trade.trade_error).toBe('stop_missing');
  });

  it('answers 400 with the field for a bad body', async () => {
    const low = await call('POST', '/api/trade_client/create_trade/', await clientBody({ trade_margin: 1 }));
    expect(low.statusCode).toBe(400);
    expect(low.json().detail).toBe('trade_margin: Must be at least 1.5');
    const price = await call(
      'POST',
      '/api/trade_client/create_trade/',
      await clientBody({ trade_open_price: '97,000' }),
    );
    expect(price.statusCode).toBe(400);
    expect(price.json().detail).toMatch(/^trade_open_price: /);
    const leverage = await call(
      'POST',
      '/api/trade_client/create_trade/',
      await clientBody({ trade_leverage: 75 }),
    );
    expect(leverage.statusCode).toBe(400);
    expect(leverage.json().detail).toBe('trade_leverage: Must be at most 50');
  });

  it('answers 404 for an unknown signal and 401 without a token', async () => {
    const body = await clientBody({ signal_uuid: crypto.randomUUID() });
    const response = await call('POST', '/api/trade_client/create_trade/', body);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Signal not found' });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/trade_client/create_trade/',
      payload: body,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 409 for a second trade on the same signal, also when both race', async () => {
    const body = await clientBody();
    expect((await call('POST', '/api/trade_client/create_trade/', body)).statusCode).toBe(201);
    const again = await call('POST', '/api/trade_client/create_trade/', body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'A trade for this signal already exists' });

    const racing = await clientBody();
    const answers = await Promise.all([
      call('POST', '/api/trade_client/create_trade/', racing),
      call('POST', '/api/trade_client/create_trade/', racing),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    // Another trader may trade the same signal.
    expect((await call('POST', '/api/trade_client/create_trade/', body, other.headers)).statusCode).toBe(201);
  });
});

describe('open trades and history', () => {
  it('lists only the trader’s open trades, with the monitor’s live fields', async () => {
    const mine = await createTrade();
    const theirs = await createTrade({}, other.headers);
    t.monitor.onPrice('BTCUSDT', '97100');
    const response = await call('GET', '/api/trade/get_trades/open/');
    expect(response.statusCode).toBe(200);
    const { trade_list } = tradeListAnswer.parse(response.json()).result;
    const uuids = trade_list.map((trade) => trade.trade_uuid);
    expect(uuids).toContain(mine.trade_uuid);
    expect(uuids).not.toContain(theirs.trade_uuid);
    const live = trade_list.find((trade) => trade.trade_uuid === mine.trade_uuid)!;
    expect(live).toMatchObject({
      trade_current_price: '97100',
      trade_last_update_price: 1,
      trade_pnl_current: '0.2',
      trade_roe_current: '1.03',
    });
  });

  it('lists trades created in the range, newest first, with offset and limit', async () => {
    const fresh = await signUpAndLogIn(t.app, 'historian');
    const created = [];
    for (let i = 0; i < 3; i += 1) {
      created.push(await createTrade({}, fresh.headers));
      t.clock.advance(1000);
    }
    // Move the first one to yesterday.
    const yesterday = new Date(Date.now() - 24 * 3600_000);
    await t.db
      .update(trades)
      .set({ trade_create_timestamp: yesterday })
      .where(eq(trades.trade_uuid, created[0].trade_uuid));
    const history = (query: string) =>
      call('GET', `/api/trade/get_trades_history/?${query}`, undefined, fresh.headers);
    const start = new Date(Date.now() - 3600_000).toISOString();
    const end = new Date(Date.now() + 3600_000).toISOString();
    const today = await history(`start_date=${start}&end_date=${end}`);
    expect(today.statusCode).toBe(200);
    expect(today.json().result.trade_list.map((trade: { trade_uuid: string }) => trade.trade_uuid)).toEqual([
      created[2].trade_uuid,
      created[1].trade_uuid,
    ]);
    const paged = await history(`start_date=${yesterday.toISOString()}&end_date=${end}&offset=1&limit=1`);
    expect(paged.json().result.trade_list.map((trade: { trade_uuid: string }) => trade.trade_uuid)).toEqual([
      created[1].trade_uuid,
    ]);
    const bad = await history(`start_date=${end}&end_date=${start}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^end_date: /);
  });
});

describe('a new client-mode trade is told to the owner’s sockets', () => {
  it('sends trade_updated_response_from_core with the open trade to its owner only', async () => {
    const sent: { user: string; event: ServerEvent }[] = [];
    const original = t.hub.sendToUser.bind(t.hub);
    t.hub.sendToUser = (user, event) => {
      sent.push({ user, event });
      original(user, event);
    };
    let trade: { trade_uuid: string };
    try {
      trade = await createTrade();
    } finally {
      t.hub.sendToUser = original;
    }
    expect(sent).toEqual([
      {
        user: owner.user_uuid,
        event: {
          event: 'trade_updated_response_from_core',
          message: {
            trade_uuid: trade.trade_uuid,
            trade_update_calculated: expect.objectContaining({ trade_status: 'open', trade_ui_status: null }),
          },
        },
      },
    ]);
  });
});

describe('closing a client-mode trade', () => {
  it('records the close with the exact realized PNL and tells the owner’s sockets', async () => {
    const trade = await createTrade();
    const sent: ServerEvent[] = [];
    const original = t.hub.sendToUser.bind(t.hub);
    t.hub.sendToUser = (user, event) => {
      if (user === owner.user_uuid) sent.push(event);
      original(user, event);
    };
    try {
      const response = await call('POST', '/api/trade_client/close_trade/', {
        trade_uuid: trade.trade_uuid,
        trade_status: 'manual_close',
        trade_close_price: '97100',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().result).toMatchObject({
        trade_status: 'manual_close',
        trade_close_price: '97100',
        trade_pnl_current: '0.2',
        trade_roe_current: '1.03',
        trade_ui_status: null,
        trade_close_timestamp: expect.any(String),
      });
    } finally {
      t.hub.sendToUser = original;
    }
    expect(sent).toEqual([
      {
        event: 'trade_updated_response_from_core',
        message: {
          trade_uuid: trade.trade_uuid,
          trade_update_calculated: expect.objectContaining({
            trade_status: 'manual_close',
            trade_pnl_current: '0.2',
          }),
        },
      },
    ]);
    const again = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
    });
    expect(again.statusCode).toBe(409);
    const open = (await call('GET', '/api/trade/get_trades/open/')).json().result.trade_list;
    expect(open.map((item: { trade_uuid: string }) => item.trade_uuid)).not.toContain(trade.trade_uuid);
  });

  it('closes a SELL at the current price when none is reported', async () => {
    const signal = await insertTestSignal(t.db, { direction: 'SELL' });
    const body = { ...(await clientBody()), signal_uuid: signal.signal_uuid, trade_stop_price: '97970' };
    const trade = (await call('POST', '/api/trade_client/create_trade/', body)).json().result;
    expect(trade.trade_direction).toBe('SELL');
    t.monitor.onPrice('BTCUSDT', '96515');
    const response = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'take_profit',
    });
    expect(response.json().result).toMatchObject({
      trade_status: 'take_profit',
      trade_close_price: '96515',
      trade_pnl_current: '0.97',
      trade_roe_current: '5.00',
    });
  });

  it('answers 404 for another trader’s trade and 400 for an open status', async () => {
    const trade = await createTrade({}, other.headers);
    const response = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
    });
    expect(response.statusCode).toBe(404);
    const bad = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'open',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /api/trade_client/set_trade_stop/ (Repair placed the missing stop of a client-mode trade)', () => {
  it('records the stop and clears stop_missing, once; 404 for another’s trade, 409 once closed', async () => {
    const trade = await createTrade({ trade_stop_order_id: null });
    expect(trade.trade_error).toBe('stop_missing');
    const body = {
      trade_uuid: trade.trade_uuid,
      trade_stop_order_id: 'sds-placed',
      trade_stop_price: '96000',
    };
    expect((await call('POST', '/api/trade_client/set_trade_stop/', body, other.headers)).statusCode).toBe(
      404,
    );
    const response = await call('POST', '/api/trade_client/set_trade_stop/', body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toMatchObject({
      trade_uuid: trade.trade_uuid,
      trade_stop_order_id: 'sds-placed',
      trade_stop_price: '96000',
      trade_error: null,
    });
    const listed = (await call('GET', '/api/trade/get_trades/open/'))
      .json()
      .result.trade_list.find((item: { trade_uuid: string }) => item.trade_uuid === trade.trade_uuid);
    expect(listed).toMatchObject({ trade_stop_order_id: 'sds-placed', trade_error: null });
    // The id the close will cancel is never replaced.
    const again = await call('POST', '/api/trade_client/set_trade_stop/', {
      ...body,
      trade_stop_order_id: 'x',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'This trade has its stop already' });
    await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
    });
    const closed = await call('POST', '/api/trade_client/set_trade_stop/', body);
    expect(closed.statusCode).toBe(409);
    const bad = await call('POST', '/api/trade_client/set_trade_stop/', { ...body, trade_stop_price: '-1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toEqual(expect.any(String));
  });
});

describe('POST /api/trade/update_trade_status/', () => {
  it('resets a UI status to none and answers 409 for a closed trade, 404 for another’s', async () => {
    const trade = await createTrade();
    t.monitor.onPrice('BTCUSDT', '97000');
    t.monitor.onPrice('BTCUSDT', '97500'); // ROE 5.15 ≥ 5: TAKE_PROFIT
    expect(t.monitor.calculated(trade.trade_uuid)?.trade_ui_status).toBe('TAKE_PROFIT');
    const reset = await call('POST', '/api/trade/update_trade_status/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'open',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().result).toMatchObject({ trade_status: 'open', trade_ui_status: null });
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
    expect(row?.trade_ui_status).toBeNull();

    const bad = await call('POST', '/api/trade/update_trade_status/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'take_profit',
    });
    expect(bad.statusCode).toBe(400);
    const theirs = await createTrade({}, other.headers);
    const foreign = await call('POST', '/api/trade/update_trade_status/', {
      trade_uuid: theirs.trade_uuid,
      trade_status: 'open',
    });
    expect(foreign.statusCode).toBe(404);
    await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
    });
    const closed = await call('POST', '/api/trade/update_trade_status/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'open',
    });
    expect(closed.statusCode).toBe(409);
  });
});

describe('GET /api/trade/get_trade_trend_by_uuid/', () => {
  it('answers the TP and trailing-stop prices, and 503 without market data, 404 for another’s trade', async () => {
    const trade = await createTrade();
    // No exchange behind the test feed: the candles cannot be read.
    const response = await call('GET', `/api/trade/get_trade_trend_by_uuid/${trade.trade_uuid}/`);
    expect(response.statusCode).toBe(503);
    const theirs = await createTrade({}, other.headers);
    const foreign = await call('GET', `/api/trade/get_trade_trend_by_uuid/${theirs.trade_uuid}/`);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('websocket update_trade_by_current_price_from_client', () => {
  async function socketOf(headers: { authorization: string }) {
    await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const token = (await call('GET', '/api/auth/create_websocket_token/', undefined, headers)).json().result
      .token;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws_core/${token}`);
    const events: ServerEvent[] = [];
    socket.on('message', (data) => events.push(serverEvent.parse(JSON.parse(data.toString()))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return { socket, events };
  }

  it('answers the trade’s live fields to its owner only', async () => {
    const trade = await createTrade();
    t.monitor.onPrice('BTCUSDT', '97050');
    const mine = await socketOf(owner.headers);
    const theirs = await socketOf(other.headers);
    try {
      const ask = JSON.stringify({
        event: 'update_trade_by_current_price_from_client',
        message: { trade_uuid: trade.trade_uuid },
      });
      theirs.socket.send(ask);
      mine.socket.send(ask);
      await expect.poll(() => mine.events.length).toBeGreaterThan(0);
      expect(mine.events.at(-1)).toEqual({
        event: 'trade_updated_response_from_core',
        message: {
          trade_uuid: trade.trade_uuid,
          trade_update_calculated: expect.objectContaining({
            trade_current_price: '97050',
            trade_pnl_current: '0.1',
            trade_status: 'open',
          }),
        },
      });
      // A round trip on the other socket proves its question was handled (and not answered).
      theirs.socket.send('not json');
      await expect.poll(() => theirs.events.length).toBeGreaterThan(0);
      expect(theirs.events.map((event) => event.event)).toEqual(['bad_event']);
    } finally {
      mine.socket.terminate();
      theirs.socket.terminate();
    }
  });
});

describe('DELETE /api/trade/delete_trade_errors/ (no exchange needed)', () => {
  async function errorRows(headers: { authorization: string }) {
    const incomplete = await createTrade({}, headers);
    const missing = await createTrade({}, headers);
    const stopless = await createTrade({ trade_stop_order_id: null }, headers);
    const staleOpening = await createTrade({}, headers);
    const freshOpening = await createTrade({}, headers);
    const set = (uuid: string, values: Partial<typeof trades.$inferInsert>) =>
      t.db.update(trades).set(values).where(eq(trades.trade_uuid, uuid));
    await set(incomplete.trade_uuid, { trade_error: 'open_incomplete', trade_order_id: null });
    await set(missing.trade_uuid, { trade_error: 'position_missing' });
    await set(staleOpening.trade_uuid, {
      trade_phase: 'opening',
      trade_order_id: null,
      trade_create_timestamp: new Date(Date.now() - 120_000),
    });
    await set(freshOpening.trade_uuid, { trade_phase: 'opening', trade_order_id: null });
    return { incomplete, missing, stopless, staleOpening, freshOpening };
  }

  it('deletes opens that never reached the exchange and closes trades whose position is gone', async () => {
    const repairer = await signUpAndLogIn(t.app, 'repairer');
    const rows = await errorRows(repairer.headers);
    t.monitor.onPrice('BTCUSDT', '97200');
    const response = await call('DELETE', '/api/trade/delete_trade_errors/', undefined, repairer.headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ result: { count: 3 } });

    const stored = await t.db.select().from(trades).where(eq(trades.user_uuid, repairer.user_uuid));
    const byUuid = new Map(stored.map((row) => [row.trade_uuid, row]));
    expect(byUuid.has(rows.incomplete.trade_uuid)).toBe(false);
    expect(byUuid.has(rows.staleOpening.trade_uuid)).toBe(false);
    expect(byUuid.get(rows.missing.trade_uuid)).toMatchObject({
      trade_status: 'manual_close',
      trade_close_price: '97200',
      trade_pnl_current: '0.4',
      trade_error: null,
    });
    // Still to be told: a position without its stop needs the exchange; an open still running is not an error.
    expect(byUuid.get(rows.stopless.trade_uuid)?.trade_error).toBe('stop_missing');
    expect(byUuid.get(rows.freshOpening.trade_uuid)?.trade_phase).toBe('opening');

    const again = await call('DELETE', '/api/trade/delete_trade_errors/', undefined, repairer.headers);
    expect(again.json()).toEqual({ result: { count: 0 } });
  });

  it('takes the PINs as an optional JSON body, from ky with and without one', async () => {
    const { default: ky } = await import('ky');
    await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const url = `http://127.0.0.1:${port}/api/trade/delete_trade_errors/`;
    const headers = owner.headers;
    const withoutBody = await ky.delete(url, { headers }).json();
    expect(withoutBody).toEqual({ result: { count: expect.any(Number) } });
    // A PIN for a platform without a server-mode token (a client-mode PIN) is ignored.
    const withBody = await ky
      .delete(url, { headers, json: { pin_code_by_platform_uuid: { [crypto.randomUUID()]: '12345' } } })
      .json();
    expect(withBody).toEqual({ result: { count: 0 } });
    const bad = await call('DELETE', '/api/trade/delete_trade_errors/', {
      pin_code_by_platform_uuid: { x: '1' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('OpenAPI document', () => {
  it('lists the trade routes with their security requirement', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const routes: [string, string, string][] = [
      ['post', '/api/trade_client/create_trade/', '201'],
      ['post', '/api/trade_client/close_trade/', '200'],
      ['post', '/api/trade_server/create_trade/', '201'],
      ['post', '/api/trade_server/close_trade/', '200'],
      ['post', '/api/trade/update_trade_status/', '200'],
      ['get', '/api/trade/get_trades/open/', '200'],
      ['get', '/api/trade/get_trade_trend_by_uuid/{trade_uuid}/', '200'],
      ['get', '/api/trade/get_trades_history/', '200'],
      ['delete', '/api/trade/delete_trade_errors/', '200'],
    ];
    for (const [method, path, status] of routes) {
      const operation = document.paths[path]?.[method];
      expect(operation?.responses[status], `${method} ${path}`).toBeDefined();
      expect(operation.security?.length, `${method} ${path}`).toBe(1);
    }
  });
});

// Issue 53, "while you were away": a close the server recorded on its own (here as the account's stream or
// the exchange's exit does, through the desk) is answered to the first claim, once; one a page asked for is not.
describe('POST /api/trade/claim_unannounced_closes/', () => {
  const claim = async (headers = owner.headers) => {
    const response = await call('POST', '/api/trade/claim_unannounced_closes/', undefined, headers);
    expect(response.statusCode, response.body).toBe(200);
    return tradeListAnswer.parse(response.json()).result.trade_list;
  };

  it('answers each close the server recorded once, with its status and net PNL; never a close a page asked for', async () => {
    await claim();
    const away = await createTrade();
    const byPage = await createTrade();
    const recorded = await t.tradeDesk.recordClose(
      (await findUserTrade(t.db, owner.user_uuid, away.trade_uuid))!,
      'take_profit',
      '97100',
    );
    expect(recorded?.trade_close_announced).toBe(false);
    const asked = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: byPage.trade_uuid,
      trade_status: 'manual_close',
      trade_close_price: '97050',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // Another trader claims none of the owner's.
    expect(await claim(other.headers)).toEqual([]);
    const [told, ...rest] = await claim();
    expect(rest).toEqual([]);
    expect(told).toMatchObject({
      trade_uuid: away.trade_uuid,
      trade_status: 'take_profit',
      trade_close_price: '97100',
    });
    expect(told!.trade_pnl_net).toEqual(recorded!.trade_pnl_net);
    // Once: a second tab's claim finds nothing.
    expect(await claim()).toEqual([]);
  });

  it('two claims at once tell each close once between them', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const trade = await createTrade();
      await t.tradeDesk.recordClose(
        (await findUserTrade(t.db, owner.user_uuid, trade.trade_uuid))!,
        'stop_loss',
        '96030',
      );
      uuids.push(trade.trade_uuid);
    }
    const [a, b] = await Promise.all([claim(), claim()]);
    expect([...a!, ...b!].map((trade) => trade.trade_uuid).sort()).toEqual(uuids.sort());
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/trade/claim_unannounced_closes/' });
    expect(response.statusCode).toBe(401);
  });
});
