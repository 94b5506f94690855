// shared-core/exchange-client.ts against the real paper exchange (and two bare sockets for the transport
// failures): signed calls with X-MBX-APIKEY and recvWindow 10000, SPEC.md §8's catalogue, errors named by
// the operation. It lives here because the node test project runs it; the module is shared with the SPA.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import {
  EXCHANGE_ERROR_CATALOGUE,
  EXCHANGE_RECV_WINDOW_MS,
  ExchangeClient,
  ExchangeError,
  ExchangeErrorType,
  ExchangeFailure,
  describeExchangeCode,
} from '../../../shared-core/exchange-client';
import { initTradeCore } from '../../../shared-core/trade-core-node';

let exchange: PaperExchangeHandle;
let credentials: { api_key: string; api_secret: string };

beforeAll(async () => {
  await initTradeCore();
  exchange = await startPaperExchange({ port: 0, seed: 17 });
  const { apiKey, apiSecret } = exchange.admin.createAccount('777.25');
  credentials = { api_key: apiKey, api_secret: apiSecret };
});
afterAll(async () => exchange?.close());

async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExchangeError);
  return error as ExchangeError;
}

/** A local HTTP server for one test; `answer` decides what each request gets. */
async function localServer(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const server = http.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('ExchangeClient.getAccount', () => {
  it('answers the account totals as numbers', async () => {
    const client = new ExchangeClient({ baseUrl: exchange.url, credentials });
    expect(await client.getAccount()).toEqual({
      available_balance: 777.25,
      total_margin_balance: 777.25,
      total_unrealized_profit: 0,
      total_wallet_balance: 777.25,
    });
  });

  it('sends the API key header and a signed query with recvWindow 10000', async () => {
    let seen: { url?: string; key?: string } = {};
    const server = await localServer((request, response) => {
      seen = { url: request.url, key: request.headers['x-mbx-apikey'] as string };
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          availableBalance: '1',
          totalMarginBalance: '2',
          totalUnrealizedProfit: '-0.5',
          totalWalletBalance: '2.5',
        }),
      );
    });
    try {
      const client = new ExchangeClient({ baseUrl: server.url, credentials, now: () => 1_700_000_000_000 });
      expect(await client.getAccount()).toEqual({
        available_balance: 1,
        total_margin_balance: 2,
        total_unrealized_profit: -0.5,
        total_wallet_balance: 2.5,
      });
      expect(seen.key).toBe(credentials.api_key);
      expect(seen.url).toMatch(
        new RegExp(
          `^/fapi/v2/account\\?recvWindow=${EXCHANGE_RECV_WINDOW_MS}&timestamp=1700000000000&signature=[0-9a-f]{64}$`,
        ),
      );
    } finally {
      await server.close();
    }
  });

  it('wraps a refused key as the catalogued -2015 error named by the operation', async () => {
    const client = new ExchangeClient({
      baseUrl: exchange.url,
      credentials: { ...credentials, api_key: 'nope' },
    });
    const error = await failure(client.getAccount());
    expect(error.failure).toBe(ExchangeFailure.EXCHANGE);
    expect(error.code).toBe(-2015);
    expect(error.shown).toBe(true);
    expect(error.message).toBe(`getAccount: ${EXCHANGE_ERROR_CATALOGUE[-2015]!.text}`);
  });

  it('reports an uncatalogued code as Unknown error with the exchange message and the code', async () => {
    const client = new ExchangeClient({
      baseUrl: exchange.url,
      credentials: { ...credentials, api_secret: 'wrong' },
    });
    const error = await failure(client.getAccount());
    expect(error.code).toBe(-1022);
    expect(error.message).toMatch(/^getAccount: Unknown error: .+ \(code -1022\)$/);
  });

  it("names the symbol's own minimum notional of a -4164 (ETHUSDT's 20, not SPEC.md's 5)", async () => {
    const client = new ExchangeClient({ baseUrl: exchange.url, credentials });
    // 0.001 ETH, a few USDT: a notional under ETHUSDT's MIN_NOTIONAL of 20.
    const error = await failure(
      client.placeMarketOrder({
        symbol: 'ETHUSDT',
        side: 'BUY',
        quantity: '0.001',
        newClientOrderId: 'sdtest4164',
      }),
    );
    expect(error.code).toBe(-4164);
    expect(error.shown).toBe(true);
    expect(error.text).toBe('Order notional must be no smaller than 20');
    // A message without a number keeps SPEC.md §8's text.
    expect(describeExchangeCode(-4164, 'refused').text).toBe('Order notional must be no smaller than 5');
  });

  it('reports a refused connection as a fetch failure', async () => {
    const client = new ExchangeClient({ baseUrl: 'http://127.0.0.1:9', credentials });
    const error = await failure(client.getAccount());
    expect(error.failure).toBe(ExchangeFailure.FETCH);
    expect(error.message).toMatch(/^getAccount: /);
  });

  it("reports an exchange that never answers as 'Timeout'", async () => {
    const server = await localServer(() => undefined);
    try {
      const client = new ExchangeClient({ baseUrl: server.url, credentials, timeoutMs: 100 });
      const error = await failure(client.getAccount());
      expect(error.failure).toBe(ExchangeFailure.TIMEOUT);
      expect(error.message).toBe('getAccount: Timeout');
    } finally {
      await server.close();
    }
  });

  it('reports an answer that is not an account as a parsing failure', async () => {
    const server = await localServer((_request, response) => response.end('<html>'));
    try {
      const error = await failure(new ExchangeClient({ baseUrl: server.url, credentials }).getAccount());
      expect(error.failure).toBe(ExchangeFailure.PARSING);
    } finally {
      await server.close();
    }
  });
});

describe('the SPEC.md §8 catalogue', () => {
  it('marks -4046 and -4059 as information that is not shown', () => {
    for (const code of [-4046, -4059]) {
      expect(describeExchangeCode(code, '')).toMatchObject({
        type: ExchangeErrorType.INFORMATION,
        shown: false,
      });
    }
    expect(describeExchangeCode(-2019, '')).toMatchObject({ text: 'Margin is insufficient', shown: true });
    expect(describeExchangeCode(200, '')).toMatchObject({ text: 'Success', returned: false, shown: false });
    expect(describeExchangeCode(-9999, 'Boom')).toMatchObject({ text: 'Unknown error: Boom (code -9999)' });
  });
});
