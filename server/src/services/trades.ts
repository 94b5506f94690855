// Trades in the database (db/schema-trades.ts) and on the wire (contracts/trades.ts): the rows a trader may
// see, the checks a new trade passes (its signal, platform and symbol) and the one-trade-per-signal rule.
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import {
  TradeError,
  TradeStatus,
  TradeTokenLevel,
  exitsHeldByExchange,
  tradeCloseCause,
  type TradeCloseCause,
  type Trade,
  type TradeCalculated,
  type TradeHistoryQuery,
  type TradeStatus as TradeStatusType,
  type TradeUiStatus,
  type TradeError as TradeErrorType,
} from '../../../contracts';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { signals } from '../db/schema-signals';
import { trades, type NewTradeRow, type TradeRow } from '../db/schema-trades';
import { HttpError } from '../http-error';
import { findPlatform, type PlatformRecord } from './platforms';
import { expectedStopPrice, initialTrailingLevel, pricingProblem } from './trade-math';
import { openingCostColumns, type OpeningCostsInput } from './trade-costs';

export type SymbolRow = typeof symbols.$inferSelect;
export type SignalRow = typeof signals.$inferSelect;
export interface TradeWithSymbol {
  trade: TradeRow;
  symbol: SymbolRow;
}

export const TRADE_NOT_FOUND = 'Trade not found';
export const DUPLICATE_TRADE = 'A trade for this signal already exists';
export const TRADE_ALREADY_CLOSED = 'Trade is already closed';
/** A create for a signal whose open is still under way (or died less than STALE_OPENING_MS ago). */
export const TRADE_STILL_OPENING =
  'An earlier open of this signal is still under way. If the server was restarted meanwhile, it is completed ' +
  'within about a minute';
/** trade_phase while the server's exchange calls of a server-mode open run. */
export const OPENING_PHASE = 'opening';

/** Issue 36: a second trade on a symbol would net against the first in one-way mode. */
export const symbolHasTrade = (pair: string) =>
  `A trade is already open or opening on ${pair}: a signal there flags it and opens no second one`;

/**
 * One trade per symbol and exchange account (issue 36): refuses (409) a new trade of the user on the platform's
 * symbol while another trade of either mode is open or opening there (the signal's own earlier open aside).
 * `unlessServerExitsHeld`: a server-mode trade whose exits the exchange holds does not count (before the PIN:
 * the exchange may have closed it; the open checks it there first, then asks again without this).
 */
export async function assertSymbolFree(
  db: Database,
  userUuid: string,
  origin: TradeOrigin,
  { unlessServerExitsHeld = false } = {},
): Promise<void> {
  const others = await db
    .select({ trade_in_server_side: trades.trade_in_server_side, trade_exits: trades.trade_exits })
    .from(trades)
    .where(
      and(
        eq(trades.user_uuid, userUuid),
        eq(trades.platform_uuid, origin.platform.platform_uuid),
        eq(trades.symbol_uuid, origin.symbol.symbol_uuid),
        eq(trades.trade_status, TradeStatus.OPEN),
        ne(trades.signal_uuid, origin.signal.signal_uuid),
      ),
    );
  const mayBeGone = (other: (typeof others)[number]) =>
    unlessServerExitsHeld && other.trade_in_server_side === 1 && exitsHeldByExchange(other.trade_exits);
  if (others.some((other) => !mayBeGone(other))) {
    throw new HttpError(409, symbolHasTrade(origin.symbol.symbol_pair));
  }
}
export const READY_PHASE = 'ready';

/** A row a trader is shown: the exchange confirmed its entry price and quantity. */
export function isListable(row: TradeRow): boolean {
  return row.trade_phase === READY_PHASE && !!row.trade_open_price && !!row.trade_quantity;
}

const direction = (row: TradeRow) => (row.trade_direction === 'SELL' ? 'SELL' : 'BUY');
const priceMove = (value: number): -1 | 0 | 1 => (value > 0 ? 1 : value < 0 ? -1 : 0);

