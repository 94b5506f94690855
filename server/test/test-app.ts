// Test support for route tests: a whole app on an in-memory PGlite database (issue 5: "in-memory PGlite per
// test file"), optionally on a real paper exchange, and a signed-up, logged-in trader. Not used at run time.
// With SIGNALDESK_TEST_DATABASE=postgres (the node-postgres Vitest project, which exists when
// scripts/with-postgres exports TEST_DATABASE_URL) each app gets a fresh database of its own on that server
// instead, dropped when the app closes.
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { SignalDirection, Trade } from '../../contracts';
import { buildApp } from '../src/app';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db';
import { createScratchDatabase } from '../src/db/scratch-database';
import { platforms, symbols } from '../src/db/schema';
import { neurons } from '../src/db/schema-signals';
import { MarketFeed } from '../src/engine/market-feed';
import { insertSignal, type SignalRow, type SymbolRow } from '../src/engine/signal-store';
import { initTradeCore } from '../../shared-core/trade-core-node';
import type { EgressIp } from '../src/services/egress-ip';
import type { SecretBox } from '../src/services/secret-box';
import { BINANCE_PLATFORM_UUID, PAPER_PLATFORM_UUID } from '../src/services/platforms';
import { ExchangeClient } from '../../shared-core/exchange-client';
import { usePasswordCostForTests } from '../src/services/password';
import { findUser, userTradeTokenKey } from '../src/services/users';
import { createTradeToken } from '../src/services/trade-tokens';

export interface TestExchange {
  url: string;
  wsUrl: string;
  /** Its admin token ('Create paper account'); a started paper exchange's handle has it. */
  adminToken?: string;
}

export interface TestAppOptions {
  /** A running exchange: symbols come from it and it becomes the paper platform. */
  exchange?: TestExchange;
  logger?: FastifyBaseLogger;
  /** Relayed exchange requests a trader may make a minute (routes/exchange_relay). */
  relayRequestsPerMinute?: number;
  egressIp?: EgressIp;
  /**
   * Another instance of the same deployment: this app runs on that app's database (left open when this one
   * closes) with its master key, as instances on one DATABASE_URL with one SIGNALDESK_MASTER_KEY do.
   */
  instanceOf?: { db: Database; app: { secretBox: SecretBox } };
  /** Push service origins the server may send to besides the known ones (a test's push endpoint). */
  pushEndpointOrigins?: string[];
}

/** A clock the test moves forward (token expiry, rate-limit windows) instead of waiting. */
export class TestClock {
  constructor(public nowMs = Date.now()) {}
  readonly now = () => this.nowMs;
  advance(ms: number): void {
    this.nowMs += ms;
  }
}

const silent = { warn: () => undefined };

/** The database of one test app: in-memory PGlite, or a scratch database on the test PostgreSQL server. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.SIGNALDESK_TEST_DATABASE !== 'postgres') return openDatabase({});
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    throw new Error(
      'SIGNALDESK_TEST_DATABASE=postgres needs TEST_DATABASE_URL (run under scripts/with-postgres)',
    );
  }
  const scratch = await createScratchDatabase(serverUrl);
  try {
    const handle = await openDatabase({ databaseUrl: scratch.url });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

export async function createTestApp(options: TestAppOptions = {}) {
  // Sign-ups and logins hash at a test cost (services/password.ts): these tests are not about scrypt's cost.
  usePasswordCostForTests('test');
  await initTradeCore();
  const database = options.instanceOf
    ? { db: options.instanceOf.db, close: async () => undefined }
    : await openTestDatabase();
  const clock = new TestClock();
  // Never started: the routes under test do not need live prices.
  const feed = new MarketFeed(
    options.exchange?.url ?? 'http://127.0.0.1:9',
    options.exchange?.wsUrl ?? 'ws://127.0.0.1:9',
    [],
    silent,
  );
  const { app, hub, monitor } = await buildApp({
    feed,
    db: database.db,
    logger: options.logger,
    exchangeUrl: options.exchange?.url,
    paperExchangeUrl: options.exchange?.url,
    paperExchangeAdminToken: options.exchange?.adminToken,
    clock: clock.now,
    relayRequestsPerMinute: options.relayRequestsPerMinute,
    egressIp: options.egressIp,
    secretBox: options.instanceOf?.app.secretBox,
    pushEndpointOrigins: options.pushEndpointOrigins,
  });
  await app.ready();
  return {
    app,
    hub,
    feed,
    /** The trade monitor: tests drive it with monitor.onPrice(pair, price) or feed.emit('tick', …). */
    monitor,
    tradeDesk: app.tradeDesk,
    db: database.db,
    clock,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export const TEST_PASSWORD = 'Secret#1a';

