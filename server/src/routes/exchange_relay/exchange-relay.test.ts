// The signed-request relay (docs/relay.md) on a listening app and a real paper exchange: the shared exchange
// client signs with trade-core and sends through /api/exchange_relay/{platform_uuid}, as the page does in
// client mode. What it forwards, what it refuses, and what it keeps out of the log.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import {
  ExchangeClient,
  ExchangeError,
  ExchangeFailure,
  RELAY_HEADER,
  signerFor,
} from '../../../../shared-core/exchange-client';
import { clientOrderIds, closePosition, openPosition } from '../../../../shared-core/trade-flow';
import { eq } from 'drizzle-orm';
import { relayApiKeys } from '../../db/schema';
import { EgressIp } from '../../services/egress-ip';
import { relayKeyDigest } from '../../services/exchange-relay';
import { DEFAULT_WEIGHT_LIMIT, NEW_KEY_WEIGHT, READ_SHARE } from '../../services/exchange-budget';
import { createLogger } from '../../services/logger';
import { BINANCE_PLATFORM_UUID, PAPER_PLATFORM_UUID } from '../../services/platforms';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';
import { RELAY_EXCHANGE_STATUS_HEADER } from '../../../../contracts';

const RATE_LIMIT = 120;
let exchange: PaperExchangeHandle;
let t: TestApp;
let appUrl: string;
const logged: string[] = [];
let traderA: Awaited<ReturnType<typeof signUpAndLogIn>>;
let traderB: Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 5, historyDays: 1 });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged.push(chunk.toString());
      done();
    },
  });
  t = await createTestApp({
    exchange,
    logger: createLogger('info', sink),
    relayRequestsPerMinute: RATE_LIMIT,
    egressIp: new EgressIp('203.0.113.7'),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  appUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  traderA = await signUpAndLogIn(t.app, 'relayer');
  traderB = await signUpAndLogIn(t.app, 'other');
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

const relayBase = (platformUuid = PAPER_PLATFORM_UUID) => `${appUrl}/api/exchange_relay/${platformUuid}`;

/** The page's way: the access token on every relayed request (src/lib/api-client.ts createRelayFetch). */
function relayClient(
  account: { apiKey: string; apiSecret: string },
  trader = traderA,
  platformUuid = PAPER_PLATFORM_UUID,
) {
  const sent: Response[] = [];
  const withToken: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', trader.headers.authorization);
    const response = await fetch(input, { ...init, headers });
    sent.push(response.clone());
    return response;
  };
  const credentials = { api_key: account.apiKey, signer: signerFor(account.apiSecret) };
  return {
    client: new ExchangeClient({ baseUrl: relayBase(platformUuid), credentials, fetch: withToken }),
    sent,
  };
}

/** Opens a 10 USDT BUY at 10× from a new signal through `client`, then closes it by hand. */
async function openAndClose(
  client: ExchangeClient,
  symbol_pair: string,
  precision: { price: number; quantity: number },
) {
  const signal = crypto.randomUUID();
  const opened = await openPosition(client, {
    symbol_pair,
    trade_direction: 'BUY',
    trade_margin: 10,
    trade_leverage: 10,
    trade_stop_loss_percent: 10,
    symbol_price_precision: precision.price,
    symbol_quantity_precision: precision.quantity,
    signal_uuid: signal,
  });
  const closed = await closePosition(client, {
    symbol_pair,
    trade_direction: 'BUY',
    trade_quantity: opened.trade_quantity,
    trade_leverage: 10,
    trade_stop_order_id: opened.trade_stop_order_id,
    trade_order_id: opened.trade_order_id,
    trade_status: 'manual_close',
  });
  return { signal, opened, closed };
}

/** A signed query the way the client builds it, for requests the client would never send. */
function signedQuery(account: { apiSecret: string }, params: [string, string][]) {
  return signerFor(account.apiSecret).signedQuery(params, { timestamp: Date.now(), recvWindow: 10_000 });
}

const errorOf = async (call: Promise<unknown>) => {
  try {
    await call;
  } catch (error) {
    return error as ExchangeError;
  }
  throw new Error('the call succeeded');
};

// First in the file: the allowance of keys never accepted is one pool a minute for everyone (exchange-budget.ts),
// which the refusals the later cases provoke on purpose would share.
describe('the exchange budget under a flood of made-up keys (issue 33)', () => {
  const madeUpRead = (trader: typeof traderA) =>
    fetch(
      `${relayBase()}/fapi/v2/account?timestamp=${Date.now()}&signature=${randomBytes(32).toString('hex')}`,
      { headers: { ...trader.headers, 'x-mbx-apikey': randomBytes(24).toString('hex') } },
    );

  it('a flood of made-up keys from two accounts costs the budget almost nothing; a third trader trades on', async () => {
    const flooders = [await signUpAndLogIn(t.app, 'flooder'), await signUpAndLogIn(t.app, 'flooder')];
    const started = Date.now();
    const answers: Response[] = [];
    // As the reproduction did: reads with made-up keys and random signatures, in bursts, from both accounts.
    for (let burst = 0; burst < 4; burst += 1) {
      answers.push(
        ...(await Promise.all(flooders.flatMap((f) => Array.from({ length: 25 }, () => madeUpRead(f))))),
      );
    }
    const forwarded = answers.filter((answer) => !answer.headers.get(RELAY_HEADER));
    const refused = answers.filter((answer) => answer.headers.get(RELAY_HEADER));
    // Each account's made-up keys get NEW_KEY_WEIGHT a minute at most (a read weighs 5): the rest is ours to
    // refuse, with Retry-After. (A flood that spans the turn of a minute gets each minute's allowance.)
    const minutes = Math.floor(Date.now() / 60_000) - Math.floor(started / 60_000) + 1;
    expect(forwarded.length).toBeLessThanOrEqual(((2 * NEW_KEY_WEIGHT) / 5) * minutes);
    expect(forwarded.map((answer) => answer.status)).not.toContain(429);
    expect(new Set(refused.map((answer) => answer.status))).toEqual(new Set([429]));
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused[0]!.json()).toEqual({ detail: expect.stringMatching(/not accepted yet/) });

    // The third trader's key is accepted on its first 2xx; its reads and a whole trade go through.
    const third = await signUpAndLogIn(t.app, 'third');
    exchange.admin.setPrice('ADAUSDT', '0.9');
    const account = exchange.admin.createAccount('5000');
    const { client, sent } = relayClient(account, third);
    expect((await client.getAccount()).total_wallet_balance).toBe(5000);
    await openAndClose(client, 'ADAUSDT', { price: 4, quantity: 0 });
    expect(sent.map((answer) => answer.status).filter((status) => status === 429 || status === 418)).toEqual(
      [],
    );
    const position = await client.getPositionRisk('ADAUSDT');
    expect(Number(position.positionAmt)).toBe(0);
    // The exchange's count of our address never came near its limit.
    const used = Number(sent.at(-1)!.headers.get('x-mbx-used-weight-1m'));
    expect(used).toBeLessThan(DEFAULT_WEIGHT_LIMIT * READ_SHARE);
  });
});