/** The calculated fields as stored (the monitor's live values replace them while it watches the trade). */
export function calculatedOf(row: TradeRow): TradeCalculated {
  return {
    trade_current_price: row.trade_current_price ?? row.trade_open_price ?? '0',
    trade_last_update_price: priceMove(row.trade_last_update_price),
    trade_pnl_current: row.trade_pnl_current,
    trade_roe_current: row.trade_roe_current,
    trade_treiling_stop_percent_current: row.trade_treiling_stop_percent_current,
    trade_status: row.trade_status as TradeStatusType,
    trade_ui_status: row.trade_ui_status as TradeUiStatus | null,
    trade_update_timestamp: row.trade_update_timestamp.toISOString(),
    trade_liquidation_price: row.trade_liquidation_price,
    trade_open_commission: row.trade_open_commission,
    trade_close_commission: row.trade_close_commission,
    trade_pnl_net: row.trade_pnl_net,
    trade_roe_net: row.trade_roe_net,
  };
}

function tradeCloseCauseOf(cause: string | null): TradeCloseCause | null {
  const parsed = tradeCloseCause.safeParse(cause);
  return parsed.success ? parsed.data : null;
}

export function toWireTrade(row: TradeRow, symbol: SymbolRow, live?: TradeCalculated): Trade {
  const openPrice = row.trade_open_price!;
  const quantity = row.trade_quantity!;
  return {
    ...calculatedOf(row),
    ...live,
    trade_uuid: row.trade_uuid,
    platform_uuid: row.platform_uuid,
    signal_uuid: row.signal_uuid,
    symbol: {
      symbol_uuid: symbol.symbol_uuid,
      symbol_name: symbol.symbol_name,
      symbol_pair: symbol.symbol_pair,
      symbol_price_precision: symbol.symbol_price_precision,
      symbol_quantity_precision: symbol.symbol_quantity_precision,
    },
    trade_direction: direction(row),
    trade_in_server_side: row.trade_in_server_side === 1 ? 1 : 0,
    trade_open_price: openPrice,
    trade_close_price: row.trade_close_price,
    trade_margin: row.trade_margin,
    trade_quantity: quantity,
    trade_leverage: row.trade_leverage,
    trade_stop_loss_percent: row.trade_stop_loss_percent,
    trade_take_profit_percent: row.trade_take_profit_percent,
    trade_treiling_stop_percent: row.trade_treiling_stop_percent,
    // A position whose stop was never placed still shows where SPEC.md §5 puts it (trade_error says why).
    trade_stop_price:
      row.trade_stop_price ??
      expectedStopPrice(
        {
          trade_direction: direction(row),
          trade_open_price: openPrice,
          trade_quantity: quantity,
          trade_leverage: row.trade_leverage,
          trade_stop_loss_percent: row.trade_stop_loss_percent,
        },
        symbol.symbol_price_precision,
      ),
    trade_order_id: row.trade_order_id,
    trade_stop_order_id: row.trade_stop_order_id,
    trade_error: row.trade_error as TradeErrorType | null,
    trade_exits: row.trade_exits ?? null,
    trade_backstop: row.trade_backstop ?? null,
    trade_close_cause: tradeCloseCauseOf(row.trade_close_cause),
    trade_orders_left: row.trade_exits_waiting?.length ?? 0,
    trade_create_timestamp: row.trade_create_timestamp.toISOString(),
    trade_close_timestamp: row.trade_close_timestamp?.toISOString() ?? null,
  };
}

const withSymbol = (db: Database) =>
  db
    .select({ trade: trades, symbol: symbols })
    .from(trades)
    .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid));

/** A trade of this user (any phase), or undefined: another user's trade is never found. */
export async function findUserTrade(
  db: Database,
  userUuid: string,
  tradeUuid: string,
): Promise<TradeWithSymbol | undefined> {
  const [found] = await withSymbol(db).where(
    and(eq(trades.trade_uuid, tradeUuid), eq(trades.user_uuid, userUuid)),
  );
  return found;
}

