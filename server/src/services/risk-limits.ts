// Risk limits (issue 18 item 3; docs/decisions.md "The cockpit"): trade_max_open_trades and
// trade_daily_loss_limit of the global preferences (0 = OFF), measured on the trader's records of both modes —
// the server holds every trade, client-mode ones included, so it is the one place the state is computed. A
// server-mode open is refused here before the exchange is called; the SPA reads the same state before a
// client-mode open and refuses it before it touches the exchange (a recorded client-mode position is never
// refused: it exists).
import { and, count, eq, gte, lt, ne } from 'drizzle-orm';
import { TradeStatus, riskLimitRefusal, riskLimitText, type RiskLimitState } from '../../../contracts';
import { compareDecimals, roundDecimal, subDecimals, sumDecimals } from '../../../shared-core/trade-core';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { trades } from '../db/schema-trades';
import { HttpError } from '../http-error';
import { getTradePreferences } from './preferences';
import { isListable, toWireTrade } from './trades';

const DAY_MS = 86_400_000;

/** The UTC day that holds `nowMs`: [start, end). */
export function utcDayOf(nowMs: number): { start: Date; end: Date } {
  const start = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { start: new Date(start), end: new Date(start + DAY_MS) };
}

/**
 * Where the trader's limits stand at `nowMs`: open trades of both modes (every row still open, opens under way and
 * trades waiting for Repair too: each may hold a position), and the realized PNL of the trades closed in the
 * UTC day — net of commissions where the wire trade carries trade_pnl_net, gross otherwise.
 */
export async function riskLimitStateOf(
  db: Database,
  userUuid: string,
  nowMs: number,
): Promise<RiskLimitState> {
  const preferences = await getTradePreferences(db, userUuid);
  const day = utcDayOf(nowMs);
  const [open] = await db
    .select({ value: count() })
    .from(trades)
    .where(and(eq(trades.user_uuid, userUuid), eq(trades.trade_status, TradeStatus.OPEN)));
  const closed = await db
    .select({ trade: trades, symbol: symbols })
    .from(trades)
    .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
    .where(
      and(
        eq(trades.user_uuid, userUuid),
        ne(trades.trade_status, TradeStatus.OPEN),
        gte(trades.trade_close_timestamp, day.start),
        lt(trades.trade_close_timestamp, day.end),
      ),
    );
  const realized = sumDecimals(
    closed
      .filter(({ trade }) => isListable(trade))
      .map(({ trade, symbol }) => {
        const wire = toWireTrade(trade, symbol);
        return wire.trade_pnl_net ?? wire.trade_pnl_current;
      }),
  );
  const loss = compareDecimals(realized, 0) < 0 ? subDecimals(0, realized) : '0';
  const openCount = open?.value ?? 0;
  const max = preferences.trade_max_open_trades;
  const limit = preferences.trade_daily_loss_limit;
  return {
    trade_max_open_trades: max,
    trade_daily_loss_limit: limit,
    open_trade_count: openCount,
    daily_realized_pnl: realized,
    daily_loss: loss,
    day_start: day.start.toISOString(),
    day_end: day.end.toISOString(),
    is_max_open_trades_reached: max > 0 && openCount >= max,
    is_daily_loss_limit_reached: limit > 0 && compareDecimals(loss, limit) >= 0,
  };
}

/** 409 with the RiskLimitText sentence when a limit refuses a new trade now. */
export async function assertWithinRiskLimits(db: Database, userUuid: string, nowMs: number): Promise<void> {
  const state = await riskLimitStateOf(db, userUuid, nowMs);
  const refusal = riskLimitRefusal(state);
  if (!refusal) return;
  // The sentence shows the loss in cents; the state keeps it exact.
  const shown =
    refusal.kind === 'dailyLossLimit'
      ? { ...refusal, loss: roundDecimal(refusal.loss, 2, 'half-away-from-zero') }
      : refusal;
  throw new HttpError(409, riskLimitText(shown));
}

/**
 * Runs tasks of one key one after the other (in this process): a server-mode open checks the limits and stores its
 * row under its trader's key, so two opens at once cannot both pass a limit that only one more trade fits.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
