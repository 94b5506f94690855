// Issue 9 item 4: access. Every protected endpoint of the server (its route table joined with the OpenAPI
// document, so a new one is covered without editing this file) × every kind of bad credential answers 401
// with a detail; trader B asking for trader A's resources gets 404 (or the endpoint's documented answer for a
// resource B lacks), B's lists never hold A's trades, B's preferences are never A's, and B's websocket never
// receives A's trade events. A real paper exchange backs the server-mode trade tokens and trades.
import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { startPaperExchange } from '../../paper-exchange/src/index';
import { signerFor } from '../../shared-core/exchange-client';
import { trades } from '../../server/src/db/schema-trades';
import { ACCESS_TOKEN_TTL_S } from '../../server/src/services/access-token';
import { PAPER_PLATFORM_UUID } from '../../server/src/services/platforms';
import {
  TEST_PASSWORD,
  TEST_TRADE_SETTINGS,
  createClientTrade,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
} from '../../server/test/test-app';
import {
  KNOWN_SERVER_SEGMENTS,
  fillPath,
  label,
  segmentOf,
  serverEndpoints,
  type Endpoint,
  type JsonSchema,
  type OpenApiDocument,
} from './support/api-surface';

// Built while the file is collected, so that one test per protected endpoint of its own route table exists.
const exchange = await startPaperExchange({ port: 0, host: '127.0.0.1', seed: 404, historyDays: 2 });
// Order sizes of TEST_TRADE_SETTINGS assume bitcoin near 97000: the mark is pinned there.
exchange.admin.setPrice('BTCUSDT', '97000');
const t = await createTestApp({ exchange });
const endpoints = serverEndpoints(t.app, t.app.swagger() as unknown as OpenApiDocument);
const secured = endpoints.filter((endpoint) => endpoint.secured);

afterAll(async () => {
  await t.close();
  await exchange.close();
});

type Trader = Awaited<ReturnType<typeof signUpAndLogIn>>;
let a: Trader;
let b: Trader;
const PIN_A = '11357';
const PIN_B = '97531';
/** A's resources: a client trade (open), a server trade (open), one that needs repair, a closed one. */
const mine = { clientTrade: '', serverTrade: '', errorTrade: '', closedTrade: '', token: '', signal: '' };
/** A's preferences: values no default has. */
const A_PLATFORM_PREFERENCES = {
  trade_margin: 777.25,
  trade_leverage: 17,
  trade_stop_loss_percent: 42.5,
  trade_take_profit_percent: 33.5,
  trade_treiling_stop_percent: 21.5,
};
const A_TRADE_PREFERENCES = {
  trade_auto_open_delay: 33,
  trade_auto_close_delay: 44,
  minimal_accuracy: 87.5,
  trade_in_server_side: 1,
};

const as = (trader: { headers: { authorization: string } }) => ({
  get: (url: string) => t.app.inject({ method: 'GET', url, headers: trader.headers }),
  post: (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: trader.headers, payload }),
  delete: (url: string, payload?: object) =>
    t.app.inject({ method: 'DELETE', url, headers: trader.headers, ...(payload ? { payload } : {}) }),
});

async function storeToken(trader: Trader, pin: string, balance: number) {
  const account = await as(trader).post('/api/paper_exchange/create_account/', { balance });
  const stored = await as(trader).post('/api/trade_token/create_trade_token/', {
    ...account.json().result,
    platform_uuid: PAPER_PLATFORM_UUID,
    pin_code: pin,
  });
  expect(stored.statusCode, stored.body).toBe(200);
  return stored.json().result.trade_token_uuid as string;
}

