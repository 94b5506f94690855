// GET /api/trade/export_trades_history/ (issue 18 item 4; not in SPEC.md): the trades created in a range as a
// CSV or JSON download (Content-Disposition: attachment). The rows are the history's (GET
// /trade/get_trades_history/, the monitor's live fields on open trades), every value the exact string the
// database holds; csv-stringify writes the CSV (RFC 4180 quoting, CRLF; every text field is quoted, and any
// field with a separator, a quote or a line break). Text a spreadsheet could run as a formula (= + - @ — after
// any leading white space, or full-width — a tab or a carriage return, at the field's start or after a ; , or tab
// inside it) is guarded with ' in the text columns only — the numeric columns never are, so a negative PNL stays
// a number (docs/decisions.md "The cockpit").
import { stringify } from 'csv-stringify/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HISTORY_EXPORT_COLUMNS,
  HISTORY_EXPORT_MAX_ROWS,
  HISTORY_EXPORT_TOO_MANY,
  HistoryExportFormat,
  errorBody,
  historyExport,
  historyExportQuery,
  tradeDurationMinutes,
  type HistoryExportRow,
  type Trade,
} from '../../../../contracts';
import { sumDecimals } from '../../../../shared-core/trade-core';
import { HttpError } from '../../http-error';
import { bearerSecurity } from '../../services/access-token';
import { listTradeHistory, toWireTrade } from '../../services/trades';

/** Columns that hold numbers: never quoted nor guarded, so a spreadsheet reads them as numbers. */
const NUMBER_COLUMNS = new Set<keyof HistoryExportRow>([
  'trade_open_price',
  'trade_close_price',
  'trade_margin',
  'trade_quantity',
  'trade_leverage',
  'trade_pnl_current',
  'trade_roe_current',
  'trade_open_commission',
  'trade_close_commission',
  'trade_pnl_net',
  'trade_roe_net',
  'trade_duration_minutes',
  'trade_stop_price',
]);

const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** Columns whose text comes from outside (the exchange, the page): the only ones a formula guard may change. */
const TEXT_COLUMNS = new Set<keyof HistoryExportRow>([
  'symbol_name',
  'symbol_pair',
  'trade_order_id',
  'trade_stop_order_id',
]);

/**
 * A formula start (= + - @, a tab or a carriage return, issue 38 item 5) also after leading white space of any
 * kind (spaces, no-break spaces, line breaks, zero-width and ideographic spaces: spreadsheets skip them) and in
 * its full-width forms (＝ ＋ － ＠), which some spreadsheets read as the ASCII ones.
 */
const FORMULA_START = /^[\s\u200b\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]/;

/**
 * A formula start right after a separator a spreadsheet may split on (`;` in de, fr, ua; `,`; a tab): in such a
 * locale `x;=1+1` is two cells, the second `=1+1` (issue 52), whatever the quotes (a reader that honours quotes
 * only at a field's start ignores them there).
 */
const FORMULA_AFTER_SEPARATOR = /([;,\t])([\s\u200b\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20])/g;

/**
 * OWASP's CSV-injection guard for a text field: ' before a formula start at the field's start and after every
 * separator inside it, so no cell of any split of the field starts a formula.
 */
export function guardFormula(text: string): string {
  const inside = text.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
  return FORMULA_START.test(inside) ? `'${inside}` : inside;
}

/** One exported row of a wire trade: every value as the API gives it, as text. */
export function exportRowOf(trade: Trade): HistoryExportRow {
  const minutes = tradeDurationMinutes(trade);
  return {
    trade_uuid: trade.trade_uuid,
    symbol_name: trade.symbol.symbol_name,
    symbol_pair: trade.symbol.symbol_pair,
    trade_direction: trade.trade_direction,
    trade_mode: trade.trade_in_server_side === 1 ? 'server' : 'client',
    trade_open_price: trade.trade_open_price,
    trade_close_price: trade.trade_close_price,
    trade_margin: trade.trade_margin,
    trade_quantity: trade.trade_quantity,
    trade_leverage: String(trade.trade_leverage),
    trade_pnl_current: trade.trade_pnl_current,
    trade_roe_current: trade.trade_roe_current,
    trade_open_commission: trade.trade_open_commission ?? null,
    trade_close_commission: trade.trade_close_commission ?? null,
    trade_pnl_net: trade.trade_pnl_net ?? null,
    trade_roe_net: trade.trade_roe_net ?? null,
    trade_create_timestamp: trade.trade_create_timestamp,
    trade_close_timestamp: trade.trade_close_timestamp,
    trade_duration_minutes: minutes === undefined ? null : String(minutes),
    trade_status: trade.trade_status,
    trade_stop_price: trade.trade_stop_price,
    trade_order_id: trade.trade_order_id,
    trade_stop_order_id: trade.trade_stop_order_id,
  };
}