describe('exchange relay', () => {
  it('answers the exchange\'s "already so" (-4046, -4059, -2013 on a look-up) as 200 with its body (issue 39); other errors keep their status', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const account = exchange.admin.createAccount('5000');
    const { client, sent } = relayClient(account);
    // Twice: the first open may change the settings, the second finds them set (-4046, -4059 from the exchange).
    await openAndClose(client, 'ETHUSDT', { price: 2, quantity: 3 });
    await openAndClose(client, 'ETHUSDT', { price: 2, quantity: 3 });
    expect(sent.filter((answer) => answer.status >= 400).map((answer) => answer.url)).toEqual([]);
    const noChange = sent.filter((answer) => answer.headers.get(RELAY_EXCHANGE_STATUS_HEADER) === '400');
    const codes = await Promise.all(
      noChange.map(async (answer) => ((await answer.json()) as { code: number }).code),
    );
    // The second open's settings, and each open's look-up of its signal's opening order (none yet).
    // (-4120 only while this process has not learnt the stop route yet: an earlier test may have.)
    expect(codes).toEqual(expect.arrayContaining([-4046, -4059, -2013]));
    expect(codes.filter((code) => ![-4046, -4059, -2013, -4120].includes(code))).toEqual([]);
    // An unknown symbol on the same call is an error the exchange answers 400, and so does the relay.
    const query = signedQuery(account, [
      ['symbol', 'NOPEUSDT'],
      ['marginType', 'ISOLATED'],
    ]);
    const refused = await fetch(`${relayBase()}/fapi/v1/marginType?${query}`, {
      method: 'POST',
      headers: { 'x-mbx-apikey': account.apiKey, authorization: traderA.headers.authorization },
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get(RELAY_EXCHANGE_STATUS_HEADER)).toBeNull();
    expect(((await refused.json()) as { code: number }).code).not.toBe(-4046);
  });

  it("opens, reads and closes a trade through the relay: the exchange's answers and rate-limit headers come back", async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const account = exchange.admin.createAccount('5000');
    const { client, sent } = relayClient(account);
    const balance = await client.getAccount();
    expect(balance.total_wallet_balance).toBe(5000);
    expect(sent[0]!.headers.get('x-mbx-used-weight-1m')).toMatch(/^\d+$/);
    expect(sent[0]!.headers.get(RELAY_HEADER)).toBeNull();
    const { signal, opened, closed } = await openAndClose(client, 'ETHUSDT', { price: 2, quantity: 3 });
    expect(opened.trade_stop_order_id).toBe(clientOrderIds(signal).stop);
    const market = sent.find((response) => response.url.includes('type=MARKET'))!;
    expect(market.headers.get('x-mbx-order-count-1m')).toMatch(/^\d+$/);
    expect(closed.stop_cancelled).toBe(true);
    const summary = await fetch(`${exchange.url}/admin/accounts/${account.apiKey}`).then((r) => r.json());
    expect(summary.positions.filter((p: { positionAmt: string }) => Number(p.positionAmt) !== 0)).toEqual([]);
  });

  it('forwards a signed request once: the same request again is refused and never reaches the exchange', async () => {
    exchange.admin.setPrice('XRPUSDT', '2.5');
    const account = exchange.admin.createAccount('5000');
    const query = signedQuery(account, [
      ['symbol', 'XRPUSDT'],
      ['side', 'BUY'],
      ['type', 'MARKET'],
      ['quantity', '10'],
      ['newOrderRespType', 'RESULT'],
    ]);
    const send = () =>
      fetch(`${relayBase()}/fapi/v1/order?${query}`, {
        method: 'POST',
        headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
      });
    const [first, second] = await Promise.all([send(), send()]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect(refused.headers.get(RELAY_HEADER)).toBe('refused');
    expect(await refused.json()).toEqual({ detail: 'This signed request was relayed already' });
    const third = await send();
    expect(third.status).toBe(409);
    const summary = await fetch(`${exchange.url}/admin/accounts/${account.apiKey}`).then((r) => r.json());
    const xrp = summary.positions.find((p: { symbol: string }) => p.symbol === 'XRPUSDT');
    expect(Number(xrp.positionAmt)).toBe(10);
  });

  it("hands the exchange's refusals back unchanged, and the client reads them as it does from the exchange", async () => {
    const account = exchange.admin.createAccount('5000');
    const wrongKey = { apiKey: 'f'.repeat(64), apiSecret: account.apiSecret };
    const direct = new ExchangeClient({
      baseUrl: exchange.url,
      credentials: { api_key: wrongKey.apiKey, api_secret: wrongKey.apiSecret },
    });
    const viaRelay = relayClient(wrongKey).client;
    const [directError, relayedError] = await Promise.all([
      errorOf(direct.getAccount()),
      errorOf(viaRelay.getAccount()),
    ]);
    expect(relayedError.code).toBe(-2015);
    expect(relayedError.status).toBe(401);
    expect(relayedError.message).toBe(directError.message);

    // -4164: a notional under the symbol's minimum; -4120: a STOP on the old path. The bodies as the exchange
    // wrote them; the status too, except -4120's, which the page expects (RELAY_NO_CHANGE_ANSWERS): 200, with the
    // exchange's status in its header.
    exchange.admin.setPrice('XRPUSDT', '2.5');
    for (const params of [
      [
        ['symbol', 'XRPUSDT'],
        ['side', 'BUY'],
        ['type', 'MARKET'],
        ['quantity', '0.1'],
      ],
      [
        ['symbol', 'XRPUSDT'],
        ['side', 'SELL'],
        ['type', 'STOP'],
        ['quantity', '10'],
        ['price', '2.0'],
        ['stopPrice', '2.1'],
        ['timeInForce', 'GTC'],
      ],
    ] as [string, string][][]) {
      const relayed = await fetch(`${relayBase()}/fapi/v1/order?${signedQuery(account, params)}`, {
        method: 'POST',
        headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
      });
      const straight = await fetch(`${exchange.url}/fapi/v1/order?${signedQuery(account, params)}`, {
        method: 'POST',
        headers: { 'x-mbx-apikey': account.apiKey },
      });
      const body = await straight.text();
      const expected = JSON.parse(body).code === -4120 ? 200 : straight.status;
      expect(straight.status).toBe(400);
      expect(relayed.status).toBe(expected);
      expect(relayed.headers.get(RELAY_EXCHANGE_STATUS_HEADER)).toBe(expected === 200 ? '400' : null);
      expect(await relayed.text()).toBe(body);
    }
  });

  it('gives the same failures as the exchange itself when it fails (5xx) or does not answer', async () => {
    const account = exchange.admin.createAccount('5000');
    const relayed = relayClient(account).client;
    const direct = new ExchangeClient({
      baseUrl: exchange.url,
      credentials: { api_key: account.apiKey, api_secret: account.apiSecret },
    });
    exchange.admin.setFaults({ account: account.apiKey, errorCount: 2, errorStatus: 503 });
    const [viaRelay, straight] = [await errorOf(relayed.getAccount()), await errorOf(direct.getAccount())];
    expect(viaRelay.status).toBe(503);
    expect(viaRelay.message).toBe(straight.message);
    expect(viaRelay.outcomeUnknown).toBe(true);

    exchange.admin.setFaults({ account: account.apiKey, timeoutCount: 1, timeoutMs: 8_000 });
    const timedOut = await errorOf(relayed.getAccount());
    expect(timedOut.failure).toBe(ExchangeFailure.TIMEOUT);
    expect(timedOut.message).toBe('getAccount: Timeout');
    exchange.admin.clearFaults(account.apiKey);
  }, 20_000);

  it('refuses what the product never sends: other paths, other methods, unsigned or stale requests, a body', async () => {
    const account = exchange.admin.createAccount('5000');
    const query = () => signedQuery(account, [['symbol', 'BTCUSDT']]);
    const call = (method: string, path: string, search = query(), body?: string) =>
      fetch(`${relayBase()}${path}?${search}`, {
        method,
        headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
        body,
      });
    const cases: [Response, number][] = [
      [await call('GET', '/fapi/v1/exchangeInfo'), 404],
      [await call('POST', '/fapi/v1/listenKey'), 404],
      [await call('GET', '/fapi/v1/allOpenOrders'), 404],
      [await call('DELETE', '/fapi/v2/account'), 404],
      [await call('GET', '/fapi/v1/../../admin/accounts'), 404],
      [await call('GET', '/fapi/v2/account', 'symbol=BTCUSDT&timestamp=1'), 400],
      [
        await call(
          'GET',
          '/fapi/v2/account',
          `symbol=BTCUSDT&timestamp=${Date.now() - 3_600_000}&signature=ab`,
        ),
        400,
      ],
      [await call('GET', '/fapi/v1/..%2F..%2Fadmin%2Faccounts'), 404],
      [await call('POST', '/fapi/v1/leverage', query(), 'symbol=BTCUSDT&leverage=10'), 400],
    ];
    for (const [response, status] of cases) {
      expect(response.status, response.url).toBe(status);
      expect((await response.json()).detail).toEqual(expect.any(String));
    }
    const put = await fetch(`${relayBase()}/fapi/v1/order?${query()}`, {
      method: 'PUT',
      headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
    });
    expect(put.status).toBe(404);
  });

  it("sends to the platform's own base URL, whatever host or address the request names", async () => {
    const account = exchange.admin.createAccount('777');
    const search = signedQuery(account, [['url', 'http://169.254.169.254/latest']]);
    const response = await fetch(`${relayBase()}/fapi/v2/account?${search}`, {
      headers: {
        ...traderA.headers,
        'x-mbx-apikey': account.apiKey,
        'x-forwarded-host': 'evil.example',
        forwarded: 'host=evil.example',
      },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).totalWalletBalance).toMatch(/^777\./);
    // The Binance platform is its real base URL, unreachable here: the relay says so; it never tries the paper
    // exchange or an address of the request.
    const binance = await fetch(
      `${relayBase(BINANCE_PLATFORM_UUID)}/fapi/v2/account?${signedQuery(account, [])}`,
      {
        headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
      },
    );
    expect([502, 504]).toContain(binance.status);
    expect(binance.headers.get(RELAY_HEADER)).toBe('refused');
    // The client reads it as a failed connection, as when the page could not reach the exchange itself.
    const unreachable = await errorOf(
      relayClient(account, traderA, BINANCE_PLATFORM_UUID).client.getAccount(),
    );
    expect([ExchangeFailure.FETCH, ExchangeFailure.TIMEOUT]).toContain(unreachable.failure);
    expect(unreachable.outcomeUnknown).toBe(true);
  });

  it("refuses another trader's exchange key, an unknown platform, and anyone not logged in", async () => {
    const account = exchange.admin.createAccount('5000');
    await relayClient(account, traderA).client.getAccount();
    const stolen = await errorOf(relayClient(account, traderB).client.getAccount());
    expect(stolen.status).toBe(403);
    expect(stolen.message).toBe(
      'getAccount: This exchange API key is connected to another Signaldesk account',
    );
    // A key the exchange refused binds nobody: B's own later use of a fresh key is not blocked by A's attempt.
    const fresh = exchange.admin.createAccount('5000');
    await errorOf(relayClient({ ...fresh, apiSecret: 'wrong' }, traderA).client.getAccount());
    expect((await relayClient(fresh, traderB).client.getAccount()).total_wallet_balance).toBe(5000);

    const unknown = await errorOf(relayClient(account, traderA, crypto.randomUUID()).client.getAccount());
    expect(unknown.status).toBe(404);
    const anonymous = await fetch(`${relayBase()}/fapi/v2/account?${signedQuery(account, [])}`, {
      headers: { 'x-mbx-apikey': account.apiKey },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get(RELAY_HEADER)).toBe('refused');
  });

  it('answers the address to allow on an IP-restricted key: the configured one, loopback for a local exchange', async () => {
    const ask = (uuid: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/exchange_relay/egress_ip/${uuid}/`,
        headers: traderA.headers,
      });
    expect((await ask(BINANCE_PLATFORM_UUID)).json()).toEqual({ result: { egress_ip: '203.0.113.7' } });
    expect((await ask(PAPER_PLATFORM_UUID)).json()).toEqual({ result: { egress_ip: '127.0.0.1' } });
    expect((await ask(crypto.randomUUID())).statusCode).toBe(404);
  });

  it('keeps the API key, the signature and the query out of the log', async () => {
    const account = exchange.admin.createAccount('5000');
    const search = signedQuery(account, []);
    await fetch(`${relayBase()}/fapi/v2/account?${search}`, {
      headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
    });
    const signature = new URLSearchParams(search).get('signature')!;
    const text = logged.join('');
    expect(text).toContain('/api/exchange_relay/');
    expect(text).not.toContain(account.apiKey);
    expect(text).not.toContain(signature);
    expect(text).not.toMatch(/exchange_relay\/[^"]*\?/);
  });

  it('limits the requests of each trader, and only of that trader', async () => {
    const other = await signUpAndLogIn(t.app, 'limited');
    const account = exchange.admin.createAccount('5000');
    const { client } = relayClient(account, other);
    let refused: ExchangeError | undefined;
    for (let i = 0; i <= RATE_LIMIT && !refused; i++) {
      refused = await client.getAccount().then(
        () => undefined,
        (error: ExchangeError) => error,
      );
    }
    expect(refused?.status).toBe(429);
    expect(refused?.message).toMatch(/Too many exchange requests through Signaldesk/);
    const fresh = exchange.admin.createAccount('5000');
    expect((await relayClient(fresh, traderB).client.getAccount()).total_wallet_balance).toBe(5000);
  });
});

describe('each signed request reaches the exchange once, in any encoding (issue 34)', () => {
  it('an Ed25519-signed MARKET order re-encoded (no padding, URL-safe, a line break) fills once', async () => {
    exchange.admin.setPrice('DOGEUSDT', '0.2');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { apiKey } = exchange.admin.registerEd25519(
      publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      '5000',
    );
    // A signature with a '+' or a '/' (about 15 in 16 are), so its URL-safe form is another text.
    const signed = (timestamp: number) =>
      signerFor(pem).signedQuery(
        [
          ['symbol', 'DOGEUSDT'],
          ['side', 'BUY'],
          ['type', 'MARKET'],
          ['quantity', '100'],
          ['newOrderRespType', 'RESULT'],
        ],
        { timestamp, recvWindow: 10_000 },
      );
    const now = Date.now();
    let query = signed(now);
    for (let later = 1; !/%2B|%2F/.test(query.split('&signature=')[1]!); later += 1)
      query = signed(now + later);
    const [unsigned, encoded] = query.split('&signature=') as [string, string];
    const base64 = decodeURIComponent(encoded);
    expect(base64).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    const variants = [
      encoded,
      encodeURIComponent(base64.replace(/=+$/, '')),
      encodeURIComponent(base64.replace(/\+/g, '-').replace(/\//g, '_')),
      `${encoded}%0A`,
      // The same text with lower-case percent escapes: the same signature once decoded.
      encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    ];
    const send = (signature: string) =>
      fetch(`${relayBase()}/fapi/v1/order?${unsigned}&signature=${signature}`, {
        method: 'POST',
        headers: { ...traderA.headers, 'x-mbx-apikey': apiKey },
      });
    const answers = [];
    for (const variant of variants) answers.push(await send(variant));
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 400, 400, 409]);
    for (const answer of answers.slice(1)) expect(answer.headers.get(RELAY_HEADER)).toBe('refused');
    const summary = await fetch(`${exchange.url}/admin/accounts/${apiKey}`).then((r) => r.json());
    const position = summary.positions.find((p: { symbol: string }) => p.symbol === 'DOGEUSDT');
    expect(position.positionAmt).toBe('100');
    // The exchange reads signatures as strictly: a re-encoded one sent straight to it is -1022.
    for (const variant of variants.slice(1, 4)) {
      const direct = await fetch(`${exchange.url}/fapi/v1/order?${unsigned}&signature=${variant}`, {
        method: 'POST',
        headers: { 'x-mbx-apikey': apiKey },
      });
      expect(((await direct.json()) as { code: number }).code, variant).toBe(-1022);
    }
  });

  it('an HMAC signature in upper-case hex is the same signature: refused as a replay', async () => {
    const account = exchange.admin.createAccount('5000');
    const query = signedQuery(account, []);
    const [unsigned, hex] = query.split('&signature=') as [string, string];
    const send = (signature: string) =>
      fetch(`${relayBase()}/fapi/v2/account?${unsigned}&signature=${signature}`, {
        headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
      });
    expect((await send(hex)).status).toBe(200);
    const again = await send(hex.toUpperCase());
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: 'This signed request was relayed already' });
  });
});

describe('the smaller holes (issue 34)', () => {
  it('HEAD on a relayed GET path is not found, and the signature is not spent', async () => {
    const account = exchange.admin.createAccount('5000');
    const query = signedQuery(account, []);
    const send = (method: string) =>
      fetch(`${relayBase()}/fapi/v2/account?${query}`, {
        method,
        headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
      });
    expect((await send('HEAD')).status).toBe(404);
    expect(exchange.exchange.requests.of(account.apiKey)).toHaveLength(0);
    expect((await send('GET')).status).toBe(200);
  });

  it('a percent-encoded route (/api/exchange%5Frelay/) keeps its query out of the log too', async () => {
    const account = exchange.admin.createAccount('5000');
    const search = signedQuery(account, []);
    const answer = await fetch(
      `${appUrl}/api/exchange%5Frelay/${PAPER_PLATFORM_UUID}/fapi/v2/account?${search}`,
      { headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey } },
    );
    expect(answer.status).toBe(200);
    const text = logged.join('');
    expect(text).toContain('/api/exchange%5Frelay/');
    expect(text).not.toContain(new URLSearchParams(search).get('signature')!);
  });

  it('a malformed Ed25519 secret in a server-mode token is a 400 with a clear message', async () => {
    const trader = await signUpAndLogIn(t.app, 'malformed');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/trade_token/create_trade_token/',
      headers: trader.headers,
      payload: {
        api_key: 'k'.repeat(64),
        api_secret: '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----',
        platform_uuid: PAPER_PLATFORM_UUID,
        pin_code: '24680',
      },
    });
    // Refused where it is typed (issue 36: the key is checked before it is saved), and nothing is saved.
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toEqual({ detail: 'api_secret: not a valid Ed25519 private key (PKCS#8 PEM)' });
    const balance = await t.app.inject({
      method: 'POST',
      url: '/api/account_balance/get_account_balance/',
      headers: trader.headers,
      payload: { platform_uuid: PAPER_PLATFORM_UUID, pin_code: '24680' },
    });
    expect(balance.statusCode).toBe(404);
  });
});

describe('two instances on one database (issue 34)', () => {
  it('a signed request sent to one instance and again to the other reaches the exchange once', async () => {
    const second = await createTestApp({ exchange, instanceOf: t });
    try {
      const account = exchange.admin.createAccount('5000');
      const query = signedQuery(account, []);
      const send = (app: TestApp['app']) =>
        app.inject({
          method: 'GET',
          url: `/api/exchange_relay/${PAPER_PLATFORM_UUID}/fapi/v2/account?${query}`,
          headers: { ...traderA.headers, 'x-mbx-apikey': account.apiKey },
        });
      const first = await send(t.app);
      expect(first.statusCode, first.body).toBe(200);
      const copy = await send(second.app);
      expect(copy.statusCode, copy.body).toBe(409);
      expect(exchange.exchange.requests.of(account.apiKey)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe("a key is bound only on the exchange's 2xx (issue 34)", () => {
  it("a victim's key sent by another account with a request the exchange refuses binds nobody", async () => {
    const victim = await signUpAndLogIn(t.app, 'victim');
    const squatter = await signUpAndLogIn(t.app, 'squatter');
    const account = exchange.admin.createAccount('5000');
    const asSquatter = (query: string) =>
      fetch(`${relayBase()}/fapi/v2/account?${query}`, {
        headers: { ...squatter.headers, 'x-mbx-apikey': account.apiKey },
      });
    // -1101 (a parameter sent twice: the exchange reads parameters before it looks at the key) and -1022.
    const duplicated = await asSquatter(
      `a=1&a=2&timestamp=${Date.now()}&signature=${randomBytes(32).toString('hex')}`,
    );
    expect(((await duplicated.json()) as { code: number }).code).toBe(-1101);
    const badSignature = await asSquatter(
      `timestamp=${Date.now()}&signature=${randomBytes(32).toString('hex')}`,
    );
    expect(((await badSignature.json()) as { code: number }).code).toBe(-1022);
    // The owner's correctly signed request still goes through, and binds the key to the owner.
    expect((await relayClient(account, victim).client.getAccount()).total_wallet_balance).toBe(5000);
    const after = await asSquatter(`timestamp=${Date.now()}&signature=${randomBytes(32).toString('hex')}`);
    expect(after.status).toBe(403);
  });

  it('a server-mode key is bound to its trader when saved and accepted; a made-up secret binds nothing', async () => {
    const owner = await signUpAndLogIn(t.app, 'server-owner');
    const squatter = await signUpAndLogIn(t.app, 'server-squatter');
    const account = exchange.admin.createAccount('5000');
    const save = (trader: typeof owner, api_secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/trade_token/create_trade_token/',
        headers: trader.headers,
        payload: {
          api_key: account.apiKey,
          api_secret,
          platform_uuid: PAPER_PLATFORM_UUID,
          pin_code: '13579',
        },
      });
    // The squatter saves the owner's key with a secret of its own: the exchange refuses it, so it is neither
    // saved (issue 36) nor bound.
    expect((await save(squatter, randomBytes(32).toString('hex'))).statusCode).toBe(400);
    expect(exchange.exchange.requests.of(account.apiKey).length).toBeGreaterThan(0);
    expect((await relayClient(account, owner).client.getAccount()).total_wallet_balance).toBe(5000);

    // Saved by its owner (with the right secret), a fresh key is bound once the exchange has accepted it.
    const second = exchange.admin.createAccount('5000');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/trade_token/create_trade_token/',
      headers: owner.headers,
      payload: {
        api_key: second.apiKey,
        api_secret: second.apiSecret,
        platform_uuid: PAPER_PLATFORM_UUID,
        pin_code: '13579',
      },
    });
    expect(saved.statusCode).toBe(200);
    const digest = relayKeyDigest(t.app.secretBox, PAPER_PLATFORM_UUID, second.apiKey);
    await expect
      .poll(async () => {
        const [row] = await t.db.select().from(relayApiKeys).where(eq(relayApiKeys.key_digest, digest));
        return row?.user_uuid;
      })
      .toBe(owner.user_uuid);
    expect((await errorOf(relayClient(second, squatter).client.getAccount())).status).toBe(403);
  });
});

describe('the exchange budget of our address (services/exchange-budget.ts)', () => {
  /**
   * Runs `test` with a key already accepted for trader B, and gives the exchange its limits back afterwards
   * (the test changes them to make it refuse our address).
   */
  async function withExchangeLimits(
    test: (
      limits: typeof exchange.exchange.limiter.limits,
      saved: typeof exchange.exchange.limiter.limits,
      account: ReturnType<typeof exchange.admin.createAccount>,
      client: ExchangeClient,
    ) => Promise<void>,
  ) {
    const limits = exchange.exchange.limiter.limits;
    const saved = { ...limits };
    const account = exchange.admin.createAccount('5000');
    const { client } = relayClient(account, traderB);
    await client.getAccount();
    try {
      await test(limits, saved, account, client);
    } finally {
      Object.assign(limits, saved);
    }
  }

  it("an account's order count (-1015) pauses that key's orders only: its reads and another trader's orders go on", async () => {
    await withExchangeLimits(async (limits, _saved, account, client) => {
      exchange.admin.setPrice('ADAUSDT', '0.9');
      // The exchange's order count of this account, made small: 3 new orders per 10 s.
      Object.assign(limits, { ordersPer10s: 3 });
      const order = () =>
        client.placeMarketOrder({
          symbol: 'ADAUSDT',
          side: 'BUY',
          quantity: '10',
          newClientOrderId: `t-${randomBytes(6).toString('hex')}`,
        });
      let refused: ExchangeError | undefined;
      // Until the exchange refuses (a turn of its 10-s window in between only adds an order or two).
      for (let i = 0; i < 12 && !refused; i += 1) {
        try {
          await order();
        } catch (error) {
          refused = error as ExchangeError;
        }
      }
      expect(refused?.status).toBe(429);
      expect(refused?.code).toBe(-1015);
      const seen = exchange.exchange.requests.of(account.apiKey).length;
      // Its next order is refused by Signaldesk itself, without reaching the exchange, for the exchange's window.
      const paused = await errorOf(order());
      expect(paused.status).toBe(429);
      expect(paused.message).toMatch(/this API key's new orders/);
      expect(exchange.exchange.requests.of(account.apiKey)).toHaveLength(seen);
      // The account's reads, and another trader's orders, are not paused: our address was never refused.
      expect((await client.getAccount()).total_wallet_balance).toBeGreaterThan(0);
      const other = exchange.admin.createAccount('5000');
      const { client: otherClient } = relayClient(other, traderA);
      await otherClient.getAccount();
      const filled = await otherClient.placeMarketOrder({
        symbol: 'ADAUSDT',
        side: 'BUY',
        quantity: '10',
        newClientOrderId: `t-${randomBytes(6).toString('hex')}`,
      });
      expect(Number(filled.executedQty)).toBe(10);
    });
  });

  it("after the exchange's 418 nothing reaches it until its Retry-After has passed, for every trader", async () => {
    await withExchangeLimits(async (limits, saved, account, client) => {
      // Our address goes on after 429s (sent straight to the exchange, not through the budget): banned for 2 s.
      Object.assign(limits, { requestWeightPerMinute: 1, requestsAfter429: 0, banSeconds: 2 });
      for (let i = 0; i < 3; i += 1) await fetch(`${exchange.url}/fapi/v1/ping`);
      const banned = await errorOf(client.getAccount());
      expect(banned.status).toBe(418);
      const before = exchange.exchange.requests.of(account.apiKey).length;
      // Now the relay refuses itself, for this trader and the others, and the exchange sees nothing.
      const paused = await errorOf(client.getAccount());
      expect(paused.status).toBe(429);
      expect(paused.message).toMatch(/asked Signaldesk to pause its requests \(HTTP 418\)/);
      const other = await fetch(`${relayBase()}/fapi/v2/account?${signedQuery(account, [])}`, {
        headers: { ...traderA.headers, 'x-mbx-apikey': randomBytes(24).toString('hex') },
      });
      expect(other.status).toBe(429);
      expect(Number(other.headers.get('retry-after'))).toBeLessThanOrEqual(2);
      expect(exchange.exchange.requests.of(account.apiKey)).toHaveLength(before);
      Object.assign(limits, saved);
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      expect((await client.getAccount()).total_wallet_balance).toBe(5000);
    });
  });

  // Last in the file: the pause lasts to the end of the exchange's minute.
  it("after the exchange's 429 nothing reaches it for the Retry-After it gave", async () => {
    await withExchangeLimits(async (limits, saved, account, client) => {
      Object.assign(limits, { requestWeightPerMinute: 1 });
      const limited = await errorOf(client.getAccount());
      expect(limited.status).toBe(429);
      expect(limited.code).toBe(-1003);
      const before = exchange.exchange.requests.of(account.apiKey).length;
      Object.assign(limits, saved);
      const paused = await fetch(`${relayBase()}/fapi/v2/account?${signedQuery(account, [])}`, {
        headers: { ...traderB.headers, 'x-mbx-apikey': account.apiKey },
      });
      expect(paused.status).toBe(429);
      expect(paused.headers.get(RELAY_HEADER)).toBe('refused');
      expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(paused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(exchange.exchange.requests.of(account.apiKey)).toHaveLength(before);
    });
  });
});
