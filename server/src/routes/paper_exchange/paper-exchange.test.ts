// POST /api/paper_exchange/create_account/: a funded account on the embedded paper exchange.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { getAccount } from '../../../../shared-core/exchange-client';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let exchange: PaperExchangeHandle;
let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 3 });
  t = await createTestApp({ exchange });
  headers = (await signUpAndLogIn(t.app)).headers;
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

const create = (payload?: object, authorization = headers.authorization) =>
  t.app.inject({
    method: 'POST',
    url: '/api/paper_exchange/create_account/',
    headers: { authorization },
    ...(payload ? { payload } : {}),
  });

describe('POST /api/paper_exchange/create_account/', () => {
  it('answers credentials of a new account that the exchange accepts', async () => {
    const response = await create();
    expect(response.statusCode).toBe(200);
    const { api_key, api_secret } = response.json().result;
    const account = await getAccount({ baseUrl: exchange.url, credentials: { api_key, api_secret } });
    expect(account.total_wallet_balance).toBeGreaterThan(0);
  });

  it('funds the account with the balance asked for', async () => {
    const response = await create({ balance: 1234.5 });
    const account = await getAccount({ baseUrl: exchange.url, credentials: response.json().result });
    expect(account.total_wallet_balance).toBe(1234.5);
  });

  it('answers 400 for a bad balance and 401 without a token', async () => {
    const bad = await create({ balance: -5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^balance: /);
    expect((await create({}, '')).statusCode).toBe(401);
  });
});

describe('without an embedded paper exchange', () => {
  it('answers 503', async () => {
    const alone = await createTestApp();
    try {
      const user = await signUpAndLogIn(alone.app);
      const response = await alone.app.inject({
        method: 'POST',
        url: '/api/paper_exchange/create_account/',
        headers: user.headers,
        payload: {},
      });
      expect(response.statusCode).toBe(503);
    } finally {
      await alone.close();
    }
  });
});
