// Authentication and transport rules of reference §1-2, against the running server.
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedPayload, verifySigned } from '../src/auth.js';
import { buildPaperExchange } from '../src/app.js';
import type { PaperExchangeHandle } from '../src/index.js';
import type { AccountRecord } from '../src/state.js';
import { admin, expectCode, startTestExchange, TestClient } from './helpers.js';

let handle: PaperExchangeHandle;
let client: TestClient;
let secret: string;

beforeAll(async () => {
  handle = await startTestExchange();
  const created = await admin<{ api_key: string; api_secret: string }>(handle, 'POST', '/accounts', {
    balance: '10000',
  });
  secret = created.body.api_secret;
  client = TestClient.hmac(handle.url, created.body.api_key, secret);
});
afterAll(async () => {
  await handle.close();
});

describe('HMAC signature', () => {
  it('matches the official Binance test vector (GI, reference §2)', () => {
    const account = {
      keyType: 'HMAC',
      secret: '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9',
    } as AccountRecord;
    const payload =
      'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943';
    const signature = '3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9';
    const params = new Map(new URLSearchParams(`${payload}&signature=${signature}`));
    const request = {
      rawQuery: `${payload}&signature=${signature}`,
      rawBody: '',
      params,
      serverTime: 1591702613943,
    };
    expect(() => verifySigned(account, request)).not.toThrow();
    expect(() =>
      verifySigned(account, {
        ...request,
        params: new Map([...params, ['signature', signature.toUpperCase()]]),
      }),
    ).not.toThrow();
  });

  it('signs query and body concatenated without a separator', () => {
    expect(signedPayload('symbol=BTCUSDT&side=BUY', 'quantity=1&timestamp=1&signature=abc')).toBe(
      'symbol=BTCUSDT&side=BUYquantity=1&timestamp=1',
    );
  });

  it.each(['query', 'body', 'mixed'] as const)('accepts parameters in the %s', async (placement) => {
    const response = await client.signed(
      'POST',
      '/fapi/v1/leverage',
      { symbol: 'ETHUSDT', leverage: '7' },
      { placement },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ leverage: 7, maxNotionalValue: expect.any(String), symbol: 'ETHUSDT' });
  });

  it('ignores the Content-Type (JSON header, everything in the query, as the Python connector does)', async () => {
    const response = await client.signed(
      'POST',
      '/fapi/v1/leverage',
      { symbol: 'ETHUSDT', leverage: '8' },
      { placement: 'query', contentType: 'application/json;charset=utf-8' },
    );
    expect(response.status).toBe(200);
  });

  it('reads a form body sent without any Content-Type', async () => {
    const body = `symbol=ETHUSDT&leverage=6&timestamp=${Date.now()}`;
    const signature = crypto.createHmac('sha256', secret).update(body).digest('hex');
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        `${handle.url}/fapi/v1/leverage`,
        { method: 'POST', headers: { 'X-MBX-APIKEY': client.apiKey } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      request.on('error', reject);
      request.end(`${body}&signature=${signature}`);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ leverage: 6 });
  });

  it('merges parameters from the query and the body on GET and DELETE too', async () => {
    const response = await client.signed(
      'DELETE',
      '/fapi/v1/allOpenOrders',
      { symbol: 'BTCUSDT' },
      { placement: 'body' },
    );
    expect(response.body).toEqual({ code: 200, msg: 'The operation of cancel all open order is done.' });
  });

  it('rejects a wrong signature with -1022', async () => {
    expectCode(
      await client.signed('GET', '/fapi/v2/account', {}, { signature: 'ab'.repeat(32) }),
      400,
      -1022,
    );
  });

  it('rejects a missing signature or timestamp with -1102', async () => {
    const noSignature = await fetch(`${handle.url}/fapi/v2/account?timestamp=${Date.now()}`, {
      headers: { 'X-MBX-APIKEY': client.apiKey },
    });
    expectCode(
      { status: noSignature.status, body: await noSignature.json(), headers: noSignature.headers },
      400,
      -1102,
    );
    const noTimestamp = await fetch(`${handle.url}/fapi/v2/account?signature=abc`, {
      headers: { 'X-MBX-APIKEY': client.apiKey },
    });
    expectCode(
      { status: noTimestamp.status, body: await noTimestamp.json(), headers: noTimestamp.headers },
      400,
      -1102,
    );
  });

  it('rejects a timestamp outside recvWindow or 1000 ms ahead with -1021 and HTTP 400', async () => {
    expectCode(
      await client.signed('GET', '/fapi/v2/account', {}, { timestamp: Date.now() - 20_000 }),
      400,
      -1021,
    );
    expectCode(
      await client.signed('GET', '/fapi/v2/account', {}, { timestamp: Date.now() - 6_000, recvWindow: null }),
      400,
      -1021,
    );
    expectCode(
      await client.signed('GET', '/fapi/v2/account', {}, { timestamp: Date.now() + 5_000 }),
      400,
      -1021,
    );
    expect(
      (
        await client.signed(
          'GET',
          '/fapi/v2/account',
          {},
          { timestamp: Date.now() - 6_000, recvWindow: 60_000 },
        )
      ).status,
    ).toBe(200);
  });

  it('rejects a recvWindow above 60000', async () => {
    expectCode(await client.signed('GET', '/fapi/v2/account', {}, { recvWindow: 70_000 }), 400, -1130);
  });

  it('answers a missing or unknown API key with -2015 and HTTP 401, a malformed one with -2014', async () => {
    expectCode(await client.signed('GET', '/fapi/v2/account', {}, { apiKey: null }), 401, -2015);
    expectCode(await client.signed('GET', '/fapi/v2/account', {}, { apiKey: 'a'.repeat(64) }), 401, -2015);
    expectCode(await client.signed('GET', '/fapi/v2/account', {}, { apiKey: 'not a key!' }), 401, -2014);
  });

  it('rejects a parameter sent twice with -1101', async () => {
    const query = `symbol=BTCUSDT&symbol=ETHUSDT&timestamp=${Date.now()}&signature=x`;
    const response = await fetch(`${handle.url}/fapi/v1/openOrders?${query}`, {
      headers: { 'X-MBX-APIKEY': client.apiKey },
    });
    expectCode(
      { status: response.status, body: await response.json(), headers: response.headers },
      400,
      -1101,
    );
  });

  it('takes the query value when a parameter is in both the query and the body [GI]', async () => {
    const query = `symbol=BTCUSDT&leverage=4&timestamp=${Date.now()}&recvWindow=10000`;
    const body = 'leverage=9';
    const signature = crypto
      .createHmac('sha256', secret)
      .update(query + body)
      .digest('hex');
    const response = await fetch(`${handle.url}/fapi/v1/leverage?${query}`, {
      method: 'POST',
      headers: { 'X-MBX-APIKEY': client.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `${body}&signature=${signature}`,
    });
    expect(await response.json()).toMatchObject({ leverage: 4, symbol: 'BTCUSDT' });
  });

  it('sends X-MBX-USED-WEIGHT-1M on every answer, errors included', async () => {
    const ok = await client.public('/fapi/v1/ping');
    expect(Number(ok.headers.get('x-mbx-used-weight-1m'))).toBeGreaterThan(0);
    const failed = await client.public('/fapi/v1/ticker/price', { symbol: 'NOPEUSDT' });
    expectCode(failed, 400, -1121);
    expect(failed.headers.get('x-mbx-used-weight-1m')).not.toBeNull();
  });
});

