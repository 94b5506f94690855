// History export (issue 18 item 4; not in SPEC.md, docs/decisions.md "The cockpit"): GET
// /trade/export_trades_history/ answers the trades created in a range as a CSV or JSON download. Every column of
// the /trade_history table, the fees and the order ids, under their wire names; money and prices as the exact
// decimal strings the database holds, never reformatted through binary floating point.
import { z } from 'zod';
import { apiDateTime } from './common';
import { decimalString } from './trades';

/** The longest range one export may cover, in days. */
export const HISTORY_EXPORT_MAX_DAYS = 366;
/** The most trades one export may hold; a range with more is refused (choose a shorter one). */
export const HISTORY_EXPORT_MAX_ROWS = 100_000;
const DAY_MS = 86_400_000;

export const HistoryExportFormat = { CSV: 'csv', JSON: 'json' } as const;
export type HistoryExportFormat = (typeof HistoryExportFormat)[keyof typeof HistoryExportFormat];
export const historyExportFormat = z.enum([HistoryExportFormat.CSV, HistoryExportFormat.JSON]);

/**
 * The query: trades created in [start_date, end_date] (ISO-8601 with an offset: the file is named after the
 * calendar dates as written, so the SPA sends the trader's local day boundaries with the local offset).
 */
export const historyExportQuery = z
  .object({
    start_date: apiDateTime,
    end_date: apiDateTime,
    format: historyExportFormat.default(HistoryExportFormat.CSV),
  })
  .refine((query) => Date.parse(query.start_date) <= Date.parse(query.end_date), {
    message: 'start_date must not be after end_date',
    path: ['end_date'],
  })
  .refine(
    (query) => Date.parse(query.end_date) - Date.parse(query.start_date) < HISTORY_EXPORT_MAX_DAYS * DAY_MS,
    {
      message: `The range must be shorter than ${HISTORY_EXPORT_MAX_DAYS} days`,
      path: ['end_date'],
    },
  );
export type HistoryExportQuery = z.infer<typeof historyExportQuery>;

/** The 409 detail of a range with more than HISTORY_EXPORT_MAX_ROWS trades. */
export const HISTORY_EXPORT_TOO_MANY = `The range holds more than ${HISTORY_EXPORT_MAX_ROWS} trades: choose a shorter range`;

/**
 * One exported trade, newest first, in the CSV's column order. Null (an empty CSV field) where a value does not
 * exist: a close of an open trade, a fee the exchange did not report.
 */
export const historyExportRow = z
  .object({
    trade_uuid: z.uuid(),
    symbol_name: z.string(),
    symbol_pair: z.string(),
    trade_direction: z.string(),
    /** 'client' or 'server': where the trade was opened. */
    trade_mode: z.enum(['client', 'server']),
    trade_open_price: decimalString,
    trade_close_price: decimalString.nullable(),
    trade_margin: decimalString,
    trade_quantity: decimalString,
    trade_leverage: z.string(),
    /** Realized PNL once closed, unrealized while open (the table's PNL $), USDT. */
    trade_pnl_current: decimalString,
    /** ROE % (the table's). */
    trade_roe_current: decimalString,
    /** Fees (USDT) and the net figures, where the trade carries them. */
    trade_open_commission: decimalString.nullable(),
    trade_close_commission: decimalString.nullable(),
    trade_pnl_net: decimalString.nullable(),
    trade_roe_net: decimalString.nullable(),
    trade_create_timestamp: z.string(),
    trade_close_timestamp: z.string().nullable(),
    /** Whole minutes from open to close, rounded (the table's duration); null while open. */
    trade_duration_minutes: z.string().nullable(),
    trade_status: z.string(),
    trade_stop_price: decimalString,
    /** Client ids of the opening market order and of the stop-loss order. */
    trade_order_id: z.string().nullable(),
    trade_stop_order_id: z.string().nullable(),
  })
  .meta({ id: 'HistoryExportRow' });
export type HistoryExportRow = z.infer<typeof historyExportRow>;

/** The CSV header: the row's keys, in order. */
export const HISTORY_EXPORT_COLUMNS = Object.keys(historyExportRow.shape) as (keyof HistoryExportRow)[];

/** The JSON file. */
export const historyExport = z
  .object({
    start_date: z.string(),
    end_date: z.string(),
    /** Sum of trade_pnl_current over the rows (the page's 'Realized PNL'), USDT, exact. */
    realized_pnl: decimalString,
    /** The same net of the commissions charged (trade_pnl_net; gross where unknown): the page's net (issue 40). */
    realized_pnl_net: decimalString,
    trade_list: z.array(historyExportRow),
  })
  .meta({ id: 'HistoryExport' });
export type HistoryExport = z.infer<typeof historyExport>;

/** Whole minutes from open to close, rounded (the history table's duration); undefined while open. */
export function tradeDurationMinutes(trade: {
  trade_create_timestamp: string;
  trade_close_timestamp: string | null;
}): number | undefined {
  if (!trade.trade_close_timestamp) return undefined;
  const ms = Date.parse(trade.trade_close_timestamp) - Date.parse(trade.trade_create_timestamp);
  return Number.isFinite(ms) ? Math.round(ms / 60_000) : undefined;
}
