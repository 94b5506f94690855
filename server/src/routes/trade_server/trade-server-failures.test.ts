// Server-mode opens whose outcome the paper exchange cannot produce on demand, with trade-flow's openPosition
// replaced: an open left without its stop (kept as stop_missing, 201) and a market order the exchange never
// confirmed (kept as open_incomplete for Repair, 502).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeError, ExchangeFailure } from '../../../../shared-core/exchange-client';
import * as tradeFlow from '../../../../shared-core/trade-flow';
import { trades } from '../../db/schema-trades';
import { BINANCE_PLATFORM_UUID } from '../../services/platforms';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  storeTradeTokenUnchecked,
  type TestApp,
} from '../../../test/test-app';

vi.mock('../../../../shared-core/trade-flow', async (importOriginal) => {
  const actual = await importOriginal<typeof tradeFlow>();
  return { ...actual, openPosition: vi.fn() };
});
const openPosition = vi.mocked(tradeFlow.openPosition);

const PIN = '24680';
let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  t = await createTestApp();
  trader = await signUpAndLogIn(t.app, 'failing');
  // The exchange is never called here (the trade flow is stubbed): the token is stored as a taken key would be.
  await storeTradeTokenUnchecked(t, trader.user_uuid, {
    api_key: 'key',
    api_secret: 'secret',
    platform_uuid: BINANCE_PLATFORM_UUID,
    pin_code: PIN,
  });
});
afterAll(async () => t?.close());

/** One trade per symbol (issue 36): each case opens on a symbol of its own. */
async function create(symbol_pair = 'BTCUSDT') {
  const signal = await insertTestSignal(t.db, { symbol_pair });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/trade_server/create_trade/',
    headers: trader.headers,
    payload: { signal_uuid: signal.signal_uuid, ...TEST_TRADE_SETTINGS, pin_code: PIN },
  });
  const rows = await t.db.select().from(trades).where(eq(trades.signal_uuid, signal.signal_uuid));
  return { signal, response, rows };
}

describe('server-mode open outcomes', () => {
  it('keeps a position without its stop as stop_missing and answers 201 with it', async () => {
    openPosition.mockImplementationOnce(async (_client, input) => ({
      trade_open_price: '97000',
      trade_quantity: '0.002',
      trade_order_id: tradeFlow.clientOrderIds(input.signal_uuid).open,
      trade_stop_order_id: null,
      trade_stop_price: '96030',
      stop_error: new ExchangeError('placeStopOrder', ExchangeFailure.TIMEOUT, 'Timeout'),
    }));
    const { response, rows } = await create();
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().result).toMatchObject({
      trade_error: 'stop_missing',
      trade_stop_order_id: null,
      trade_in_server_side: 1,
    });
    expect(rows).toHaveLength(1);
    expect(t.monitor.calculated(rows[0]!.trade_uuid)).toBeDefined();
  });

  it('keeps an unconfirmed market order as open_incomplete and answers 502 pointing to Repair', async () => {
    openPosition.mockImplementationOnce(async (_client, input) => {
      throw new tradeFlow.TradeOpenError(
        tradeFlow.OpenFailure.ORDER_UNCONFIRMED,
        new ExchangeError('placeMarketOrder', ExchangeFailure.TIMEOUT, 'Timeout'),
        { trade_quantity: '0.002', trade_order_id: tradeFlow.clientOrderIds(input.signal_uuid).open },
      );
    });
    const { signal, response, rows } = await create('ETHUSDT');
    expect(response.statusCode).toBe(502);
    expect(response.json().detail).toBe(
      'The exchange did not confirm the market order (placeMarketOrder: Timeout); the position may be open. ' +
        'Repair error trades will reconcile it with the exchange',
    );
    expect(rows).toEqual([
      expect.objectContaining({
        trade_error: 'open_incomplete',
        trade_phase: 'ready',
        trade_quantity: '0.002',
        trade_open_price: null,
        trade_order_id: tradeFlow.clientOrderIds(signal.signal_uuid).open,
      }),
    ]);
    // Unknown entry price: not listed, not watched; it waits for Repair.
    const open = await t.app.inject({
      method: 'GET',
      url: '/api/trade/get_trades/open/',
      headers: trader.headers,
    });
    const listed = open.json().result.trade_list.map((trade: { trade_uuid: string }) => trade.trade_uuid);
    expect(listed).not.toContain(rows[0]!.trade_uuid);
  });

  it('deletes the row when the exchange refused before the market order, and on an unexpected failure', async () => {
    // The transport's own text can quote the request (its API key header): the answer never carries it.
    openPosition.mockRejectedValueOnce(
      new ExchangeError('setLeverage', ExchangeFailure.FETCH, 'invalid header value "AKEY-1234"'),
    );
    const refused = await create('SOLUSDT');
    expect(refused.response.statusCode).toBe(502);
    expect(refused.response.json()).toEqual({ detail: 'setLeverage: The exchange could not be reached' });
    expect(refused.rows).toEqual([]);

    // The exchange failing (HTTP 5xx, though its body carries a code) is a bad gateway; a refusal is a 400.
    openPosition.mockRejectedValueOnce(
      new ExchangeError('setLeverage', ExchangeFailure.EXCHANGE, 'Service Unavailable.', -1001, 503),
    );
    const failing = await create('SOLUSDT');
    expect(failing.response.statusCode).toBe(502);
    expect(failing.rows).toEqual([]);
    openPosition.mockRejectedValueOnce(
      new ExchangeError('setLeverage', ExchangeFailure.EXCHANGE, 'Leverage 200 is not valid', -4028, 400),
    );
    const invalid = await create('SOLUSDT');
    expect(invalid.response.statusCode).toBe(400);
    expect(invalid.rows).toEqual([]);

    openPosition.mockRejectedValueOnce(new Error('boom'));
    const broken = await create('SOLUSDT');
    expect(broken.response.statusCode).toBe(500);
    expect(broken.rows).toEqual([]);
  });
});
