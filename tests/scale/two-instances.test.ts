// Two server processes on one PostgreSQL (issue 9, "Scale"; docs/server.md "Several instances"): both run
// `tsx server/src/server.ts` as `npm start` does, on a fresh database of the test PostgreSQL server
// (TEST_DATABASE_URL: run under scripts/with-postgres), with the same master key and one paper exchange that
// runs apart (PAPER_EXCHANGE_URL). A trader signs up on A and holds a socket on each; what one instance does
// reaches the socket on the other. One instance leads (signals, house, statistics); when it dies the other
// takes over. Waits are for arrivals, with generous limits; nothing is asserted about how long anything took.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerEvent, Signal, Trade } from '../../contracts';
import { startPaperExchange, type PaperExchangeHandle } from '../../paper-exchange/src/index';
import { openDatabase, type DatabaseHandle } from '../../server/src/db';
import { platforms, symbols } from '../../server/src/db/schema';
import { neurons } from '../../server/src/db/schema-signals';
import { createScratchDatabase, type ScratchDatabase } from '../../server/src/db/scratch-database';
import { SIGNALS_TOPIC, toWireSignal } from '../../server/src/engine/live-core';
import { insertSignal } from '../../server/src/engine/signal-store';
import { PgEventBus } from '../../server/src/services/event-bus';
import { PAPER_PLATFORM_UUID } from '../../server/src/services/platforms';
import { trades } from '../../server/src/db/schema-trades';
import { TEST_TRADE_SETTINGS, insertTestSignal } from '../../server/test/test-app';
import {
  addDecimals,
  compareDecimals,
  initTradeCore,
  mulDecimals,
  roundDecimal,
  stopPrice,
} from '../../shared-core/trade-core-node';
import { startApp, type RunningApp } from '../e2e/app-process';
import { startPushEndpoint, type PushDevice, type PushEndpoint } from '../../server/test/push-endpoint';

const serverUrl = process.env.TEST_DATABASE_URL;
const TITLE = 'two instances on one PostgreSQL (needs TEST_DATABASE_URL: run under scripts/with-postgres)';
const PASSWORD = 'Secret#1a';
const AWAY_PIN = '97531';
/** A neuron of this test only: the engine never restores or judges its signals. */
const TEST_NEURON_UUID = '7a3c5e0b-2d4f-4b6a-8c1e-9f0a1b2c3d4e';
const quiet = { info: () => undefined, warn: () => undefined };

async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  limitMs = 120_000,
) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The server's own pid (tsx runs it in a child process): pino writes it on every log line. */
function serverPid(app: RunningApp): number {
  const match = /"pid":(\d+)/.exec(app.output());
  if (!match) throw new Error(`no pid in the log of ${app.baseUrl}`);
  return Number(match[1]);
}

