// Faults on demand (issue item 8) through the admin endpoint, per account and for everyone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PaperExchangeHandle } from '../src/index.js';
import { admin, expectCode, newAccount, startTestExchange, type TestClient } from './helpers.js';

let handle: PaperExchangeHandle;
let alice: TestClient;
let bob: TestClient;

beforeAll(async () => {
  handle = await startTestExchange();
  alice = await newAccount(handle);
  bob = await newAccount(handle);
});
afterEach(async () => {
  await admin(handle, 'DELETE', '/faults');
});
afterAll(async () => {
  await handle.close();
});

describe('faults', () => {
  it('answers the next N requests with a 5xx, then recovers', async () => {
    await admin(handle, 'POST', '/faults', { errorCount: 2, errorStatus: 503 });
    const first = await alice.public('/fapi/v1/time');
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: -1001 });
    expect((await alice.public('/fapi/v1/time')).status).toBe(503);
    expect((await alice.public('/fapi/v1/time')).status).toBe(200);
  });

  it('rejects new orders of one account only', async () => {
    await admin(handle, 'POST', '/faults', {
      account: alice.apiKey,
      rejectCount: 1,
      rejectCode: -2010,
      rejectMsg: 'Order rejected by test.',
    });
    const params = { symbol: 'DOGEUSDT', side: 'BUY', type: 'MARKET', quantity: '100' };
    expectCode(await alice.signed('POST', '/fapi/v1/order', params), 400, -2010);
    expect((await bob.signed('POST', '/fapi/v1/order', params)).status).toBe(200);
    expect((await alice.signed('POST', '/fapi/v1/order', params)).status).toBe(200);
  });

  it('adds latency and still answers', async () => {
    await admin(handle, 'POST', '/faults', { latencyMs: 50, paths: ['/fapi/v1/ping'] });
    expect((await alice.public('/fapi/v1/ping')).status).toBe(200);
    expect(
      (await admin<{ global: Record<string, unknown> }>(handle, 'GET', '/faults')).body.global,
    ).toMatchObject({ latencyMs: 50 });
  });

  it('lets a request time out: no answer, then the connection drops', async () => {
    await admin(handle, 'POST', '/faults', { timeoutCount: 1, timeoutMs: 60_000 });
    await expect(fetch(`${handle.url}/fapi/v1/ping`, { signal: AbortSignal.timeout(500) })).rejects.toThrow();
    expect((await alice.public('/fapi/v1/ping')).status).toBe(200);
  });

  it('skews the clock of one account so that its timestamps fall outside recvWindow (-1021)', async () => {
    await admin(handle, 'POST', '/faults', { account: bob.apiKey, clockSkewMs: 30_000 });
    expectCode(await bob.signed('GET', '/fapi/v2/balance'), 400, -1021);
    expect((await alice.signed('GET', '/fapi/v2/balance')).status).toBe(200);
    await admin(handle, 'POST', '/faults', { clockSkewMs: -30_000 });
    const time = await alice.public<{ serverTime: number }>('/fapi/v1/time');
    expect(time.body.serverTime).toBeLessThan(Date.now() - 20_000);
  });

  it('drops open websockets and refuses new ones on demand', async () => {
    const socket = new WebSocket(`${handle.wsUrl}/ws/btcusdt@markPrice@1s`);
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await admin(handle, 'POST', '/faults', { dropWebsockets: true });
    await closed;
    await admin(handle, 'POST', '/faults', { refuseWebsockets: true });
    const refused = new WebSocket(`${handle.wsUrl}/ws/btcusdt@markPrice@1s`);
    await new Promise((resolve) => refused.once('close', resolve));
    expect(refused.readyState).toBe(WebSocket.CLOSED);
  });

  it('validates the fault body', async () => {
    const response = await admin(handle, 'POST', '/faults', { errorStatus: 418 });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: -1130 });
  });
});
