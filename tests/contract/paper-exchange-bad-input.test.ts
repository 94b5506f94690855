// Issue 9 item 3, paper exchange side: every Binance endpoint of the paper exchange's route table (/fapi,
// /sapi) and its loopback admin API, driven with generated parameters (fast-check, fixed seed): signed with a
// real paper account's HMAC key, unsigned, badly signed, with unknown or malformed keys, stale timestamps,
// parameters in the query, the body or both, JSON and odd content types. Whatever arrives: never a 5xx (fault
// injection stays off), never an unexpected exception (paper-exchange/src/http.ts answers one as a 400
// -1000 "An unknown error occured", which would hide a crash), and every rejection a Binance-style 4xx
// {"code": <number>, "msg": <text>} (paper-exchange/src/errors.ts).
import crypto from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPaperExchange } from '../../paper-exchange/src/index';
import { isApiError } from '../../paper-exchange/src/errors';
import { accountRoutes } from '../../paper-exchange/src/routes/account-routes';
import { marketRoutes } from '../../paper-exchange/src/routes/market-routes';
import type { RouteDef } from '../../paper-exchange/src/routes/route';
import { tradeRoutes } from '../../paper-exchange/src/routes/trade-routes';
import { fillPath, label, routeTable, type RouteEntry } from './support/api-surface';

const SEED = 4_815_162;
const RUNS = 60;

// Built while the file is collected, so that one test per route of its own route table exists. No listen:
// app.inject comes from 127.0.0.1, which the admin API requires.
const built = await buildPaperExchange({ seed: 42, historyDays: 1 });
const { app, exchange } = built;
// The request-weight and order-count limits would answer 429 to most of a fuzz run; they have their own tests.
Object.assign(exchange.limiter.limits, {
  requestWeightPerMinute: 1e9,
  ordersPerMinute: 1e9,
  ordersPer10s: 1e9,
});
const DEFAULT_LIMITS = { ...exchange.limiter.limits };
/** Exceptions that were not an ApiError nor a 4xx of Fastify: crashes, whatever the answer said. */
const crashes: unknown[] = [];
app.addHook('onError', async (_request, _reply, error) => {
  const status = (error as { statusCode?: number }).statusCode;
  if (!isApiError(error) && !(status !== undefined && status >= 400 && status < 500)) crashes.push(error);
});
await app.ready();
const routes = routeTable(app);
const { account, apiSecret } = exchange.createAccount('100000');
const other = exchange.createAccount('100');

afterAll(async () => built.close());

const definitions = new Map<string, RouteDef>();
for (const def of [...marketRoutes, ...tradeRoutes, ...accountRoutes]) {
  for (const path of def.paths) definitions.set(`${def.method} ${path}`, def);
}