/** The CSV file: a header of wire names, then one record per row; an absent value is an empty field. */
export function historyCsv(rows: readonly HistoryExportRow[]): string {
  const records = rows.map((row) =>
    HISTORY_EXPORT_COLUMNS.map((column) => {
      const value = row[column];
      if (value === null) return '';
      return TEXT_COLUMNS.has(column) ? guardFormula(value) : value;
    }),
  );
  // Records end with CRLF. Every text field is quoted (issue 52): a spreadsheet in a locale whose separator is
  // ';' (de, fr, ua) split the unquoted `x;=1+1` into a second cell and ran `=1+1`; inside quotes no separator
  // of any locale splits it. A field holding a bare line break (or a CR) is quoted too, so it never starts a row.
  return stringify([HISTORY_EXPORT_COLUMNS, ...records], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    cast: {
      // The first record is the header of wire names: left as it is. A number column's value that is not a
      // plain decimal (none is stored) would be text: quoted too.
      string: (value, context) =>
        context.records > 0 &&
        !(NUMBER_COLUMNS.has(HISTORY_EXPORT_COLUMNS[context.index]!) && PLAIN_NUMBER.test(value))
          ? { value, quoted: true }
          : value,
    },
  });
}

/** The file name: the range's calendar dates as the query wrote them (the trader's local days). */
function fileName(query: { start_date: string; end_date: string }, format: string): string {
  return `signaldesk-trades-${query.start_date.slice(0, 10)}-${query.end_date.slice(0, 10)}.${format}`;
}

export const historyExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const monitor = app.tradeDesk.monitor;

  app.get(
    '/export_trades_history/',
    {
      schema: {
        tags: ['trade'],
        summary:
          'The trades created between start_date and end_date as a CSV or JSON file (every history column, ' +
          'fees, order ids; exact decimals)',
        security: bearerSecurity,
        querystring: historyExportQuery,
        produces: ['text/csv', 'application/json'],
        response: {
          200: z.string().meta({
            description:
              'format=csv: text/csv with a header row of HistoryExportRow keys; format=json: a HistoryExport',
          }),
          400: errorBody,
          401: errorBody,
          409: errorBody,
        },
      },
    },
    async (request, reply) => {
      const { start_date, end_date, format } = request.query;
      const found = await listTradeHistory(app.db, request.userUuid, {
        start_date,
        end_date,
        offset: 0,
        limit: HISTORY_EXPORT_MAX_ROWS + 1,
      });
      if (found.length > HISTORY_EXPORT_MAX_ROWS) throw new HttpError(409, HISTORY_EXPORT_TOO_MANY);
      const rows = found.map(({ trade, symbol }) =>
        exportRowOf(toWireTrade(trade, symbol, monitor.calculated(trade.trade_uuid))),
      );
      const body =
        format === HistoryExportFormat.JSON
          ? JSON.stringify(
              historyExport.parse({
                start_date,
                end_date,
                realized_pnl: sumDecimals(rows.map((row) => row.trade_pnl_current)),
                realized_pnl_net: sumDecimals(rows.map((row) => row.trade_pnl_net ?? row.trade_pnl_current)),
                trade_list: rows,
              }),
            )
          : historyCsv(rows);
      // A string is sent as it is (no serializer): the bytes are the file.
      return reply
        .type(
          format === HistoryExportFormat.JSON ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
        )
        .header('Content-Disposition', `attachment; filename="${fileName(request.query, format)}"`)
        .header('Cache-Control', 'no-store')
        .send(body);
    },
  );
};