beforeAll(async () => {
  a = await signUpAndLogIn(t.app, 'alice');
  b = await signUpAndLogIn(t.app, 'bobby');
  mine.token = await storeToken(a, PIN_A, 10000);
  expect(
    (
      await as(a).post('/api/platform_preferences/set_preferences/', {
        platform_uuid: PAPER_PLATFORM_UUID,
        ...A_PLATFORM_PREFERENCES,
      })
    ).statusCode,
  ).toBe(200);
  expect((await as(a).post('/api/trade_preferences/set_preferences/', A_TRADE_PREFERENCES)).statusCode).toBe(
    200,
  );
  mine.clientTrade = (await createClientTrade(t, a.headers)).trade_uuid;
  mine.errorTrade = (await createClientTrade(t, a.headers)).trade_uuid;
  await t.db
    .update(trades)
    .set({ trade_error: 'position_missing' })
    .where(eq(trades.trade_uuid, mine.errorTrade));
  const closed = await createClientTrade(t, a.headers);
  mine.closedTrade = closed.trade_uuid;
  const closing = await as(a).post('/api/trade_client/close_trade/', {
    trade_uuid: mine.closedTrade,
    trade_status: 'manual_close',
    trade_close_price: '97100',
  });
  expect(closing.statusCode, closing.body).toBe(200);
  const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID });
  mine.signal = signal.signal_uuid;
  const opened = await as(a).post('/api/trade_server/create_trade/', {
    signal_uuid: signal.signal_uuid,
    ...TEST_TRADE_SETTINGS,
    pin_code: PIN_A,
  });
  expect(opened.statusCode, opened.body).toBe(201);
  mine.serverTrade = opened.json().result.trade_uuid;
});

const aTrades = () => [mine.clientTrade, mine.serverTrade, mine.errorTrade, mine.closedTrade];

/** Path parameters filled with A's resources, so an accepted credential would reach them. */
function urlOf(endpoint: Endpoint): string {
  return fillPath(endpoint.path, {
    trade_uuid: mine.clientTrade,
    platform_uuid: PAPER_PLATFORM_UUID,
    signal_uuid: mine.signal,
    token: 'x',
  });
}

// ---------------------------------------------------------------------------------------------------------
// Credentials that must all be refused.

