// POST /api/account_balance/get_account_balance/: the server opens the trade token with the PIN and reads
// the real paper exchange account (SPEC.md §4 "Balance retrieval", method 1).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { TradeTokenLevel, TradeTokenMessage } from '../../../../contracts';
import { platforms } from '../../db/schema';
import {
  BINANCE_DEMO_PLATFORM_UUID,
  BINANCE_PLATFORM_UUID,
  PAPER_PLATFORM_UUID,
} from '../../services/platforms';
import {
  createTestApp,
  signUpAndLogIn,
  storeTradeTokenUnchecked,
  type TestApp,
} from '../../../test/test-app';

let exchange: PaperExchangeHandle;
let t: TestApp;
let userUuid: string;
let headers: { authorization: string };
const PIN = '24680';

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 11 });
  t = await createTestApp({ exchange });
  const trader = await signUpAndLogIn(t.app);
  headers = trader.headers;
  userUuid = trader.user_uuid;
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

function post(url: string, payload: object) {
  return t.app.inject({ method: 'POST', url, headers, payload });
}

async function storeToken(platform_uuid: string, credentials: { api_key: string; api_secret: string }) {
  const response = await post('/api/trade_token/create_trade_token/', {
    ...credentials,
    platform_uuid,
    pin_code: PIN,
  });
  expect(response.statusCode).toBe(200);
}

const balance = (platform_uuid: string, pin_code = PIN) =>
  post('/api/account_balance/get_account_balance/', { platform_uuid, pin_code });

describe('account balance (server mode)', () => {
  it('reads the exchange account with the decrypted key, as numbers, and records the use', async () => {
    const account = await post('/api/paper_exchange/create_account/', { balance: 2500.5 });
    await storeToken(PAPER_PLATFORM_UUID, account.json().result);
    const response = await balance(PAPER_PLATFORM_UUID);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      result: {
        available_balance: 2500.5,
        total_margin_balance: 2500.5,
        total_unrealized_profit: 0,
        total_wallet_balance: 2500.5,
      },
    });
    const token = await post('/api/trade_token/get_trade_token/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    expect(token.json().result.updated_at).toEqual(expect.any(String));
  });

  it('answers 403 with SPEC.md §4’s message for a wrong PIN', async () => {
    const response = await balance(PAPER_PLATFORM_UUID, '13579');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: TradeTokenMessage.WRONG_PIN_CODE });
  });

  it('answers 404 without a token and 400 for a bad body', async () => {
    expect((await balance(BINANCE_DEMO_PLATFORM_UUID)).statusCode).toBe(404);
    const bad = await balance(PAPER_PLATFORM_UUID, '12');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^pin_code: /);
  });

  it('answers 400 with the catalogued exchange error, named by operation, for a key the exchange refuses', async () => {
    const account = await post('/api/paper_exchange/create_account/', {});
    // Well-formed (64 characters) but unknown to the exchange: a key taken when it was saved, revoked on the
    // exchange since (create_trade_token itself refuses a key the exchange does not take, issue 36).
    await storeTradeTokenUnchecked(t, userUuid, {
      ...account.json().result,
      api_key: 'A'.repeat(64),
      platform_uuid: BINANCE_PLATFORM_UUID,
      pin_code: PIN,
    });
    // Point the Binance platform at the paper exchange: no internet is needed for the exchange's answer.
    await t.db
      .update(platforms)
      .set({ base_url: exchange.url })
      .where(eq(platforms.platform_uuid, BINANCE_PLATFORM_UUID));
    const response = await balance(BINANCE_PLATFORM_UUID);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail:
        'getAccount: Invalid API-key, IP, or Permissions. Check your exchange API key: Add IP to White List and Allow Futures',
    });
  });

  it('create_trade_token refuses a key the exchange refuses, with its reason, and saves nothing (issue 36)', async () => {
    const account = (await post('/api/paper_exchange/create_account/', {})).json().result;
    const refused = await post('/api/trade_token/create_trade_token/', {
      ...account,
      api_secret: 'f'.repeat(64),
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: '97531',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/^getAccount: .*Signature for this request is not valid/);
    // The earlier token of the platform stays the one saved: the refused key replaced nothing.
    const earlier = await post('/api/trade_token/get_trade_token/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    expect(earlier.json().result.level).toBe(TradeTokenLevel.TRADE_AVAILABLE);
  });

  it('answers 502 when the exchange cannot be reached', async () => {
    await t.db
      .update(platforms)
      .set({ base_url: 'http://127.0.0.1:9' })
      .where(eq(platforms.platform_uuid, BINANCE_PLATFORM_UUID));
    const response = await balance(BINANCE_PLATFORM_UUID);
    expect(response.statusCode).toBe(502);
    expect(response.json().detail).toMatch(/^getAccount: /);
  });
});