class Socket {
  readonly events: ServerEvent[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.events.push(JSON.parse(data.toString()) as ServerEvent));
    // The socket on the instance that is killed breaks; that is expected.
    socket.on('error', () => undefined);
  }

  static async open(app: RunningApp, headers: Record<string, string>): Promise<Socket> {
    const answer = await fetch(`${app.baseUrl}/api/auth/create_websocket_token/`, { headers });
    const { token } = ((await answer.json()) as { result: { token: string } }).result;
    const socket = new WebSocket(`${app.baseUrl.replace(/^http/, 'ws')}/api/ws_core/${token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new Socket(socket);
  }

  tradeUpdate(tradeUuid: string, status?: string) {
    return this.events.find(
      (event) =>
        event.event === 'trade_updated_response_from_core' &&
        event.message.trade_uuid === tradeUuid &&
        (status === undefined || event.message.trade_update_calculated.trade_status === status),
    );
  }

  signal(signalUuid: string) {
    return this.events.find(
      (event) => event.event === 'signal_from_core' && signalUuid in event.message.signal_by_uuid,
    );
  }
}

async function post(app: RunningApp, url: string, body: object, headers: Record<string, string> = {}) {
  return fetch(`${app.baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!serverUrl)(TITLE, () => {
  let paper: PaperExchangeHandle;
  let scratch: ScratchDatabase;
  let staticDir: string;
  let a: RunningApp;
  let b: RunningApp;
  let inspect: DatabaseHandle;
  const sockets: Socket[] = [];
  let headers: Record<string, string>;

  /** The pid whose connection holds the leader's advisory lock (application_name 'signaldesk-leader pid=…'). */
  async function leaderPid(): Promise<number | undefined> {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ application_name: string }>(
        `select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and l.granted and a.application_name like 'signaldesk-leader %'`,
      );
      expect(rows.length).toBeLessThanOrEqual(1);
      const match = /pid=(\d+)/.exec(rows[0]?.application_name ?? '');
      return match ? Number(match[1]) : undefined;
    } finally {
      await client.end();
    }
  }

  /**
   * Signals stored twice for one minute, and neurons with two open signals on one symbol of a platform (one
   * engine keeps at most one open; two engines on different histories would not).
   */
  async function duplicates(): Promise<unknown[]> {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const twice = await client.query(
        `select platform_uuid, neuron_uuid, symbol_uuid, created_at, count(*) from signals
           group by 1, 2, 3, 4 having count(*) > 1`,
      );
      const twiceOpen = await client.query(
        `select platform_uuid, neuron_uuid, symbol_uuid, count(*) from signals
           where outcome is null group by 1, 2, 3 having count(*) > 1`,
      );
      return [...twice.rows, ...twiceOpen.rows];
    } finally {
      await client.end();
    }
  }

  /** A server-mode trader on B (which does not lead) with a funded paper account and a token under PIN. */
  async function serverModeTraderOnB() {
    const user_email = `away.${Date.now()}@example.com`;
    const signup = await post(b, '/api/user/', {
      user_email,
      user_nickname: 'away',
      user_password: PASSWORD,
      user_password_repeat: PASSWORD,
    });
    expect(signup.status).toBe(201);
    const login = await post(b, '/api/auth/login/', { user_email, user_password: PASSWORD });
    const { access_token, token_type } = ((await login.json()) as { result: Record<string, string> }).result;
    const auth = { authorization: `${token_type} ${access_token}` };
    const account = await post(b, '/api/paper_exchange/create_account/', { balance: 10000 }, auth);
    expect(account.status).toBe(200);
    const credentials = ((await account.json()) as { result: { api_key: string; api_secret: string } })
      .result;
    const token = await post(
      b,
      '/api/trade_token/create_trade_token/',
      { ...credentials, platform_uuid: PAPER_PLATFORM_UUID, pin_code: AWAY_PIN },
      auth,
    );
    expect(token.status).toBe(200);
    // A device subscribed to Web Push (issue 41), through B: each close must reach it once, whichever instance
    // records it.
    const device = push.device();
    const subscribed = await post(
      b,
      '/api/push/subscribe/',
      { endpoint: device.endpoint, keys: device.keys, language: 'en' },
      auth,
    );
    expect(subscribed.status).toBe(200);
    return {
      auth,
      device,
      async open(symbolPair: string, price: string): Promise<Trade> {
        paper.admin.setPrice(symbolPair, price);
        const signal = await insertTestSignal(inspect.db, {
          platform_uuid: PAPER_PLATFORM_UUID,
          symbol_pair: symbolPair,
          price,
        });
        const created = await post(
          b,
          '/api/trade_server/create_trade/',
          { signal_uuid: signal.signal_uuid, ...TEST_TRADE_SETTINGS, pin_code: AWAY_PIN },
          auth,
        );
        expect(created.status, await created.clone().text()).toBe(201);
        return ((await created.json()) as { result: Trade }).result;
      },
    };
  }

  /** The trade's row once it is no longer open: only the leader's stream can close it (no page, no PIN). */
  async function closedRow(trade: Trade) {
    return until(async () => {
      const [row] = await inspect.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
      return row && row.trade_status !== 'open' ? row : undefined;
    }, `the close of ${trade.trade_uuid}`);
  }

  /** Where the exchange holds a trade's exit (issue 35). */
  const heldPrice = (trade: Trade, exit: 'take_profit' | 'trailing'): string => {
    const hold = trade.trade_exits?.[exit];
    if (hold?.held_by !== 'exchange') throw new Error(`${exit} is not held by the exchange`);
    return hold.price;
  };
  /** The trade's close pushes to `device` after a moment to settle (a second instance sending would add one). */
  async function closesPushed(device: PushDevice, trade: Trade) {
    await push.next(device, (m) => m.kind === 'trade_closed' && m.trade_uuid === trade.trade_uuid, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return push.deliveries
      .filter((delivery) => delivery.device === device.id)
      .map((delivery) => device.decrypt(delivery.body))
      .filter((m) => m.kind === 'trade_closed' && m.trade_uuid === trade.trade_uuid);
  }
  let push: PushEndpoint;
  let away: Awaited<ReturnType<typeof serverModeTraderOnB>>;
  let stillOpen: Trade;

  beforeAll(async () => {
    // Two days of history keep the first start's backfill short.
    paper = await startPaperExchange({ port: 0, historyDays: 2 });
    push = await startPushEndpoint();
    scratch = await createScratchDatabase(serverUrl!);
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-scale-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Signaldesk</title>');
    const env = {
      DATABASE_URL: scratch.url,
      PAPER_EXCHANGE_URL: paper.url,
      PAPER_EXCHANGE_ADMIN_TOKEN: paper.adminToken,
      SIGNALDESK_MASTER_KEY: randomBytes(32).toString('base64url'),
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'info',
      PUSH_ENDPOINT_ORIGINS: push.origin,
    };
    a = await startApp(env);
    b = await startApp(env);
    inspect = await openDatabase({ databaseUrl: scratch.url });
    await initTradeCore();
  }, 400_000);

  afterAll(async () => {
    for (const socket of sockets) socket.socket.terminate();
    await b?.stop();
    await a?.stop();
    await inspect?.close();
    await paper?.close();
    await push?.close();
    await scratch?.drop();
    if (staticDir) fs.rmSync(staticDir, { recursive: true, force: true });
  }, 120_000);

  it('one instance leads: the first started; the other follows', async () => {
    expect(await leaderPid()).toBe(serverPid(a));
    expect(a.output()).toContain('leader: this instance leads');
    expect(b.output()).toContain('another instance leads; this one follows');
    expect(b.output()).not.toContain('leader: this instance leads');
  });

  it('a trade created through A reaches the trader’s socket on B; its close through B the socket on A', async () => {
    const user_email = `scale.${Date.now()}@example.com`;
    const signup = await post(a, '/api/user/', {
      user_email,
      user_nickname: 'scale',
      user_password: PASSWORD,
      user_password_repeat: PASSWORD,
    });
    expect(signup.status).toBe(201);
    const login = await post(a, '/api/auth/login/', { user_email, user_password: PASSWORD });
    const { access_token, token_type } = ((await login.json()) as { result: Record<string, string> }).result;
    headers = { authorization: `${token_type} ${access_token}` };
    const onA = await Socket.open(a, headers);
    const onB = await Socket.open(b, headers);
    sockets.push(onA, onB);

    const db = inspect.db;
    const [symbol] = await db.select().from(symbols).where(eq(symbols.symbol_pair, 'BTCUSDT'));
    const [platform] = await db
      .select()
      .from(platforms)
      .where(eq(platforms.platform_uuid, PAPER_PLATFORM_UUID));
    expect(platform?.base_url).toBe(paper.url);
    await db
      .insert(neurons)
      .values({
        neuron_uuid: TEST_NEURON_UUID,
        neuron_tag_name: 'scale-test',
        description: 'Signals of a test',
      })
      .onConflictDoNothing();
    const [signal] = await insertSignal(
      db,
      {
        neuronUuid: TEST_NEURON_UUID,
        symbol: 'BTCUSDT',
        direction: 'BUY',
        priceEnter: '97000',
        accuracy: 0.9,
        trendMoment: 1,
        createdAt: Math.floor(Date.now() / 60_000) * 60_000,
      },
      symbol!.symbol_uuid,
      [platform!],
    );

    const created = await post(
      a,
      '/api/trade_client/create_trade/',
      {
        signal_uuid: signal!.signal_uuid,
        trade_margin: 19.5,
        trade_leverage: 10,
        trade_stop_loss_percent: 10,
        trade_take_profit_percent: 5,
        trade_treiling_stop_percent: 3,
        trade_quantity: '0.002',
        trade_open_price: '97000',
        trade_order_id: 'scale-open-1',
        trade_stop_order_id: 'scale-stop-1',
        trade_stop_price: '96030',
      },
      headers,
    );
    expect(created.status).toBe(201);
    const { trade_uuid } = ((await created.json()) as { result: { trade_uuid: string } }).result;

    const arrived = await until(() => onB.tradeUpdate(trade_uuid), 'the new trade on the socket of B');
    expect(arrived).toMatchObject({ message: { trade_update_calculated: { trade_status: 'open' } } });
    // B lists it among the open trades, with its monitor's live fields (it learnt of it over the bus).
    await until(async () => {
      const answer = await fetch(`${b.baseUrl}/api/trade/get_trades/open/`, { headers });
      const { trade_list } = ((await answer.json()) as { result: { trade_list: { trade_uuid: string }[] } })
        .result;
      return trade_list.some((trade) => trade.trade_uuid === trade_uuid);
    }, 'the trade in the open list of B');

    const closed = await post(
      b,
      '/api/trade_client/close_trade/',
      { trade_uuid, trade_status: 'manual_close', trade_close_price: '97100' },
      headers,
    );
    expect(closed.status).toBe(200);
    const closing = await until(
      () => onA.tradeUpdate(trade_uuid, 'manual_close'),
      'the close on the socket of A',
    );
    expect(closing).toMatchObject({
      message: { trade_update_calculated: { trade_current_price: '97100' } },
    });
  });

  it('a new signal reaches the trader’s sockets on every instance', async () => {
    // As the leader's engine hands its new signals over: a stored signal, on the bus of a third process.
    const db = inspect.db;
    const [symbol] = await db.select().from(symbols).where(eq(symbols.symbol_pair, 'ETHUSDT'));
    const [platform] = await db
      .select()
      .from(platforms)
      .where(eq(platforms.platform_uuid, PAPER_PLATFORM_UUID));
    const [row] = await insertSignal(
      db,
      {
        neuronUuid: TEST_NEURON_UUID,
        symbol: 'ETHUSDT',
        direction: 'SELL',
        priceEnter: '3500',
        accuracy: 0.8,
        trendMoment: -1,
        createdAt: Math.floor(Date.now() / 60_000) * 60_000,
      },
      symbol!.symbol_uuid,
      [platform!],
    );
    const wire: Signal = toWireSignal(row!, symbol!, platform!, new Map([[TEST_NEURON_UUID, 'scale-test']]));
    const bus = await PgEventBus.start({ db, databaseUrl: scratch.url, log: quiet });
    try {
      bus.publish(SIGNALS_TOPIC, { signals: [wire], trend_moment: -1 });
      await bus.flushed();
      for (const socket of sockets) {
        const event = await until(() => socket.signal(wire.signal_uuid), 'the signal on every socket');
        expect(event).toMatchObject({ message: { signal_by_uuid: { [wire.signal_uuid]: wire } } });
      }
    } finally {
      await bus.close();
    }
  });

  it('stores one engine’s signals: none twice, no neuron with two open on a symbol of a platform', async () => {
    expect(await duplicates()).toEqual([]);
  });

  it('the leader follows a server-mode account: a take profit filled with no page and no PIN is recorded (issue 37)', async () => {
    away = await serverModeTraderOnB();
    const trade = await away.open('SOLUSDT', '150');
    // The leader (A) holds the account's stream, though the trade was opened through B.
    await until(() => a.output().includes('account stream: following the account'), 'the stream on A');
    paper.admin.setPrice('SOLUSDT', addDecimals(heldPrice(trade, 'take_profit'), '0.5'));
    const row = await closedRow(trade);
    expect(row.trade_status).toBe('take_profit');
    expect(compareDecimals(row.trade_close_price!, heldPrice(trade, 'take_profit'))).toBeGreaterThanOrEqual(
      0,
    );
    // Pushed once (issue 41): by the leader that recorded it, not by the instance the trader used.
    const pushed = await closesPushed(away.device, trade);
    expect(pushed.map((m) => m.trade_status)).toEqual(['take_profit']);
    // A second trade stays open while the leader dies (another symbol: one open test signal per symbol).
    stillOpen = await away.open('ETHUSDT', '3000');
  });

  it('when the leader dies, the other instance takes over', async () => {
    const pidA = serverPid(a);
    const pidB = serverPid(b);
    expect(await leaderPid()).toBe(pidA);
    process.kill(pidA, 'SIGKILL');
    // PostgreSQL ends the dead process's session, which frees the lock; B's next attempt takes it.
    await until(async () => ((await leaderPid()) === pidB ? true : undefined), 'B to lead');
    await until(() => b.output().includes('leader: this instance leads'), 'the log line of B');
    // The leader's work runs on B now: the house account (then the engine, which continues from the stored
    // track record: its replay of the feed's window stores what A did not).
    await until(() => b.output().includes('house: paper account ready'), 'the house on B');
    expect(await duplicates()).toEqual([]);
  });

  it('the stream moves with the lead: a stop filled after the leader died is recorded by the new leader (issue 37)', async () => {
    await until(() => b.output().includes('account stream: following the account'), 'the stream on B');
    const stop = stopPrice({
      direction: 'BUY',
      entryPrice: stillOpen.trade_open_price,
      stopLossPercent: 10,
      leverage: 10,
      pricePrecision: stillOpen.symbol.symbol_price_precision,
    });
    paper.admin.setPrice('ETHUSDT', roundDecimal(mulDecimals(stop, '0.998'), 2));
    const row = await closedRow(stillOpen);
    expect(row.trade_status).toBe('stop_loss');
    expect(compareDecimals(row.trade_close_price!, stop)).toBeLessThanOrEqual(0);
    // Its take profit, trailing stop and the stop's market backstop (issue 54).
    expect(row.trade_exits_waiting?.length).toBe(3);
    const pushed = await closesPushed(away.device, stillOpen);
    expect(pushed.map((m) => m.trade_status)).toEqual(['stop_loss']);
  });
});
