// POST /api/paper_exchange/create_account/: a funded account on the embedded paper exchange.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { getAccount } from '../../../../shared-core/exchange-client';
import { PAPER_ACCOUNTS_PER_DAY } from '../../config';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';
import { PAPER_ACCOUNT_QUOTA } from './index';

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

describe('a few paper accounts per trader a day (issue 38 item 6)', () => {
  it('refuses the one past the quota with 429, a detail and Retry-After, even when asked all at once; another trader is not affected; a day later it is open again', async () => {
    const trader = await signUpAndLogIn(t.app, 'hoarder');
    // 60 at once, as the reproduction did: exactly the quota gets through.
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => create(undefined, trader.headers.authorization)),
    );
    const made = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(made).toHaveLength(PAPER_ACCOUNTS_PER_DAY);
    expect(refused).toHaveLength(60 - PAPER_ACCOUNTS_PER_DAY);
    expect(refused[0]!.json().detail).toBe(PAPER_ACCOUNT_QUOTA);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    const other = await signUpAndLogIn(t.app, 'neighbour');
    expect((await create(undefined, other.headers.authorization)).statusCode).toBe(200);
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const fresh = `bearer ${await t.app.issueAccessToken(trader.user_uuid)}`;
    expect((await create(undefined, fresh)).statusCode).toBe(200);
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
