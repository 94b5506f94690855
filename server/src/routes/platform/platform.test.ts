// GET /api/platform/get_available_platforms_dict/: the seeded platforms, the paper one on the running
// paper exchange (DESIGN.md "How things run").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { TradeTokenLevel } from '../../../../contracts';
import {
  BINANCE_DEMO_PLATFORM_UUID,
  BINANCE_PLATFORM_UUID,
  DEFAULT_LEVERAGE_MAX,
  PAPER_PLATFORM_UUID,
} from '../../services/platforms';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let exchange: PaperExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 5 });
  t = await createTestApp({ exchange });
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

const URL = '/api/platform/get_available_platforms_dict/';

describe('GET /api/platform/get_available_platforms_dict/', () => {
  it('answers the paper platform on the running exchange and the two Binance platforms', async () => {
    const { headers } = await signUpAndLogIn(t.app);
    const response = await t.app.inject({ method: 'GET', url: URL, headers });
    expect(response.statusCode).toBe(200);
    const { platform_dict } = response.json().result;
    expect(Object.keys(platform_dict)).toEqual([
      PAPER_PLATFORM_UUID,
      BINANCE_PLATFORM_UUID,
      BINANCE_DEMO_PLATFORM_UUID,
    ]);
    expect(platform_dict[PAPER_PLATFORM_UUID]).toEqual({
      platform_uuid: PAPER_PLATFORM_UUID,
      platform_name: 'Paper Futures',
      platform_background: expect.stringMatching(/^#[0-9a-f]{6}$/),
      level: TradeTokenLevel.TRADE_AVAILABLE,
      trade_leverage_max: DEFAULT_LEVERAGE_MAX,
      platform_url: exchange.url,
      // The embedded paper exchange answers no browser origin by default, like Binance: relayed.
      platform_allows_browser: false,
    });
    expect(platform_dict[BINANCE_PLATFORM_UUID].platform_url).toBe('https://fapi.binance.com');
    expect(platform_dict[BINANCE_DEMO_PLATFORM_UUID].platform_url).toBe('https://demo-fapi.binance.com');
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });

  it('hides the paper platform when no paper exchange runs', async () => {
    const alone = await createTestApp();
    try {
      const { headers } = await signUpAndLogIn(alone.app);
      const response = await alone.app.inject({ method: 'GET', url: URL, headers });
      expect(Object.keys(response.json().result.platform_dict)).toEqual([
        BINANCE_PLATFORM_UUID,
        BINANCE_DEMO_PLATFORM_UUID,
      ]);
    } finally {
      await alone.close();
    }
  });
});