let sequence = 0;

/**
 * A client address of its own for each test trader (TEST-NET-2 and onwards): the login and sign-up limits
 * count per address, and traders do not share one, so one test's traders do not spend another's budget.
 */
export function testAddress(n: number): string {
  return `198.51.${100 + (Math.floor(n / 250) % 100)}.${(n % 250) + 1}`;
}

/** Signs up a new trader and logs in; returns the bearer header and the refresh cookie. */
export async function signUpAndLogIn(app: TestApp['app'], nickname = 'trader') {
  sequence += 1;
  const user_email = `${nickname}.${sequence}.${Date.now()}@example.com`;
  const remoteAddress = testAddress(sequence);
  const signup = await app.inject({
    method: 'POST',
    url: '/api/user/',
    remoteAddress,
    payload: {
      user_email,
      user_nickname: nickname,
      user_password: TEST_PASSWORD,
      user_password_repeat: TEST_PASSWORD,
    },
  });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    remoteAddress,
    payload: { user_email, user_password: TEST_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { access_token, token_type } = login.json().result as { access_token: string; token_type: string };
  const refreshCookie = login.cookies.find((cookie) => cookie.name === 'refresh_token')?.value;
  return {
    user_email,
    user_uuid: signup.json().result.user_uuid as string,
    remoteAddress,
    accessToken: access_token,
    headers: { authorization: `${token_type} ${access_token}` },
    refreshCookie: refreshCookie!,
  };
}

export const TEST_NEURON_UUID = '5e1d0c3a-7b2f-4e8a-9c61-0a1b2c3d4e5f';

/** A symbol row (created when missing): without an exchange the symbol list is empty. */
export async function ensureTestSymbol(
  db: Database,
  symbol_pair = 'BTCUSDT',
  precision = { quantity: 3, price: 1 },
): Promise<SymbolRow> {
  const [existing] = await db.select().from(symbols).where(eq(symbols.symbol_pair, symbol_pair));
  if (existing) return existing;
  const [row] = await db
    .insert(symbols)
    .values({
      symbol_uuid: crypto.randomUUID(),
      symbol_name: symbol_pair.replace(/USDT$/, ''),
      symbol_pair,
      symbol_quantity_precision: precision.quantity,
      symbol_price_precision: precision.price,
    })
    .returning();
  return row!;
}

/** Minutes back from a fixed start, so every test signal of a process has its own created_at (and uuid). */
let signalSequence = 0;
const SIGNAL_BASE_MS = Math.floor(Date.now() / 60_000) * 60_000;

/**
 * A stored signal, through the signal store's own insert (the Binance platform by default: it is enabled
 * without a paper exchange). Every call makes a new signal.
 */
export async function insertTestSignal(
  db: Database,
  options: {
    platform_uuid?: string;
    symbol_pair?: string;
    direction?: SignalDirection;
    price?: string;
    accuracy?: number;
  } = {},
): Promise<SignalRow> {
  const symbol = await ensureTestSymbol(db, options.symbol_pair);
  await db
    .insert(neurons)
    .values({ neuron_uuid: TEST_NEURON_UUID, neuron_tag_name: 'test', description: 'Signals made by tests' })
    .onConflictDoNothing();
  const [platform] = await db
    .select()
    .from(platforms)
    .where(eq(platforms.platform_uuid, options.platform_uuid ?? BINANCE_PLATFORM_UUID));
  if (!platform) throw new Error('unknown platform');
  signalSequence += 1;
  const [row] = await insertSignal(
    db,
    {
      neuronUuid: TEST_NEURON_UUID,
      symbol: symbol.symbol_pair,
      direction: options.direction ?? 'BUY',
      priceEnter: options.price ?? '97000',
      accuracy: options.accuracy ?? 0.7,
      trendMoment: 1,
      createdAt: SIGNAL_BASE_MS - signalSequence * 60_000,
    },
    symbol.symbol_uuid,
    [platform],
  );
  return row!;
}

/** Trade settings of the tests: 10× leverage, so 1 % of price is 10 % of ROE. */
export const TEST_TRADE_SETTINGS = {
  trade_margin: 19.5,
  trade_leverage: 10,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 5,
  trade_treiling_stop_percent: 3,
};

/**
 * Records a client-mode trade on a new signal through POST /api/trade_client/create_trade/: BUY BTCUSDT
 * 0.002 at 97000 unless `overrides` (body fields, or the signal's `direction`, `symbol_pair` and `platform_uuid`) say
 * otherwise. Answers the wire trade.
 */
export async function createClientTrade(
  t: { app: TestApp['app']; db: Database },
  headers: { authorization: string },
  overrides: Record<string, unknown> & {
    direction?: SignalDirection;
    symbol_pair?: string;
    platform_uuid?: string;
  } = {},
) {
  const { direction, symbol_pair, platform_uuid, ...fields } = overrides;
  const signal = await insertTestSignal(t.db, { direction, symbol_pair, platform_uuid });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/trade_client/create_trade/',
    headers,
    payload: {
      signal_uuid: signal.signal_uuid,
      ...TEST_TRADE_SETTINGS,
      trade_quantity: '0.002',
      trade_open_price: '97000',
      trade_order_id: `open-${signal.signal_uuid.slice(0, 8)}`,
      trade_stop_order_id: `stop-${signal.signal_uuid.slice(0, 8)}`,
      trade_stop_price: direction === 'SELL' ? '97970' : '96030',
      ...fields,
    },
  });
  if (response.statusCode !== 201) throw new Error(`create_trade failed: ${response.body}`);
  return response.json().result as Trade;
}

