// GET /api/trade/export_trades_history/ (issue 18 item 4) on a real PGlite database: a range of two UTC days,
// CSV and JSON, every value the exact string the history API answers, the formula guard, and the contract's 4xx.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HISTORY_EXPORT_COLUMNS,
  historyExport,
  type HistoryExportRow,
  type Trade,
} from '../../../../contracts';
import { sumDecimals } from '../../../../shared-core/trade-core';
import { createClientTrade, createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';
import { exportRowOf, guardFormula, historyCsv } from './history-export';

const DAY_ONE = Date.UTC(2026, 2, 14, 10, 0);
const DAY_TWO = Date.UTC(2026, 2, 15, 9, 30);
const RANGE = { start_date: '2026-03-14T00:00:00.000Z', end_date: '2026-03-15T23:59:59.999Z' };
let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
let made: Trade[];

beforeAll(async () => {
  t = await createTestApp();
  t.clock.nowMs = DAY_ONE;
  trader = await signUpAndLogIn(t.app, 'exporter');
  const refresh = async () => {
    trader.headers.authorization = `bearer ${await t.app.issueAccessToken(trader.user_uuid)}`;
  };
  const close = async (trade: Trade, price: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/trade_client/close_trade/',
      headers: trader.headers,
      payload: { trade_uuid: trade.trade_uuid, trade_status: 'manual_close', trade_close_price: price },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  // Day one: a BUY closed at a loss, prices with many decimals, and an order id a spreadsheet would run.
  const first = await createClientTrade(t, trader.headers, {
    trade_quantity: '0.00213',
    trade_open_price: '97000.17',
    trade_order_id: '=HYPERLINK("http://x")',
  });
  t.clock.advance(47 * 60_000);
  await refresh();
  await close(first, '95766.31');
  // Day two: a SELL closed in profit, and one left open.
  t.clock.nowMs = DAY_TWO;
  await refresh();
  const second = await createClientTrade(t, trader.headers, { direction: 'SELL', trade_stop_price: '97970' });
  t.clock.advance(3 * 60_000);
  await refresh();
  await close(second, '96512.9');
  const third = await createClientTrade(t, trader.headers);
  made = [first, second, third];
});
afterAll(async () => {
  await t?.close();
});

const exportOf = (query: Record<string, string>, headers: object = trader.headers) =>
  t.app.inject({
    method: 'GET',
    url: `/api/trade/export_trades_history/?${new URLSearchParams(query)}`,
    headers: headers as Record<string, string>,
  });

/** The history API's trades of the range (what the table shows), as export rows. */
async function historyRows(): Promise<HistoryExportRow[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/trade/get_trades_history/?${new URLSearchParams({ ...RANGE, limit: '100' })}`,
    headers: trader.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().result.trade_list as Trade[]).map(exportRowOf);
}

describe('GET /api/trade/export_trades_history/', () => {
  it('CSV of two days: a header of wire names, one record per trade, the exact values of the history API', async () => {
    const response = await exportOf({ ...RANGE, format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="signaldesk-trades-2026-03-14-2026-03-15.csv"',
    );
    const records = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual(HISTORY_EXPORT_COLUMNS);
    const expected = (await historyRows()).map((row) =>
      Object.fromEntries(HISTORY_EXPORT_COLUMNS.map((column) => [column, row[column] ?? ''])),
    );
    // The guard's apostrophe is the only change: the formula is kept as text.
    const guarded = expected.map((row) =>
      row.trade_order_id!.startsWith('=') ? { ...row, trade_order_id: `'${row.trade_order_id}` } : row,
    );
    expect(records).toEqual(guarded);
    expect(records.map((row) => row.trade_uuid).sort()).toEqual(made.map((trade) => trade.trade_uuid).sort());
    const byUuid = new Map(records.map((row) => [row.trade_uuid, row]));
    const first = byUuid.get(made[0]!.trade_uuid)!;
    expect(first).toMatchObject({
      trade_open_price: '97000.17',
      trade_close_price: '95766.31',
      trade_quantity: '0.00213',
      trade_order_id: `'=HYPERLINK("http://x")`,
      trade_duration_minutes: '47',
      trade_status: 'manual_close',
      trade_mode: 'client',
    });
    // (95766.31 − 97000.17) × 0.00213, exact.
    expect(first.trade_pnl_current).toBe('-2.6281218');
    expect(byUuid.get(made[2]!.trade_uuid)).toMatchObject({
      trade_close_price: '',
      trade_close_timestamp: '',
    });
    expect(response.body.split('\r\n')[0]).toBe(HISTORY_EXPORT_COLUMNS.join(','));
  });

  it('JSON of the same range: the same rows and their exact sum', async () => {
    const response = await exportOf({ ...RANGE, format: 'json' });
    expect(response.statusCode, response.body).toBe(200);
    const file = historyExport.parse(JSON.parse(response.body));
    expect(file.trade_list).toEqual(await historyRows());
    expect(file.realized_pnl).toBe(sumDecimals(file.trade_list.map((row) => row.trade_pnl_current)));
    expect(file.realized_pnl_net).toBe(
      sumDecimals(file.trade_list.map((row) => row.trade_pnl_net ?? row.trade_pnl_current)),
    );
  });

  it('one day of the two holds only its trades', async () => {
    const response = await exportOf({
      start_date: '2026-03-15T00:00:00.000Z',
      end_date: '2026-03-15T23:59:59.999Z',
    });
    const records = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(records.map((row) => row.trade_uuid).sort()).toEqual(
      [made[1]!.trade_uuid, made[2]!.trade_uuid].sort(),
    );
  });

  it('answers 400 with a detail for a reversed or too long range, 401 without a token', async () => {
    const reversed = await exportOf({ start_date: RANGE.end_date, end_date: RANGE.start_date });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().detail).toMatch(/start_date must not be after end_date/);
    const long = await exportOf({ start_date: '2025-01-01T00:00:00Z', end_date: '2026-03-15T00:00:00Z' });
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toMatch(/shorter than 366 days/);
    expect((await exportOf(RANGE, {})).statusCode).toBe(401);
  });
});