describe('Ed25519 keys', () => {
  it('accepts requests signed with a registered key and rejects other keys', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
    const registered = await admin<{ api_key: string }>(handle, 'POST', '/accounts/ed25519', {
      public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      balance: '500',
    });
    expect(registered.status).toBe(200);
    const ed = TestClient.ed25519(handle.url, registered.body.api_key, privateKey);
    const account = await ed.signed<{ availableBalance: string }>('GET', '/fapi/v2/account');
    expect(account.status).toBe(200);
    expect(account.body.availableBalance).toBe('500.00000000');
    const order = await ed.signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '5' });
    expect(order.status).toBe(200);
    const other = TestClient.ed25519(
      handle.url,
      registered.body.api_key,
      crypto.generateKeyPairSync('ed25519').privateKey,
    );
    expectCode(await other.signed('GET', '/fapi/v2/account'), 400, -1022);
  });
});

describe('security types', () => {
  it('serves market data without a key and the listenKey with a key only (USER_STREAM)', async () => {
    expect((await client.public('/fapi/v1/time')).status).toBe(200);
    const key = await client.keyed<{ listenKey: string }>('POST', '/fapi/v1/listenKey');
    expect(key.body.listenKey).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expectCode(
      await new TestClient(handle.url, 'b'.repeat(64), () => '').keyed('POST', '/fapi/v1/listenKey'),
      401,
      -2015,
    );
  });
});