const b64 = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function parts(token: string) {
  const [header = '', payload = '', signature = ''] = token.split('.');
  return { header, payload, signature, claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}

let expiredToken = '';
const BAD_CREDENTIALS: [name: string, authorization: () => string | undefined][] = [
  ['no Authorization header', () => undefined],
  ['an empty bearer', () => 'bearer '],
  ['a Basic credential', () => `Basic ${b64(`${a.user_email}:${TEST_PASSWORD}`)}`],
  ['the token without its scheme', () => a.accessToken],
  ['the token after two spaces', () => `bearer  ${a.accessToken}`],
  ['an expired access token (test clock past its lifetime)', () => `bearer ${expiredToken}`],
  [
    'a forged signature',
    () => {
      const { header, payload, signature } = parts(a.accessToken);
      const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      return `bearer ${header}.${payload}.${flipped}`;
    },
  ],
  [
    'a token signed with another key',
    () => {
      const { header, payload } = parts(a.accessToken);
      const signature = createHmac('sha256', randomBytes(32))
        .update(`${header}.${payload}`)
        .digest('base64url');
      return `bearer ${header}.${payload}.${signature}`;
    },
  ],
  [
    'alg none',
    () => {
      const { payload } = parts(a.accessToken);
      return `bearer ${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    },
  ],
  [
    "A's signature on a payload naming B",
    () => {
      const { header, signature, claims } = parts(a.accessToken);
      return `bearer ${header}.${b64({ ...claims, sub: b.user_uuid })}.${signature}`;
    },
  ],
  [
    "A's signature on a payload with a later exp",
    () => {
      const { header, signature, claims } = parts(expiredToken);
      return `bearer ${header}.${b64({ ...claims, exp: claims.exp + 86_400 })}.${signature}`;
    },
  ],
  ['the refresh token as a bearer', () => `bearer ${a.refreshCookie}`],
  ['a token with a fourth segment', () => `bearer ${a.accessToken}.x`],
  ['a 10 000-character token', () => `bearer ${'a'.repeat(10_000)}`],
];

function send(endpoint: Endpoint, authorization: string | undefined, payload?: unknown) {
  const method = endpoint.method as 'GET' | 'POST' | 'DELETE';
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  if (!endpoint.body) return t.app.inject({ method, url: urlOf(endpoint), headers });
  return t.app.inject({ method, url: urlOf(endpoint), headers, payload: (payload ?? {}) as object });
}

function expect401(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(401);
  expect(response.json().detail, what).toEqual(expect.any(String));
  expect(response.headers['www-authenticate'], what).toBe('Bearer');
}

describe('the endpoint enumeration', () => {
  it('finds the protected endpoints of every known segment, and no unexpected public one', () => {
    const segments = new Set(secured.map((endpoint) => segmentOf(endpoint.path)));
    for (const segment of KNOWN_SERVER_SEGMENTS) {
      if (!['public', 'user'].includes(segment)) expect(segments, segment).toContain(segment);
    }
    expect(secured.length).toBeGreaterThanOrEqual(25);
    // Public by design (SPEC.md §6): sign-up, login, refresh, logout, /public/*, the docs and the websocket
    // (its single-use token is checked at the upgrade). Anything else must declare bearerSecurity.
    const PUBLIC =
      /^\/api\/(user\/?|auth\/(login|refresh|logout)\/|public\/.+|docs(\/openapi\.json)?|ws_core\/:token)$/;
    const unprotected = endpoints.filter((endpoint) => !endpoint.secured).map(label);
    expect(unprotected.filter((name) => !PUBLIC.test(name.split(' ')[1]!))).toEqual([]);
  });
});

describe('the control: the same requests with a valid token pass the authentication', () => {
  for (const endpoint of secured) {
    it(label(endpoint), async () => {
      const response = await send(endpoint, b.headers.authorization);
      expect(response.statusCode, response.body).not.toBe(401);
      expect(response.statusCode, response.body).toBeLessThan(500);
    });
  }
});

describe('every protected endpoint × every bad credential answers 401 with a detail', () => {
  beforeAll(async () => {
    // A token of A that worked, then the test clock moves past its lifetime; every later token is new.
    expiredToken = await t.app.issueAccessToken(a.user_uuid);
    expect(
      (await as({ headers: { authorization: `bearer ${expiredToken}` } }).get('/api/auth/me/')).statusCode,
    ).toBe(200);
    t.clock.advance(ACCESS_TOKEN_TTL_S * 1000 + 1000);
    a.headers.authorization = `bearer ${await t.app.issueAccessToken(a.user_uuid)}`;
    b.headers.authorization = `bearer ${await t.app.issueAccessToken(b.user_uuid)}`;
  });

  for (const [name, authorization] of BAD_CREDENTIALS) {
    it(name, async () => {
      for (const endpoint of secured)
        expect401(await send(endpoint, authorization()), `${label(endpoint)} with ${name}`);
    });
  }

  it('an access token is accepted up to the end of its lifetime and refused after it', async () => {
    const token = await t.app.issueAccessToken(b.user_uuid);
    const me = (authorization: string) => as({ headers: { authorization } }).get('/api/auth/me/');
    t.clock.advance(ACCESS_TOKEN_TTL_S * 1000 - 1000);
    expect((await me(`bearer ${token}`)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect401(await me(`bearer ${token}`), 'at exp');
    a.headers.authorization = `bearer ${await t.app.issueAccessToken(a.user_uuid)}`;
    b.headers.authorization = `bearer ${await t.app.issueAccessToken(b.user_uuid)}`;
  });

  it('a websocket token is not a bearer token', async () => {
    const wsToken = (await as(a).get('/api/auth/create_websocket_token/')).json().result.token as string;
    for (const endpoint of secured) expect401(await send(endpoint, `bearer ${wsToken}`), label(endpoint));
  });
});

// ---------------------------------------------------------------------------------------------------------
// A validly signed token of a user that does not exist (signed with the server's real key, as after a user
// row is deleted): never a 5xx, never someone's data.

const EXAMPLES: Record<string, unknown> = {
  platform_uuid: PAPER_PLATFORM_UUID,
  pin_code: PIN_A,
  new_pin_code: PIN_B,
  api_key: 'key',
  api_secret: 'secret',
  trade_quantity: '0.002',
  trade_open_price: '97000',
  trade_stop_price: '96030',
  trade_close_price: '97000',
  trade_order_id: 'ghost-open',
  trade_stop_order_id: 'ghost-stop',
  datatime_start: '2026-01-01T00:00:00Z',
  datatime_end: '2026-01-02T00:00:00Z',
  balance: 100,
  ...TEST_TRADE_SETTINGS,
  ...A_TRADE_PREFERENCES,
};

function example(schema: JsonSchema, name?: string): unknown {
  if (name === 'trade_uuid') return mine.clientTrade;
  if (name === 'signal_uuid') return mine.signal;
  if (name === 'trade_status')
    return schema.enum?.includes('manual_close') ? 'manual_close' : schema.enum?.[0];
  if (name && name in EXAMPLES) return EXAMPLES[name];
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'object') {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, part]) => [key, example(part, key)]),
    );
  }
  if (schema.type === 'number' || schema.type === 'integer') return schema.minimum ?? 0;
  if (schema.format === 'uuid') return crypto.randomUUID();
  if (schema.format === 'date-time') return new Date(t.clock.now()).toISOString();
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

// A validly signed access token whose user no longer exists (deleted while one of its 15-minute tokens
// lives): the handlers that write rows referencing the user hit the foreign key, answered 401 'User not found'
// (plugins/errors.ts), never a 500.
describe("a validly signed token of a user that does not exist: no 5xx and nobody's data", () => {
  let ghost = '';
  beforeAll(async () => {
    ghost = `bearer ${await t.app.issueAccessToken(crypto.randomUUID())}`;
  });

  for (const endpoint of secured) {
    it(label(endpoint), async () => {
      const response = await send(endpoint, ghost, endpoint.body ? example(endpoint.body) : undefined);
      expect(response.statusCode, response.body).toBeLessThan(500);
      for (const secret of [a.user_uuid, a.user_email, b.user_uuid, b.user_email, ...aTrades(), mine.token]) {
        expect(response.body).not.toContain(secret);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Trader B and trader A's resources.

/** Web Push's kinds (issue 41), all on until the trader turns one off. */
const PUSH_ON = {
  push_signals: 1,
  push_trade_opened: 1,
  push_trade_closed: 1,
  push_unprotected: 1,
  push_refusals: 1,
};

describe("B never reaches A's resources", () => {
  const same = (response: LightMyRequestResponse) => ({ status: response.statusCode, body: response.json() });

  it("get_trade_trend_by_uuid of each of A's trades is 404, the same answer as for a trade that does not exist", async () => {
    const unknown = same(await as(b).get(`/api/trade/get_trade_trend_by_uuid/${crypto.randomUUID()}/`));
    expect(unknown.status).toBe(404);
    for (const trade of aTrades()) {
      expect(same(await as(b).get(`/api/trade/get_trade_trend_by_uuid/${trade}/`)), trade).toEqual(unknown);
    }
    // The control: A reaches them (the closed one too).
    for (const trade of aTrades()) {
      expect((await as(a).get(`/api/trade/get_trade_trend_by_uuid/${trade}/`)).statusCode, trade).not.toBe(
        404,
      );
    }
  });

  it("close_trade (client and server mode), update_trade_status and set_trade_stop of A's trades are 404 and change nothing", async () => {
    await storeToken(b, PIN_B, 2500);
    for (const trade of aTrades()) {
      const attempts = [
        await as(b).post('/api/trade_client/close_trade/', {
          trade_uuid: trade,
          trade_status: 'manual_close',
        }),
        await as(b).post('/api/trade_server/close_trade/', {
          trade_uuid: trade,
          trade_status: 'manual_close',
          pin_code: PIN_B,
        }),
        await as(b).post('/api/trade_server/close_trade/', {
          trade_uuid: trade,
          trade_status: 'manual_close',
          pin_code: PIN_A,
        }),
        await as(b).post('/api/trade/update_trade_status/', { trade_uuid: trade, trade_status: 'open' }),
        await as(b).post('/api/trade_client/set_trade_stop/', {
          trade_uuid: trade,
          trade_stop_order_id: 'sds-of-b',
          trade_stop_price: '1',
        }),
      ];
      for (const response of attempts) expect(response.statusCode, `${trade}: ${response.body}`).toBe(404);
    }
    const open = (await as(a).get('/api/trade/get_trades/open/')).json().result.trade_list as {
      trade_uuid: string;
    }[];
    expect(open.map((trade) => trade.trade_uuid)).toEqual(
      expect.arrayContaining([mine.clientTrade, mine.serverTrade, mine.errorTrade]),
    );
  });

  it("B's open trades and history never hold A's trades", async () => {
    await createClientTrade(t, b.headers);
    const open = (await as(b).get('/api/trade/get_trades/open/')).json().result.trade_list as {
      trade_uuid: string;
    }[];
    const from = new Date(t.clock.now() - 365 * 86_400_000).toISOString();
    const to = new Date(t.clock.now() + 365 * 86_400_000).toISOString();
    const history = (
      await as(b).get(`/api/trade/get_trades_history/?start_date=${from}&end_date=${to}`)
    ).json().result.trade_list as { trade_uuid: string }[];
    expect(open.length).toBeGreaterThan(0);
    expect(history.length).toBeGreaterThan(0);
    for (const trade of aTrades()) {
      expect(open.map((item) => item.trade_uuid)).not.toContain(trade);
      expect(history.map((item) => item.trade_uuid)).not.toContain(trade);
    }
    // The control: A's history holds them.
    const aHistory = (
      await as(a).get(`/api/trade/get_trades_history/?start_date=${from}&end_date=${to}`)
    ).json().result.trade_list as { trade_uuid: string }[];
    expect(aHistory.map((item) => item.trade_uuid)).toEqual(expect.arrayContaining(aTrades()));
  });

  it("B's repair call leaves A's error trade alone", async () => {
    const repaired = await as(b).delete('/api/trade/delete_trade_errors/', {
      pin_code_by_platform_uuid: { [PAPER_PLATFORM_UUID]: PIN_A },
    });
    expect(repaired.statusCode, repaired.body).toBe(200);
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, mine.errorTrade));
    expect(row).toMatchObject({ trade_status: 'open', trade_error: 'position_missing' });
  });

  it("B's platform and trade preferences are never A's, and B's saves never touch A's", async () => {
    const platformPreferences = `/api/platform_preferences/get_preferences_by_platform_uuid/${PAPER_PLATFORM_UUID}/`;
    expect((await as(b).get(platformPreferences)).json().result).not.toEqual(A_PLATFORM_PREFERENCES);
    expect((await as(b).get('/api/trade_preferences/get_preferences/')).json().result).not.toEqual(
      A_TRADE_PREFERENCES,
    );
    const saved = await as(b).post('/api/platform_preferences/set_preferences/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      ...TEST_TRADE_SETTINGS,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (
        await as(b).post('/api/trade_preferences/set_preferences/', {
          ...A_TRADE_PREFERENCES,
          minimal_accuracy: 61,
        })
      ).statusCode,
    ).toBe(200);
    expect((await as(a).get(platformPreferences)).json().result).toEqual(A_PLATFORM_PREFERENCES);
    // A never saved risk limits (issue 18): they read as off.
    expect((await as(a).get('/api/trade_preferences/get_preferences/')).json().result).toEqual({
      ...A_TRADE_PREFERENCES,
      trade_max_open_trades: 0,
      trade_daily_loss_limit: 0,
      trade_exits_on_exchange: 1,
      trade_follow_when_away: 1,
      trade_server_acts_when_away: 0,
      trade_one_click_close: 0,
      ...PUSH_ON,
    });
  });

  it("B cannot read, re-key, revoke or spend A's trade token, nor see A's balance", async () => {
    const read = async (trader: Trader, pin: string) =>
      as(trader).post('/api/trade_token/get_trade_token/', {
        platform_uuid: PAPER_PLATFORM_UUID,
        pin_code: pin,
      });
    const balanceOfA = (
      await as(a).post('/api/account_balance/get_account_balance/', {
        platform_uuid: PAPER_PLATFORM_UUID,
        pin_code: PIN_A,
      })
    ).json().result;

    // B without a token: 404 on every token call, whatever PIN.
    expect(
      (await as(b).post('/api/trade_token/revoke_trade_token/', { platform_uuid: PAPER_PLATFORM_UUID }))
        .statusCode,
    ).toBe(200);
    expect((await read(b, PIN_A)).statusCode).toBe(404);
    const rekey = await as(b).post('/api/trade_token/change_pin_code/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN_A,
      new_pin_code: PIN_B,
    });
    expect(rekey.statusCode, rekey.body).toBe(404);
    const balance = await as(b).post('/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN_A,
    });
    expect(balance.statusCode, balance.body).toBe(404);
    const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID });
    const spend = await as(b).post('/api/trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...TEST_TRADE_SETTINGS,
      pin_code: PIN_A,
    });
    expect(spend.statusCode, spend.body).toBe(404);

    // B with a token of its own: A's PIN does not open it, and B's record is B's.
    const own = await storeToken(b, PIN_B, 2500);
    const withAsPin = await read(b, PIN_A);
    expect(withAsPin.statusCode).toBe(200);
    expect(withAsPin.json().result).toMatchObject({ trade_token_uuid: own, level: 2 });
    const bBalance = await as(b).post('/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN_B,
    });
    expect(bBalance.statusCode, bBalance.body).toBe(200);
    expect(bBalance.json().result).not.toEqual(balanceOfA);

    // A's token is untouched by all of it.
    const aToken = await read(a, PIN_A);
    expect(aToken.json().result).toMatchObject({ trade_token_uuid: mine.token, level: 3 });
  });

  it("B cannot spend A's part of the exchange budget: B's made-up keys are refused, A's relayed reads go on", async () => {
    const relayed = (trader: Trader, apiKey: string, query: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/exchange_relay/${PAPER_PLATFORM_UUID}/fapi/v2/account?${query}`,
        headers: { ...trader.headers, 'x-mbx-apikey': apiKey },
      });
    const madeUp = () =>
      relayed(
        b,
        randomBytes(24).toString('hex'),
        `timestamp=${Date.now()}&signature=${randomBytes(32).toString('hex')}`,
      );
    // The relay holds timestamps to its clock, the exchange to the real one: the test clock is moved back to it
    // (an earlier case moved it on past a token's lifetime).
    const moved = t.clock.nowMs;
    t.clock.nowMs = Date.now();
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 20; i += 1) answers.push(await madeUp());
    const refused = answers.filter((answer) => answer.headers['x-signaldesk-relay']);
    expect(refused.length).toBeGreaterThan(10);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(429);
      expect(answer.json().detail).toMatch(/not accepted yet/);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    const account = exchange.admin.createAccount('1234');
    const query = signerFor(account.apiSecret).signedQuery([], { timestamp: Date.now(), recvWindow: 10_000 });
    const own = await relayed(a, account.apiKey, query);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().totalWalletBalance).toMatch(/^1234\./);
    t.clock.nowMs = Math.max(moved, t.clock.nowMs);
  });

  it("B cannot squat A's exchange key with requests the exchange refuses: A's own signed request still passes", async () => {
    const moved = t.clock.nowMs;
    t.clock.nowMs = Date.now();
    try {
      const account = exchange.admin.createAccount('4321');
      const relayed = (trader: Trader, query: string) =>
        t.app.inject({
          method: 'GET',
          url: `/api/exchange_relay/${PAPER_PLATFORM_UUID}/fapi/v2/account?${query}`,
          headers: { ...trader.headers, 'x-mbx-apikey': account.apiKey },
        });
      const forged = randomBytes(32).toString('hex');
      for (const query of [
        `a=1&a=2&timestamp=${Date.now()}&signature=${forged}`,
        `timestamp=${Date.now()}&signature=${forged}`,
      ]) {
        const refused = await relayed(b, query);
        expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      }
      const query = signerFor(account.apiSecret).signedQuery([], {
        timestamp: Date.now(),
        recvWindow: 10_000,
      });
      const own = await relayed(a, query);
      expect(own.statusCode, own.body).toBe(200);
      const signedByB = signerFor(account.apiSecret).signedQuery([], {
        timestamp: Date.now() + 1,
        recvWindow: 10_000,
      });
      expect((await relayed(b, signedByB)).statusCode).toBe(403);
    } finally {
      t.clock.nowMs = Math.max(moved, t.clock.nowMs);
    }
  });

  it('/auth/me answers the caller, never the other trader', async () => {
    expect((await as(b).get('/api/auth/me/')).json().result).toMatchObject({
      user_uuid: b.user_uuid,
      user_email: b.user_email,
    });
    expect((await as(a).get('/api/auth/me/')).json().result.user_trade_token_key).not.toBe(
      (await as(b).get('/api/auth/me/')).json().result.user_trade_token_key,
    );
  });
});

