// Issue 36, server mode: one trade per symbol and exchange account. A BUY and a SELL signal on one symbol whose
// opens arrive together open one trade; the other is refused (409, the sentence) before the PIN is tried, and
// the exchange's position is that one trade's. A client-mode record on the symbol keeps it taken too; the
// exchange's close of a trade whose exits it held frees the symbol for the next open (the open checks it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { tradeAnswer } from '../../../../contracts';
import { addDecimals } from '../../../../shared-core/trade-core-node';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import { symbolHasTrade } from '../../services/trades';
import {
  TEST_TRADE_SETTINGS,
  createClientTrade,
  createTestApp,
  insertTestSignal,
  serverModeTrader,
  type TestApp,
} from '../../../test/test-app';

const PIN = '11223';
let exchange: PaperExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 36 });
  t = await createTestApp({ exchange });
});
afterAll(async () => {
  for (const pair of ['SOLUSDT', 'XRPUSDT', 'BNBUSDT']) exchange?.admin.setPrice(pair, null);
  await t?.close();
  await exchange?.close();
});

async function newTrader() {
  const { login, call: request, client } = await serverModeTrader(t, exchange.url, PIN, 'one-per-symbol');
  const call = (url: string, payload: object) => request('POST', url, payload);
  const open = async (symbol_pair: string, direction: 'BUY' | 'SELL', pin_code = PIN) => {
    const signal = await insertTestSignal(t.db, {
      platform_uuid: PAPER_PLATFORM_UUID,
      symbol_pair,
      direction,
    });
    return call('/api/trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...TEST_TRADE_SETTINGS,
      pin_code,
    });
  };
  return { login, client, open };
}

describe('one trade per symbol and exchange account, server mode (issue 36)', () => {
  it('a BUY and a SELL on one symbol at once open one trade; the other is refused and the position is that trade', async () => {
    exchange.admin.setPrice('SOLUSDT', '200');
    const trader = await newTrader();
    const answers = await Promise.all([trader.open('SOLUSDT', 'BUY'), trader.open('SOLUSDT', 'SELL')]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect(refused.json().detail).toBe(symbolHasTrade('SOLUSDT'));
    const opened = tradeAnswer.parse(answers.find((answer) => answer.statusCode === 201)!.json()).result;
    const risk = await trader.client.getPositionRisk('SOLUSDT');
    const signed = opened.trade_direction === 'SELL' ? `-${opened.trade_quantity}` : opened.trade_quantity;
    expect(Number(risk.positionAmt)).toBe(Number(signed));
    // The open trade's exits are held by the exchange, which may have closed it: the PIN is tried, the
    // exchange asked, and the symbol found taken still.
    expect((await trader.open('SOLUSDT', 'BUY', '00000')).statusCode).toBe(403);
    expect((await trader.open('SOLUSDT', 'BUY')).json().detail).toBe(symbolHasTrade('SOLUSDT'));
    expect(Number((await trader.client.getPositionRisk('SOLUSDT')).positionAmt)).toBe(Number(signed));
  });

  it('opens of one symbol sent at once to two instances on one database open one trade (issue 52)', async () => {
    exchange.admin.setPrice('BNBUSDT', '600');
    // A second instance of the same deployment: its own process-local queues, the same database.
    const second = await createTestApp({ exchange, instanceOf: { db: t.db, app: t.app } });
    try {
      const trader = await newTrader();
      const signals = await Promise.all(
        (['BUY', 'SELL', 'BUY', 'SELL', 'BUY', 'SELL', 'BUY', 'SELL'] as const).map((direction) =>
          insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: 'BNBUSDT', direction }),
        ),
      );
      const answers = await Promise.all(
        signals.map((signal, i) =>
          (i % 2 === 0 ? t.app : second.app).inject({
            method: 'POST',
            url: '/api/trade_server/create_trade/',
            headers: trader.login.headers,
            payload: { signal_uuid: signal.signal_uuid, ...TEST_TRADE_SETTINGS, pin_code: PIN },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join('\n')).toEqual([
        201, 409, 409, 409, 409, 409, 409, 409,
      ]);
      const opened = tradeAnswer.parse(answers.find((answer) => answer.statusCode === 201)!.json()).result;
      const risk = await trader.client.getPositionRisk('BNBUSDT');
      const signed = opened.trade_direction === 'SELL' ? `-${opened.trade_quantity}` : opened.trade_quantity;
      expect(Number(risk.positionAmt)).toBe(Number(signed));
    } finally {
      await second.close();
    }
  });

  it('a client-mode record on the symbol takes it too', async () => {
    exchange.admin.setPrice('XRPUSDT', '2.5');
    const trader = await newTrader();
    await createClientTrade(t, trader.login.headers, {
      symbol_pair: 'XRPUSDT',
      platform_uuid: PAPER_PLATFORM_UUID,
    });
    // Refused before the PIN is tried: a wrong PIN gets the same answer, and the exchange is not asked.
    for (const pin of ['00000', PIN]) {
      const refused = await trader.open('XRPUSDT', 'BUY', pin);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe(symbolHasTrade('XRPUSDT'));
    }
    expect(Number((await trader.client.getPositionRisk('XRPUSDT')).positionAmt)).toBe(0);
  });

  it('a trade the exchange closed at its take profit does not block the next open on the symbol', async () => {
    exchange.admin.setPrice('XRPUSDT', '2.5');
    const trader = await newTrader();
    const first = tradeAnswer.parse((await trader.open('XRPUSDT', 'BUY')).json()).result;
    const takeProfit = first.trade_exits?.take_profit;
    expect(takeProfit?.held_by).toBe('exchange');
    exchange.admin.setPrice(
      'XRPUSDT',
      addDecimals(takeProfit?.held_by === 'exchange' ? takeProfit.price : '0', '0.01'),
    );
    await expect
      .poll(async () => Number((await trader.client.getPositionRisk('XRPUSDT')).positionAmt))
      .toBe(0);
    exchange.admin.setPrice('XRPUSDT', '2.5');
    const second = await trader.open('XRPUSDT', 'SELL');
    expect(second.statusCode, second.body).toBe(201);
  });
});