describe('the CSV stays one row per trade, and no text runs as a formula (issue 38 item 5)', () => {
  const NASTY = [
    'x\n=1+1',
    'x\r\n=1+1,2',
    'a "quoted" id,with,commas',
    ' =1+1',
    '\u00a0=1+1',
    '\u3000+1',
    '＝1+1',
    '\u200b@SUM(A1)',
    '\n-2+3',
  ];

  it('a line break, a quote or a separator in a field is quoted: parsed back, no new row and the same text', () => {
    const base = exportRowOf(made[0]!);
    const rows = NASTY.map((text) => ({ ...base, trade_order_id: text, symbol_name: text }));
    const parsed = parse(historyCsv(rows), { relax_column_count: false }) as string[][];
    expect(parsed).toHaveLength(1 + NASTY.length);
    const column = HISTORY_EXPORT_COLUMNS.indexOf('trade_order_id');
    expect(parsed.slice(1).map((record) => record[column])).toEqual(NASTY.map(guardFormula));
    for (const record of parsed.slice(1)) expect(record).toHaveLength(HISTORY_EXPORT_COLUMNS.length);
  });

  it('guards formula starts after leading spaces, no-break and zero-width spaces, and in full-width forms', () => {
    for (const text of NASTY.filter((item) => !item.startsWith('x') && !item.startsWith('a'))) {
      expect(guardFormula(text), JSON.stringify(text)).toBe(`'${text}`);
    }
    for (const text of ['x\n=1+1', 'ETHUSDT', 'sdo1234', 'a=b']) expect(guardFormula(text)).toBe(text);
  });
});

describe('a separator inside a field never starts a formula (issue 52)', () => {
  const SPLIT = ['x;=1+1', 'x;y;=SUM(A1);z', 'x, =1+1', 'x;\u00a0＋1', 'x\t@A1', 'ETH;USDT'];
  const formulaCell = (cell: string) =>
    /^[\s\u200b\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell);

  it('every text field is quoted, and a spreadsheet splitting on ; (or on ,) finds no cell that starts a formula', () => {
    const base = exportRowOf(made[0]!);
    const rows = SPLIT.map((text) => ({ ...base, symbol_name: text, trade_order_id: text }));
    const csv = historyCsv(rows);
    const lines = csv.split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1 + SPLIT.length);
    for (const [i, text] of SPLIT.entries()) {
      const line = lines[i + 1]!;
      // The text columns are quoted; the numbers are not (they stay numbers).
      expect(line).toContain(`"${guardFormula(text)}"`);
      expect(line).toContain(`"${base.trade_uuid}"`);
      expect(line).toContain(`,${base.trade_open_price},`);
      // The worst reader: splits on every ; or , and ignores the quotes.
      for (const separator of [';', ',', '\t']) {
        const cells = line.split(separator).map((cell) => cell.replace(/^"/, ''));
        expect(
          cells.filter(formulaCell),
          `${JSON.stringify(text)} split on ${JSON.stringify(separator)}`,
        ).toEqual([]);
      }
    }
    // Read back as CSV, each field is the guarded text and the row keeps its columns.
    const parsed = parse(csv) as string[][];
    const column = HISTORY_EXPORT_COLUMNS.indexOf('trade_order_id');
    expect(parsed.slice(1).map((record) => record[column])).toEqual(SPLIT.map(guardFormula));
    expect(guardFormula('x;=1+1')).toBe("x;'=1+1");
    expect(guardFormula('ETH;USDT')).toBe('ETH;USDT');
  });
});
