// GET /api/symbol/get_available_symbols_dict/: symbols filled from the paper exchange's exchangeInfo, with
// precisions from LOT_SIZE stepSize and PRICE_FILTER tickSize, and uuids that stay put.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYMBOLS, startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import type { SymbolInfo } from '../../../../contracts';
import { decimalsOfStep, orderFilters, syncSymbols } from '../../services/symbols';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let exchange: PaperExchangeHandle;
let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 9 });
  t = await createTestApp({ exchange });
  headers = (await signUpAndLogIn(t.app)).headers;
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

const URL = '/api/symbol/get_available_symbols_dict/';

async function symbolDict(): Promise<Record<string, SymbolInfo>> {
  const response = await t.app.inject({ method: 'GET', url: URL, headers });
  expect(response.statusCode).toBe(200);
  return response.json().result.symbol_dict;
}

describe('GET /api/symbol/get_available_symbols_dict/', () => {
  it('lists every symbol of the exchange keyed by its uuid', async () => {
    const dict = await symbolDict();
    const byPair = Object.fromEntries(Object.values(dict).map((s) => [s.symbol_pair, s]));
    expect(Object.keys(byPair).sort()).toEqual(SYMBOLS.map((s) => s.symbol).sort());
    for (const [uuid, item] of Object.entries(dict)) expect(item.symbol_uuid).toBe(uuid);
    // BTCUSDT: LOT_SIZE stepSize 0.001, PRICE_FILTER tickSize 0.10 (not pricePrecision, binance-fapi.md §4).
    expect(byPair.BTCUSDT).toEqual({
      symbol_uuid: expect.any(String),
      symbol_name: 'BTC',
      symbol_pair: 'BTCUSDT',
      symbol_quantity_precision: 3,
      symbol_price_precision: 1,
      // Issue 53: the order filters a market order must pass, as exchangeInfo lists them (MARKET_LOT_SIZE's
      // maxQty 120 is lower than LOT_SIZE's 1000).
      symbol_min_quantity: '0.001',
      symbol_max_quantity: '120',
      symbol_min_notional: '100',
    });
    expect(byPair.DOGEUSDT).toMatchObject({
      symbol_name: 'DOGE',
      symbol_quantity_precision: 0,
      symbol_price_precision: 5,
    });
  });

  it('keeps each symbol’s uuid when the exchange is read again', async () => {
    const before = await symbolDict();
    await syncSymbols(t.db, exchange.url);
    expect(await symbolDict()).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});

describe('decimalsOfStep', () => {
  it.each([
    ['0.001', 3],
    ['0.0010', 3],
    ['0.10', 1],
    ['1', 0],
    ['10', 0],
    ['0.00000100', 6],
    ['1e-8', 8],
  ])('%s has %i decimals', (step, decimals) => {
    expect(decimalsOfStep(step)).toBe(decimals);
  });
});

describe('orderFilters (issue 53)', () => {
  it('keeps the lower maxQty and drops a value our decimals could not hold or that is not above 0', () => {
    expect(
      orderFilters([
        { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '50', stepSize: '0.001' },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.001', maxQty: '120', stepSize: '0.001' },
        { filterType: 'MIN_NOTIONAL', notional: '5.0' },
      ]),
    ).toEqual({ symbol_min_quantity: '0.001', symbol_max_quantity: '50', symbol_min_notional: '5.0' });
    expect(
      orderFilters([
        { filterType: 'LOT_SIZE', minQty: '0', maxQty: '123456789012345678901', stepSize: '1' },
        { filterType: 'MIN_NOTIONAL', notional: '1e3' },
      ]),
    ).toEqual({ symbol_min_quantity: null, symbol_max_quantity: null, symbol_min_notional: null });
  });
});