describe('rate limits', () => {
  it('answers 429 with -1003 once the request weight of the minute is used up', async () => {
    const local = await startTestExchange();
    try {
      await admin(local, 'POST', '/limits', { requestWeightPerMinute: 5 });
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 8; i++) {
        last = await fetch(`${local.url}/fapi/v1/ping`);
        statuses.push(last.status);
        if (last.status === 429) break;
      }
      expect(statuses).toContain(429);
      expect(await last?.json()).toMatchObject({ code: -1003 });
      // Retry-After: the seconds to the end of the minute.
      const retryAfter = Number(last?.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    } finally {
      await local.close();
    }
  });

  it('bans an address that goes on after its 429s: 418 with Retry-After for every call until the ban ends', async () => {
    const local = await startTestExchange();
    try {
      await admin(local, 'POST', '/limits', {
        requestWeightPerMinute: 2,
        requestsAfter429: 2,
        banSeconds: 2,
      });
      // The count is per minute: start early in one, so the sequence below stays in it.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
      const statuses: number[] = [];
      let banned: Response | undefined;
      for (let i = 0; i < 10 && !banned; i++) {
        const answer = await fetch(`${local.url}/fapi/v1/ping`);
        statuses.push(answer.status);
        if (answer.status === 418) banned = answer;
      }
      // Two within the limit, the 429, two more 429s allowed after it, then the ban.
      expect(statuses).toEqual([200, 200, 429, 429, 429, 418]);
      expect(banned!.headers.get('retry-after')).toBe('2');
      expect(await banned!.json()).toMatchObject({ code: -1003, msg: expect.stringMatching(/banned until/) });
      // Every call is refused while it lasts, the ones of no weight too.
      const during = await fetch(`${local.url}/fapi/v1/time`);
      expect(during.status).toBe(418);
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await admin(local, 'POST', '/limits', { requestWeightPerMinute: 2400 });
      expect((await fetch(`${local.url}/fapi/v1/ping`)).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('CORS and admin', () => {
  const preflight = (url: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-mbx-apikey,content-type',
      },
    });

  it('answers no browser origin by default, as Binance does', async () => {
    const response = await preflight(`${handle.url}/fapi/v1/order`);
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await fetch(`${handle.url}/fapi/v1/ping`, { headers: { Origin: 'https://app.example' } });
    expect(simple.status).toBe(200);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with its cors flag, answers a preflight carrying X-MBX-APIKEY from any origin, but never on /admin', async () => {
    const built = await buildPaperExchange({ seed: 1, cors: true });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const address = built.app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const response = await preflight(`${url}/fapi/v1/order`);
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-mbx-apikey');
      const simple = await fetch(`${url}/fapi/v1/ping`, { headers: { Origin: 'https://app.example' } });
      expect(simple.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const admin = await preflight(`${url}/admin/accounts`);
      expect(admin.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await built.close();
    }
  });

  it('refuses admin requests that do not come from loopback', async () => {
    const built = await buildPaperExchange({ seed: 1 });
    try {
      const remote = await built.app.inject({
        method: 'POST',
        url: '/admin/accounts',
        remoteAddress: '10.1.2.3',
        payload: {},
      });
      expect(remote.statusCode).toBe(403);
      expect(remote.json()).toMatchObject({ code: -1002 });
      const local = await built.app.inject({
        method: 'POST',
        url: '/admin/accounts',
        remoteAddress: '127.0.0.1',
        headers: { 'x-admin-token': built.exchange.adminToken },
        payload: {},
      });
      expect(local.statusCode).toBe(200);
      expect(local.json()).toMatchObject({
        api_key: expect.stringMatching(/^[0-9a-f]{64}$/),
        api_secret: expect.any(String),
      });
    } finally {
      await built.close();
    }
  });

  it('answers bad input with 4xx {code,msg}, never a 5xx', async () => {
    const responses = await Promise.all([
      fetch(`${handle.url}/fapi/v1/klines?symbol=BTCUSDT&interval=7m`),
      fetch(`${handle.url}/fapi/v1/nothing`),
      fetch(`${handle.url}/admin/price`, {
        method: 'POST',
        body: '{not json',
        headers: { 'Content-Type': 'application/json', 'X-Admin-Token': handle.adminToken },
      }),
      fetch(`${handle.url}/fapi/v1/order`, {
        method: 'POST',
        body: '%%%',
        headers: { 'X-MBX-APIKEY': client.apiKey },
      }),
    ]);
    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await response.json()).toMatchObject({ code: expect.any(Number), msg: expect.any(String) });
    }
  });
});