describe("B's websocket never carries A's trade events", () => {
  async function socketOf(trader: Trader) {
    const token = (await as(trader).get('/api/auth/create_websocket_token/')).json().result.token as string;
    const events: { event: string; message: Record<string, unknown> }[] = [];
    const socket: WebSocket = await t.app.injectWS(
      `/api/ws_core/${token}`,
      {},
      {
        onInit: (ws) => ws.on('message', (data) => events.push(JSON.parse(data.toString()))),
      },
    );
    return { socket, events };
  }

  it("sends A's trade_updated_response_from_core to A's socket only", async () => {
    const aSocket = await socketOf(a);
    const bSocket = await socketOf(b);
    try {
      // A resets the UI status of a trade (hub.sendToUser(A)); prices move A's trades; B asks for A's trade.
      expect(
        (
          await as(a).post('/api/trade/update_trade_status/', {
            trade_uuid: mine.clientTrade,
            trade_status: 'open',
          })
        ).statusCode,
      ).toBe(200);
      t.monitor.onPrice('BTCUSDT', '97250');
      bSocket.socket.send(
        JSON.stringify({
          event: 'update_trade_by_current_price_from_client',
          message: { trade_uuid: mine.clientTrade },
        }),
      );
      aSocket.socket.send(
        JSON.stringify({
          event: 'update_trade_by_current_price_from_client',
          message: { trade_uuid: mine.clientTrade },
        }),
      );
      // A round trip on B's socket proves B's question was handled before the check.
      bSocket.socket.send('not json');
      await expect.poll(() => bSocket.events.some((event) => event.event === 'bad_event')).toBe(true);
      await expect
        .poll(
          () => aSocket.events.filter((event) => event.event === 'trade_updated_response_from_core').length,
        )
        .toBeGreaterThanOrEqual(2);
      const bText = JSON.stringify(bSocket.events);
      for (const trade of aTrades()) expect(bText).not.toContain(trade);
      expect(bSocket.events.some((event) => event.event === 'trade_updated_response_from_core')).toBe(false);
    } finally {
      aSocket.socket.terminate();
      bSocket.socket.terminate();
    }
  });
});