/** findUserTrade for a route: 404 unless the trade is the user's and listable. */
export async function userTradeOr404(db: Database, userUuid: string, tradeUuid: string) {
  const found = await findUserTrade(db, userUuid, tradeUuid);
  if (!found || !isListable(found.trade)) throw new HttpError(404, TRADE_NOT_FOUND);
  return found;
}

export async function listOpenTrades(db: Database, userUuid: string): Promise<TradeWithSymbol[]> {
  const rows = await withSymbol(db)
    .where(
      and(
        eq(trades.user_uuid, userUuid),
        eq(trades.trade_status, TradeStatus.OPEN),
        eq(trades.trade_phase, READY_PHASE),
        isNotNull(trades.trade_open_price),
        isNotNull(trades.trade_quantity),
      ),
    )
    .orderBy(asc(trades.trade_create_timestamp));
  return rows;
}

/** Most closes one claim answers: the rest stay for the next (a page claims again after each close it hears). */
export const CLAIMED_CLOSES_MAX = 50;

/**
 * Issue 53, "while you were away": the trader's closes no page has told yet (the server recorded them on its
 * own), oldest first, marked told in the same statement, so two tabs or devices never both tell one.
 */
export async function claimUnannouncedCloses(db: Database, userUuid: string): Promise<TradeWithSymbol[]> {
  const claimed = await db
    .update(trades)
    .set({ trade_close_announced: true })
    // The flag again in the outer condition: PostgreSQL re-checks it on a row another claim just changed (the
    // subquery's list is not read again), so a concurrent claim skips it.
    .where(
      and(
        eq(trades.trade_close_announced, false),
        inArray(
          trades.trade_uuid,
          db
            .select({ trade_uuid: trades.trade_uuid })
            .from(trades)
            .where(and(eq(trades.user_uuid, userUuid), eq(trades.trade_close_announced, false)))
            .orderBy(asc(trades.trade_close_timestamp))
            .limit(CLAIMED_CLOSES_MAX),
        ),
      ),
    )
    .returning({ trade_uuid: trades.trade_uuid });
  if (claimed.length === 0) return [];
  const rows = await withSymbol(db)
    .where(
      inArray(
        trades.trade_uuid,
        claimed.map((row) => row.trade_uuid),
      ),
    )
    .orderBy(asc(trades.trade_close_timestamp));
  return rows.filter(({ trade }) => isListable(trade));
}

/** Trades created in [start_date, end_date], newest first (SPEC.md §7 /trade/get_trades_history/). */
export async function listTradeHistory(
  db: Database,
  userUuid: string,
  query: TradeHistoryQuery,
): Promise<TradeWithSymbol[]> {
  return withSymbol(db)
    .where(
      and(
        eq(trades.user_uuid, userUuid),
        eq(trades.trade_phase, READY_PHASE),
        isNotNull(trades.trade_open_price),
        isNotNull(trades.trade_quantity),
        gte(trades.trade_create_timestamp, new Date(query.start_date)),
        lte(trades.trade_create_timestamp, new Date(query.end_date)),
      ),
    )
    .orderBy(desc(trades.trade_create_timestamp), desc(trades.trade_uuid))
    .offset(query.offset)
    .limit(query.limit);
}

export interface TradeOrigin {
  signal: SignalRow;
  platform: PlatformRecord;
  symbol: SymbolRow;
}

/**
 * The signal a new trade is made from, with its platform and symbol: the signal must exist (404), its
 * platform must be enabled and tradable (TRADE_AVAILABLE) and allow the leverage (400).
 */
export async function tradeOrigin(db: Database, signalUuid: string, leverage: number): Promise<TradeOrigin> {
  const [signal] = await db.select().from(signals).where(eq(signals.signal_uuid, signalUuid));
  if (!signal) throw new HttpError(404, 'Signal not found');
  const platform = await findPlatform(db, signal.platform_uuid);
  if (!platform || platform.level !== TradeTokenLevel.TRADE_AVAILABLE) {
    throw new HttpError(400, 'Trading is not available on the platform of this signal');
  }
  if (leverage > platform.trade_leverage_max) {
    throw new HttpError(400, `trade_leverage: Must be at most ${platform.trade_leverage_max}`);
  }
  const [symbol] = await db.select().from(symbols).where(eq(symbols.symbol_uuid, signal.symbol_uuid));
  if (!symbol) throw new HttpError(404, 'Signal not found');
  return { signal, platform, symbol };
}