// printRoutes shows /ws and /ws/* as one node, /ws*.
const isStream = (path: string) => /(^|\/)(ws|stream)(\/?\*)?$/.test(path);
const binanceRoutes = routes.filter((route) => /^\/(fapi|sapi)\//.test(route.path));
const adminRoutes = routes.filter((route) => route.path.startsWith('/admin'));
const streamRoutes = routes.filter((route) => isStream(route.path));
/** @fastify/cors answers every preflight (OPTIONS *). */
const preflightRoutes = routes.filter((route) => route.method === 'OPTIONS');

// ---------------------------------------------------------------------------------------------------------
// Parameters: a plausible request for the route, then junk in some of its parameters, extra ones, dropped ones.

const SYMBOL = 'BTCUSDT';
const BASE_PARAMS: Record<string, Record<string, string>> = {
  'POST /fapi/v1/order': { symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.002' },
  'POST /fapi/v1/algoOrder': {
    algoType: 'CONDITIONAL',
    symbol: SYMBOL,
    side: 'SELL',
    type: 'STOP_MARKET',
    triggerPrice: '90000',
    quantity: '0.002',
    reduceOnly: 'true',
  },
  'POST /fapi/v1/leverage': { symbol: SYMBOL, leverage: '10' },
  'POST /fapi/v1/marginType': { symbol: SYMBOL, marginType: 'ISOLATED' },
  'POST /fapi/v1/positionSide/dual': { dualSidePosition: 'false' },
  'GET /fapi/v1/klines': { symbol: SYMBOL, interval: '1m', limit: '5' },
  'GET /fapi/v1/markPriceKlines': { symbol: SYMBOL, interval: '1m', limit: '5' },
  'GET /fapi/v1/indexPriceKlines': { pair: SYMBOL, interval: '1m', limit: '5' },
  'GET /fapi/v1/continuousKlines': { pair: SYMBOL, contractType: 'PERPETUAL', interval: '1m', limit: '5' },
  'GET /fapi/v1/algoOrder': { algoId: '1' },
  'DELETE /fapi/v1/algoOrder': { algoId: '1' },
  'GET /fapi/v1/openOrder': { symbol: SYMBOL, orderId: '1' },
  'GET /fapi/v1/depth': { symbol: SYMBOL, limit: '5' },
  'DELETE /fapi/v1/order': { symbol: SYMBOL, origClientOrderId: 'fuzz-1' },
  'GET /fapi/v1/order': { symbol: SYMBOL, orderId: '1' },
};

const PARAM_NAMES = [
  'symbol',
  'side',
  'type',
  'quantity',
  'price',
  'stopPrice',
  'triggerPrice',
  'timeInForce',
  'reduceOnly',
  'closePosition',
  'positionSide',
  'workingType',
  'priceProtect',
  'newClientOrderId',
  'origClientOrderId',
  'clientAlgoId',
  'orderId',
  'algoId',
  'algoType',
  'newOrderRespType',
  'goodTillDate',
  'activationPrice',
  'activatePrice',
  'callbackRate',
  'leverage',
  'marginType',
  'dualSidePosition',
  'interval',
  'limit',
  'startTime',
  'endTime',
  'fromId',
  'incomeType',
  'pair',
  'contractType',
  'listenKey',
  'recvWindow',
  'timestamp',
];

const GOOD_VALUES = [
  SYMBOL,
  'ETHUSDT',
  'BUY',
  'SELL',
  'MARKET',
  'LIMIT',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
  'GTC',
  'GTD',
  'IOC',
  'FOK',
  'GTX',
  'true',
  'false',
  'BOTH',
  'LONG',
  'SHORT',
  'ISOLATED',
  'CROSSED',
  'MARK_PRICE',
  'CONTRACT_PRICE',
  'RESULT',
  'ACK',
  'CONDITIONAL',
  '1m',
  '1h',
  '1M',
  '0.002',
  '0.001',
  '1',
  '10',
  '125',
  '97000',
  '90000.1',
  '5',
  '1000',
  'PERPETUAL',
  'TRANSFER',
  'REALIZED_PNL',
];

const BAD_VALUES = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '0.0000000001',
  '1e5',
  '1E-8',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '9'.repeat(40),
  '9007199254740993',
  '1.',
  '.5',
  '１２３',
  '١٢٣',
  'btcusdt',
  'BTC/USDT',
  'BTCUSDT ',
  'buy',
  'Buy',
  'TRUE',
  '[]',
  '{}',
  'null',
  'undefined',
  '\u0000',
  '\uD800',
  '💥',
  '%',
  '&',
  '=',
  "' OR '1'='1",
  '<script>',
  'x'.repeat(5000),
  '__proto__',
  'constructor',
];

const paramValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...GOOD_VALUES) },
  { weight: 4, arbitrary: fc.constantFrom(...BAD_VALUES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);

const paramName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PARAM_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

function paramsOf(route: RouteEntry): fc.Arbitrary<[string, string][]> {
  const base = Object.entries(BASE_PARAMS[label(route)] ?? { symbol: SYMBOL });
  const names = base.map(([name]) => name);
  const withBase = (changes: fc.Arbitrary<(entries: [string, string][]) => [string, string][]>) =>
    changes.map((change) => change(base.map(([name, value]): [string, string] => [name, value])));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(base) },
    {
      weight: 4,
      arbitrary: withBase(
        fc.tuple(fc.constantFrom(...names), paramValue).map(
          ([name, value]) =>
            (entries: [string, string][]) =>
              entries.map(([key, old]): [string, string] => [key, key === name ? value : old]),
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: withBase(
        fc
          .subarray(names, { minLength: 1 })
          .map(
            (dropped) => (entries: [string, string][]) => entries.filter(([key]) => !dropped.includes(key)),
          ),
      ),
    },
    {
      weight: 3,
      arbitrary: withBase(
        fc
          .array(fc.tuple(paramName, paramValue), { minLength: 1, maxLength: 6 })
          .map((extra) => (entries: [string, string][]) => [...entries, ...extra]),
      ),
    },
    { weight: 2, arbitrary: fc.array(fc.tuple(paramName, paramValue), { maxLength: 10 }) },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Authentication and transport.

const AUTH_MODES = [
  'signed-query',
  'signed-body',
  'signed-split',
  'signed-json-body',
  'unsigned',
  'bad-signature',
  'uppercase-signature',
  'short-signature',
  'other-accounts-key',
  'no-key',
  'malformed-key',
  'unknown-key',
  'stale-timestamp',
  'future-timestamp',
  'huge-recv-window',
  'duplicate-timestamp',
] as const;
type AuthMode = (typeof AUTH_MODES)[number];

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/json',
  'text/plain',
  'multipart/form-data; boundary=x',
  undefined,
];

interface BinanceRequest {
  params: [string, string][];
  auth: AuthMode;
  contentType: string | undefined;
}

const binanceRequest = (route: RouteEntry): fc.Arbitrary<BinanceRequest> =>
  fc.record({
    params: paramsOf(route),
    // A GET has no body (Fastify does not read one): its parameters travel in the query.
    auth: fc.oneof(
      {
        weight: 6,
        arbitrary:
          route.method === 'GET'
            ? fc.constant<AuthMode>('signed-query')
            : fc.constantFrom<AuthMode>('signed-query', 'signed-body', 'signed-split', 'signed-json-body'),
      },
      { weight: 4, arbitrary: fc.constantFrom(...AUTH_MODES) },
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });

const hmac = (payload: string, secret = apiSecret) =>
  crypto.createHmac('sha256', secret).update(payload).digest('hex');

function encode(entries: [string, string][]): string {
  return new URLSearchParams(entries).toString();
}

function sendBinance(route: RouteEntry, request: BinanceRequest) {
  const now = exchange.now();
  const timestamp =
    request.auth === 'stale-timestamp'
      ? now - 60_000
      : request.auth === 'future-timestamp'
        ? now + 5000
        : now;
  const signedEntries: [string, string][] = [
    ...request.params,
    ['timestamp', String(timestamp)],
    ['recvWindow', request.auth === 'huge-recv-window' ? '600000' : '10000'],
    ...(request.auth === 'duplicate-timestamp' ? [['timestamp', String(now)] as [string, string]] : []),
  ];
  const apiKey =
    {
      'other-accounts-key': other.account.apiKey,
      'no-key': undefined,
      'malformed-key': 'not a key!',
      'unknown-key': 'A'.repeat(64),
    }[request.auth as string] ?? account.apiKey;
  let query = '';
  let body = '';
  const signature = (payload: string) => {
    const good = hmac(payload);
    if (request.auth === 'bad-signature') return hmac(payload, 'wrong secret');
    if (request.auth === 'uppercase-signature') return good.toUpperCase();
    if (request.auth === 'short-signature') return good.slice(0, 20);
    return good;
  };
  if (request.auth === 'unsigned') {
    query = encode(request.params);
  } else if (request.auth === 'signed-body') {
    body = encode(signedEntries);
    body += `&signature=${signature(body)}`;
  } else if (request.auth === 'signed-json-body') {
    body = JSON.stringify(Object.fromEntries(signedEntries));
    query = `signature=${signature(body)}`;
  } else if (request.auth === 'signed-split') {
    const half = Math.floor(signedEntries.length / 2);
    query = encode(signedEntries.slice(0, half));
    body = encode(signedEntries.slice(half));
    body += `&signature=${signature(query + body)}`;
  } else {
    query = encode(signedEntries);
    query += `&signature=${signature(query)}`;
  }
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers['x-mbx-apikey'] = apiKey;
  if (request.contentType) headers['content-type'] = request.contentType;
  return app.inject({
    method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: `${route.path}${query ? `?${query}` : ''}`,
    headers,
    ...(body ? { payload: body } : {}),
  });
}

/** What is wrong with an answer: a 5xx, a crash behind a 4xx, or a 4xx that is not {code, msg}. */
function problemOf(response: LightMyRequestResponse): string | undefined {
  if (crashes.length) return `unexpected exception ${String(crashes[0])} (answered ${response.statusCode})`;
  if (response.statusCode >= 500) return `HTTP ${response.statusCode} ${response.body.slice(0, 200)}`;
  if (response.statusCode >= 400) {
    let body: { code?: unknown; msg?: unknown };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      return `HTTP ${response.statusCode} with a body that is not JSON: ${response.body.slice(0, 200)}`;
    }
    if (typeof body.code !== 'number' || typeof body.msg !== 'string' || !body.msg.trim()) {
      return `HTTP ${response.statusCode} not {code, msg}: ${response.body.slice(0, 200)}`;
    }
  }
  return undefined;
}

async function check(what: string, response: Promise<LightMyRequestResponse>) {
  crashes.length = 0;
  const answer = await response;
  const problem = problemOf(answer);
  if (problem) throw new Error(`${what.slice(0, 400)} → ${problem}`);
  return answer;
}

describe('the endpoint enumeration', () => {
  it('finds the Binance, admin and stream routes in the app’s own route table', () => {
    for (const path of [
      '/fapi/v1/order',
      '/fapi/v1/leverage',
      '/fapi/v1/marginType',
      '/fapi/v1/positionSide/dual',
      '/fapi/v2/account',
      '/fapi/v2/positionRisk',
      '/fapi/v1/algoOrder',
      '/fapi/v1/klines',
      '/fapi/v1/exchangeInfo',
    ]) {
      expect(binanceRoutes.map((route) => route.path)).toContain(path);
    }
    expect(binanceRoutes.length).toBeGreaterThanOrEqual(40);
    expect(adminRoutes.length).toBeGreaterThanOrEqual(10);
    // Every route is fuzzed below, or is a websocket stream or the CORS preflight (sent plain requests below).
    const covered = new Set(
      [...binanceRoutes, ...adminRoutes, ...streamRoutes, ...preflightRoutes].map(label),
    );
    expect(routes.filter((route) => !covered.has(label(route)))).toEqual([]);
    // Each Binance route is one of the route definitions, whose security type decides the signing.
    for (const route of binanceRoutes) expect(definitions.has(label(route)), label(route)).toBe(true);
  });
});

describe('the signing harness', () => {
  it('gets the plain request of each trading route accepted, signed with the paper account’s key', async () => {
    const send = (path: string, method: string, auth: AuthMode) =>
      sendBinance(
        { method, path },
        { params: Object.entries(BASE_PARAMS[`${method} ${path}`]!), auth, contentType: undefined },
      );
    for (const auth of ['signed-query', 'signed-body', 'signed-split', 'signed-json-body'] as const) {
      for (const [method, path] of [
        ['POST', '/fapi/v1/leverage'],
        ['POST', '/fapi/v1/order'],
        ['POST', '/fapi/v1/algoOrder'],
      ]) {
        const response = await check(`${method} ${path} ${auth}`, send(path!, method!, auth));
        expect(response.statusCode, `${method} ${path} ${auth}: ${response.body}`).toBe(200);
      }
    }
    const margin = await check('marginType', send('/fapi/v1/marginType', 'POST', 'signed-query'));
    expect([200, 400]).toContain(margin.statusCode);
    const account = await check(
      'account',
      sendBinance(
        { method: 'GET', path: '/fapi/v2/account' },
        {
          params: [],
          auth: 'signed-query',
          contentType: undefined,
        },
      ),
    );
    expect(account.statusCode).toBe(200);
  });
});

describe('generated Binance requests never make a 5xx or a crash; rejections are 4xx {code, msg}', () => {
  for (const route of binanceRoutes) {
    it(`${label(route)} (${definitions.get(label(route))?.security ?? '?'})`, async () => {
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(binanceRequest(route), async (request) => {
          const answer = await check(
            `${label(route)} ${JSON.stringify(request)}`,
            sendBinance(route, request),
          );
          seen.add(answer.statusCode);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (definitions.get(label(route))?.security !== 'NONE')
        expect(seen.has(401) || seen.has(400)).toBe(true);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// The admin API (loopback only, admin token): JSON bodies and path parameters.

const ADMIN_BODIES: unknown[] = [
  { balance: '1000' },
  { balance: 1000 },
  { balance: '-5' },
  { balance: '1e9' },
  { amount: '10' },
  { amount: '-1000000' },
  { legacyConditionalOrders: true },
  { legacyConditionalOrders: 'yes' },
  { symbol: SYMBOL, price: '97000' },
  { symbol: SYMBOL, price: null },
  { symbol: 'NOPE', price: '1' },
  { symbol: SYMBOL, price: '0' },
  { symbol: SYMBOL, price: '-1' },
  { status: 'TRADING' },
  { status: 'CLOSE' },
  { requestWeightPerMinute: 0 },
  { enabled: true },
  { public_key_pem: 'not a pem' },
  { errorRate: 2 },
  { latencyMs: -1 },
];

const adminRequest = fc.record({
  param: fc.oneof(
    fc.constantFrom(account.apiKey, other.account.apiKey, SYMBOL, 'btcusdt', 'NOPE', 'x'.repeat(90)),
    fc.string({ unit: 'binary', maxLength: 30 }),
  ),
  body: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ADMIN_BODIES).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'nul', '[]', '{"balance":}', `"${'x'.repeat(2000)}"`) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  ),
  contentType: fc.constantFrom('application/json', 'text/plain', undefined),
  query: fc.constantFrom('', `account=${account.apiKey}`, 'account=', 'account=%zz'),
});

describe('generated admin requests never make a 5xx or a crash; rejections are 4xx {code, msg}', () => {
  for (const route of adminRoutes) {
    it(label(route), async () => {
      await fc.assert(
        fc.asyncProperty(adminRequest, async (request) => {
          const url = fillPath(route.path, {
            apiKey: encodeURIComponent(request.param),
            symbol: encodeURIComponent(request.param),
          });
          try {
            await check(
              `${route.method} ${url} ${request.body.slice(0, 200)}`,
              app.inject({
                method: route.method as 'GET' | 'POST' | 'DELETE',
                url: `${url}${request.query ? `?${request.query}` : ''}`,
                // With the admin token, so generated input reaches the handlers (admin-guard.ts has its own tests).
                headers: {
                  'x-admin-token': exchange.adminToken,
                  ...(request.contentType ? { 'content-type': request.contentType } : {}),
                },
                ...(request.body ? { payload: request.body } : {}),
              }),
            );
          } finally {
            // Faults and limits set by a generated body would answer later requests 5xx or 429 on purpose.
            exchange.faults.clear();
            Object.assign(exchange.limiter.limits, DEFAULT_LIMITS);
          }
        }),
        { seed: SEED, numRuns: Math.floor(RUNS / 2), endOnFailure: true },
      );
    });
  }

  it('refuses a caller that is not on loopback with 403 {code, msg}', async () => {
    for (const route of adminRoutes) {
      const response = await check(
        label(route),
        app.inject({
          method: route.method as 'GET' | 'POST' | 'DELETE',
          url: fillPath(route.path, { apiKey: account.apiKey, symbol: SYMBOL }),
          remoteAddress: '203.0.113.9',
        }),
      );
      expect(response.statusCode, label(route)).toBe(403);
    }
  });
});

describe('other paths and the stream routes', () => {
  it('answers unknown paths and plain requests to stream routes without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ...streamRoutes.map((route) => route.path),
          '/fapi/v9/nothing',
          '/',
          '/admin/nothing',
        ),
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        async (path, tail, method) => {
          crashes.length = 0;
          const url = fillPath(path.replace('*', ':rest'), { rest: encodeURIComponent(tail) });
          const response = await app.inject({ method: method as 'GET', url });
          expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
          expect(crashes).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