/**
 * Stores a server-mode trade token as create_trade_token does once the exchange took the key, without asking
 * the exchange (issue 36: the route refuses a key it cannot read an account with). For tests whose token is
 * refused or unreachable on purpose (a balance read's failures, the PIN limit, a database dump), never for a
 * test of the create itself.
 */
export async function storeTradeTokenUnchecked(
  t: { db: Database; app: { secretBox: SecretBox } },
  userUuid: string,
  body: { platform_uuid: string; pin_code: string; api_key: string; api_secret: string },
) {
  const user = await findUser(t.db, userUuid);
  if (!user) throw new Error('unknown user');
  const owner = { user_uuid: userUuid, user_trade_token_key: userTradeTokenKey(t.app.secretBox, user) };
  return createTradeToken(t.db, t.app.secretBox, owner, body, Date.now());
}

/**
 * A trader signed up in `t` with a funded paper account on the platform Paper Futures and a server-mode token
 * of it under `pin` (the route checks the key on the exchange first): its login, a POST/GET with its headers,
 * the account's credentials and an ExchangeClient of the account for the exchange's own view.
 */
export async function serverModeTrader(
  t: TestApp,
  exchangeUrl: string,
  pin: string,
  nickname = 'server-trader',
) {
  const login = await signUpAndLogIn(t.app, nickname);
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: login.headers, ...(payload ? { payload } : {}) });
  const created = await call('POST', '/api/paper_exchange/create_account/', { balance: 10000 });
  const credentials = created.json().result as { api_key: string; api_secret: string };
  const stored = await call('POST', '/api/trade_token/create_trade_token/', {
    ...credentials,
    platform_uuid: PAPER_PLATFORM_UUID,
    pin_code: pin,
  });
  if (stored.statusCode !== 200) throw new Error(`create_trade_token failed: ${stored.body}`);
  const client = new ExchangeClient({ baseUrl: exchangeUrl, credentials });
  return { login, call, credentials, client };
}