function isUniqueViolation(error: unknown): boolean {
  // PostgreSQL's unique_violation, whether the driver error is thrown bare or wrapped by Drizzle.
  const codeOf = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | undefined)?.cause) === '23505';
}

/** The user's trade for the signal, if any (one per user and signal: a unique index). */
export async function tradeForSignal(
  db: Database,
  userUuid: string,
  signalUuid: string,
): Promise<TradeWithSymbol | undefined> {
  const [found] = await db
    .select({ trade: trades, symbol: symbols })
    .from(trades)
    .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
    .where(and(eq(trades.user_uuid, userUuid), eq(trades.signal_uuid, signalUuid)));
  return found;
}

/** 409 when the user already has a trade for the signal (checked again by the unique index on insert). */
export async function assertNoTradeForSignal(db: Database, userUuid: string, signalUuid: string) {
  if (await tradeForSignal(db, userUuid, signalUuid)) throw new HttpError(409, DUPLICATE_TRADE);
}

export interface NewTrade {
  user_uuid: string;
  origin: TradeOrigin;
  settings: {
    trade_margin: number;
    trade_leverage: number;
    trade_stop_loss_percent: number;
    trade_take_profit_percent: number;
    trade_treiling_stop_percent: number;
  };
  trade_in_server_side: 0 | 1;
  /** Known at once in client mode; filled in after the exchange calls in server mode. */
  position?: Pick<
    NewTradeRow,
    | 'trade_open_price'
    | 'trade_quantity'
    | 'trade_order_id'
    | 'trade_stop_order_id'
    | 'trade_stop_price'
    | 'trade_exits'
    | 'trade_backstop'
  > &
    OpeningCostsInput;
  /**
   * Server mode, before the exchange calls: the client id the market order will carry, so an open that dies
   * half-way can still be looked up on the exchange.
   */
  opening_order_id?: string;
  now: Date;
}

/**
 * Who hears of every trade row this process writes (insert, update, delete), by user: the open-trades view
 * (services/open-trades-view.ts) drops what it cached. Kept per database handle, so test apps stay apart.
 * The trade monitor's own periodic writes of live fields are not announced: readers take those from the
 * monitor itself.
 */
const writeListeners = new WeakMap<Database, Set<(userUuid: string) => void>>();

export function onTradeWrite(db: Database, listener: (userUuid: string) => void): () => void {
  const listeners = writeListeners.get(db) ?? new Set();
  writeListeners.set(db, listeners);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceTradeWrite(db: Database, userUuid: string): void {
  for (const listener of writeListeners.get(db) ?? []) listener(userUuid);
}

/** Inserts a trade (phase 'opening' without a position); a second trade for the signal is 409. */
export async function insertTrade(db: Database, input: NewTrade): Promise<TradeRow> {
  const { origin, settings, position } = input;
  if (position?.trade_open_price && position.trade_quantity) {
    // Refused before anything is stored: a row trade-core cannot price would fail every reader (issue 52).
    const problem = pricingProblem(
      {
        trade_direction: origin.signal.direction === 'SELL' ? 'SELL' : 'BUY',
        trade_open_price: position.trade_open_price,
        trade_quantity: position.trade_quantity,
        trade_leverage: settings.trade_leverage,
        trade_stop_loss_percent: settings.trade_stop_loss_percent,
        trade_take_profit_percent: settings.trade_take_profit_percent,
      },
      {
        stop: position.trade_stop_price,
        openCommission: position.trade_open_commission,
        pricePrecision: origin.symbol.symbol_price_precision,
      },
    );
    if (problem) {
      throw new HttpError(
        400,
        `trade_quantity: with this trade_open_price the position cannot be priced (${problem})`,
      );
    }
  }
  try {
    const [row] = await db
      .insert(trades)
      .values({
        trade_uuid: randomUUID(),
        user_uuid: input.user_uuid,
        platform_uuid: origin.platform.platform_uuid,
        signal_uuid: origin.signal.signal_uuid,
        symbol_uuid: origin.symbol.symbol_uuid,
        trade_direction: origin.signal.direction === 'SELL' ? 'SELL' : 'BUY',
        trade_in_server_side: input.trade_in_server_side,
        trade_phase: position ? READY_PHASE : OPENING_PHASE,
        trade_margin: String(settings.trade_margin),
        trade_leverage: settings.trade_leverage,
        trade_stop_loss_percent: settings.trade_stop_loss_percent,
        trade_take_profit_percent: settings.trade_take_profit_percent,
        trade_treiling_stop_percent: settings.trade_treiling_stop_percent,
        trade_order_id: input.opening_order_id ?? null,
        ...(position && {
          trade_open_price: position.trade_open_price,
          trade_quantity: position.trade_quantity,
          trade_order_id: position.trade_order_id,
          trade_stop_order_id: position.trade_stop_order_id,
          trade_stop_price: position.trade_stop_price,
          trade_exits: position.trade_exits ?? null,
          trade_backstop: position.trade_backstop ?? null,
          ...(position.trade_open_price && position.trade_quantity
            ? openingCostColumns(
                {
                  trade_direction: origin.signal.direction === 'SELL' ? 'SELL' : 'BUY',
                  trade_open_price: position.trade_open_price,
                  trade_quantity: position.trade_quantity,
                  trade_leverage: settings.trade_leverage,
                },
                position,
                origin.symbol.symbol_price_precision,
              )
            : {}),
        }),
        trade_error: position && !position.trade_stop_order_id ? TradeError.STOP_MISSING : null,
        trade_current_price: position?.trade_open_price ?? null,
        trade_treiling_stop_percent_current: initialTrailingLevel(settings.trade_stop_loss_percent),
        trade_create_timestamp: input.now,
        trade_update_timestamp: input.now,
      })
      .returning();
    announceTradeWrite(db, input.user_uuid);
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, DUPLICATE_TRADE);
    throw error;
  }
}

export async function updateTrade(db: Database, tradeUuid: string, values: Partial<NewTradeRow>) {
  const [row] = await db.update(trades).set(values).where(eq(trades.trade_uuid, tradeUuid)).returning();
  if (row) announceTradeWrite(db, row.user_uuid);
  return row;
}

export async function deleteTrade(db: Database, tradeUuid: string): Promise<void> {
  const [row] = await db
    .delete(trades)
    .where(eq(trades.trade_uuid, tradeUuid))
    .returning({ user_uuid: trades.user_uuid });
  if (row) announceTradeWrite(db, row.user_uuid);
}

/**
 * Stores the trade monitor's live fields of an open trade (engine/trade-monitor.ts, in batches; with the UI
 * status when one was marked). A close in between wins: only a row still OPEN is written.
 */
export async function writeLiveFields(
  db: Database,
  tradeUuid: string,
  calc: TradeCalculated,
  monitor: { bestRoe: string | null; conditions: number; withUiStatus: boolean },
): Promise<void> {
  await db
    .update(trades)
    .set({
      trade_current_price: calc.trade_current_price,
      trade_last_update_price: calc.trade_last_update_price,
      trade_pnl_current: calc.trade_pnl_current,
      trade_roe_current: calc.trade_roe_current,
      trade_treiling_stop_percent_current: calc.trade_treiling_stop_percent_current,
      trade_close_commission: calc.trade_close_commission,
      trade_pnl_net: calc.trade_pnl_net,
      trade_roe_net: calc.trade_roe_net,
      trade_best_roe: monitor.bestRoe,
      monitor_conditions: monitor.conditions,
      trade_update_timestamp: new Date(calc.trade_update_timestamp),
      ...(monitor.withUiStatus ? { trade_ui_status: calc.trade_ui_status } : {}),
    })
    .where(and(eq(trades.trade_uuid, tradeUuid), eq(trades.trade_status, TradeStatus.OPEN)));
}
