// What the exchange's user data stream tells about a followed account (issue 37; binance-fapi.md §9), turned
// into records (services/account-streams.ts holds the streams):
// - an exit of a trade filled (ORDER_TRADE_UPDATE FILLED, or ALGO_UPDATE FINISHED with a fill, of the trade's
//   `sds…` stop, `sdt…` take profit or `sdr…` trailing stop — trade-flow's clientOrderIds): the trade is recorded
//   closed with that status, the fill's average price and the commission of its fills; the orders it left
//   waiting on the exchange are marked (trade_exits_waiting) for the next call with the key to cancel;
// - the position closed outside Signaldesk (ACCOUNT_UPDATE with the symbol's position at 0 after a fill of an
//   order that is not ours): manual_close at that fill, with its cause — 'liquidation' (`autoclose-…`), 'adl'
//   (`adl_autoclose`) or 'by_hand';
// - an order reported done (cancelled, expired, filled, finished) is no longer waiting;
// - the stop of an open trade cancelled or expired on the exchange while its position is still there (the trader
//   cancelled it by hand in the exchange's app): the trade is marked STOP_MISSING — Repair places it again — and
//   the trader is told (issue 41), since nothing else protects the position now.
// Each close is recorded once, whichever of the stream, the page, the close route or the reconciler sees it
// first: recordClose changes a trade only while it is open.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { TradeError, TradeStatus, backstopHeldByExchange, type ClosingTradeStatus } from '../../../contracts';
import { addDecimals, compareDecimals } from '../../../shared-core/trade-core-node';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { trades, type TradeRow } from '../db/schema-trades';
import type { ClosingDesk } from './closing-desk';
import { READY_PHASE, announceTradeWrite, type TradeWithSymbol } from './trades';

/** The account an event belongs to. */
export interface FollowedAccount {
  user_uuid: string;
  platform_uuid: string;
}

/** How long an exit fill that found no trade is kept for the trade's record to arrive. */
export const UNMATCHED_KEEP_MS = 60_000;

/** How long a position at 0 waits for the fill that explains it (the exchange sends the two in either order). */
export const OUTSIDE_CLOSE_GRACE_MS = 1_000;

/**
 * How long a cancelled stop waits before it counts as lost: a close through Signaldesk cancels the stop right
 * after the position's close, and records the trade a moment later (client mode: the page, after its exchange
 * steps). A trade still open with its position there after this lost its stop outside Signaldesk.
 */
export const STOP_LOST_GRACE_MS = 3_000;

/** The exits' letters in trade-flow's client order ids, with the status a fill of each records. */
const EXIT_STATUS: Record<string, ClosingTradeStatus> = {
  s: TradeStatus.STOP_LOSS,
  t: TradeStatus.TAKE_PROFIT,
  r: TradeStatus.TREILING_STOP,
  // The stop's market backstop (issue 54): it fills where a gap left the stop-limit's limit order behind.
  b: TradeStatus.STOP_LOSS,
};
const EXIT_ID = /^sd([strb])([0-9a-f]{32})$/;
/** Orders Signaldesk places itself: its opens and closes are recorded by the code that placed them. */
const OWN_ORDER = /^sd[oc][0-9a-z]+$/;
const DONE = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'FINISHED', 'REJECTED']);

type Raw = Record<string, unknown>;
const text = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);

/** A fill of an order that is not Signaldesk's, the latest per symbol: the cause of an outside close. */
interface OutsideFill {
  price: string;
  commission: string;
  cause: 'by_hand' | 'liquidation' | 'adl';
}

export interface AccountEventsOptions {
  db: Database;
  desk: ClosingDesk;
  log: { warn(obj: object, msg: string): void };
  /** A close was recorded from the stream (the bench and tests watch it). */
  onClose?: (tradeUuid: string, status: ClosingTradeStatus) => void;
  /** An open trade's stop was cancelled outside Signaldesk and the trade marked STOP_MISSING (issue 41). */
  onStopLost?: (trade: TradeRow, symbolPair: string) => void;
}

/** The events of one followed account, one after the other. */
export class AccountEvents {
  /** Commission and fills summed per order id while its TRADE events arrive. */
  private readonly fills = new Map<string, { commission: string; seen: Set<string> }>();
  /** Commission of orders already filled, by order id, for the ALGO_UPDATE that names its actual order. */
  private readonly filledCommission = new Map<string, string>();
  private readonly outside = new Map<string, OutsideFill>();
  /** The account's position amount per symbol, as the last ACCOUNT_UPDATE that named it said. */
  private readonly positions = new Map<string, string>();
  /** The last fill per symbol was Signaldesk's own open or close (its code records it). */
  private readonly ownLast = new Map<string, boolean>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Signaldesk's exit orders the stream reported done (it may report one before the fill that closes the trade). */
  private readonly done = new Set<string>();
  /**
   * Exit fills of trades not recorded yet (client mode records a trade after its exchange steps, so an exit can
   * fill before the record exists): kept UNMATCHED_KEEP_MS and tried again when the account's trades change.
   */
  private readonly unmatched = new Map<
    string,
    { status: ClosingTradeStatus; price: string; commission: string | undefined; letter: string; at: number }
  >();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly account: FollowedAccount,
    private readonly options: AccountEventsOptions,
  ) {}

  /** Handles one event after the ones before it; failures are logged, never thrown. */
  handle(event: Raw): Promise<void> {
    this.chain = this.chain
      .then(() => this.dispatch(event))
      .catch((error: unknown) => {
        this.options.log.warn(
          { platform_uuid: this.account.platform_uuid, message: (error as Error).message },
          'account stream: an event could not be recorded',
        );
      });
    return this.chain;
  }

  /** Resolves when every event handed so far (and every grace wait) is done. */
  async idle(): Promise<void> {
    while (this.timers.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    await this.chain;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async dispatch(event: Raw): Promise<void> {
    switch (event.e) {
      case 'ORDER_TRADE_UPDATE':
        return this.onOrder((event.o ?? {}) as Raw);
      case 'ALGO_UPDATE':
        return this.onAlgo((event.o ?? {}) as Raw);
      case 'ACCOUNT_UPDATE':
        return this.onAccount((event.a ?? {}) as Raw);
      default:
        return undefined;
    }
  }

  private async onOrder(o: Raw): Promise<void> {
    const orderId = text(o.i);
    const clientId = text(o.c);
    const symbol = text(o.s);
    if (o.x === 'TRADE') {
      const summed = this.fills.get(orderId) ?? { commission: '0', seen: new Set<string>() };
      const tradeId = text(o.t);
      // A stream renewed make-before-break may hand one fill twice.
      if (!summed.seen.has(tradeId)) {
        summed.seen.add(tradeId);
        summed.commission = addDecimals(summed.commission, text(o.n) || '0');
      }
      this.fills.set(orderId, summed);
    }
    const status = text(o.X);
    if (DONE.has(status)) await this.noLongerWaiting(clientId);
    if (status !== 'FILLED') return;
    const commission = this.fills.get(orderId)?.commission ?? (text(o.n) || '0');
    this.fills.delete(orderId);
    this.filledCommission.set(orderId, commission);
    if (this.filledCommission.size > 1000) this.filledCommission.clear();
    const exit = EXIT_ID.exec(clientId);
    if (exit) {
      this.ownLast.set(symbol, true);
      await this.closeByExit(exit[2]!, EXIT_STATUS[exit[1]!]!, text(o.ap), commission, exit[1]!);
      return;
    }
    if (OWN_ORDER.test(clientId)) {
      this.ownLast.set(symbol, true);
      return;
    }
    this.ownLast.set(symbol, false);
    this.outside.set(symbol, {
      price: text(o.ap),
      commission,
      cause: clientId.startsWith('autoclose-')
        ? 'liquidation'
        : clientId.startsWith('adl_autoclose')
          ? 'adl'
          : 'by_hand',
    });
  }

  private async onAlgo(o: Raw): Promise<void> {
    const clientId = text(o.caid);
    const status = text(o.X);
    if (DONE.has(status)) await this.noLongerWaiting(clientId);
    const exit = EXIT_ID.exec(clientId);
    if (exit?.[1] === 's' && (status === 'CANCELED' || status === 'EXPIRED')) {
      this.later(STOP_LOST_GRACE_MS, () => this.stopLost(exit[2]!, clientId, text(o.s)));
      return;
    }
    if (!exit || status !== 'FINISHED' || compareDecimals(text(o.aq) || '0', '0') <= 0) return;
    await this.closeByExit(
      exit[2]!,
      EXIT_STATUS[exit[1]!]!,
      text(o.ap),
      this.filledCommission.get(text(o.ai)),
      exit[1]!,
    );
  }

  private onAccount(a: Raw): void {
    const positions = Array.isArray(a.P) ? (a.P as Raw[]) : [];
    for (const position of positions) {
      this.positions.set(text(position.s), text(position.pa) || '0');
      if (compareDecimals(text(position.pa) || '0', '0') !== 0) continue;
      const symbol = text(position.s);
      // The fill that closed it may come just after; it decides then.
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.handleOutsideClose(symbol);
      }, OUTSIDE_CLOSE_GRACE_MS);
      this.timers.add(timer);
    }
  }

  /** Runs `task` in the event chain after `ms` (idle() waits for it). */
  private later(ms: number, task: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.chain = this.chain.then(task).catch((error: unknown) => {
        this.options.log.warn(
          { platform_uuid: this.account.platform_uuid, message: (error as Error).message },
          'account stream: a delayed check failed',
        );
      });
    }, ms);
    this.timers.add(timer);
  }

  /**
   * The stop `clientId` of the trade `key` was cancelled (or expired) on the exchange: if the trade is still
   * open, its stop still that order, and its position still there, the stop was lost outside Signaldesk.
   */
  private async stopLost(key: string, clientId: string, symbol: string): Promise<void> {
    const amount = this.positions.get(symbol);
    if (amount !== undefined && compareDecimals(amount, '0') === 0) return;
    const [found] = await this.openTrades(eq(trades.trade_order_id, `sdo${key}`));
    if (!found || found.trade.trade_stop_order_id !== clientId) return;
    const [marked] = await this.options.db
      .update(trades)
      .set({ trade_error: TradeError.STOP_MISSING, trade_stop_order_id: null })
      .where(
        and(
          eq(trades.trade_uuid, found.trade.trade_uuid),
          eq(trades.trade_status, TradeStatus.OPEN),
          eq(trades.trade_stop_order_id, clientId),
        ),
      )
      .returning();
    if (!marked) return;
    announceTradeWrite(this.options.db, marked.user_uuid);
    this.options.onStopLost?.(marked, found.symbol.symbol_pair);
  }

  private handleOutsideClose(symbol: string): Promise<void> {
    this.chain = this.chain
      .then(() => this.closeOutside(symbol))
      .catch((error: unknown) => {
        this.options.log.warn(
          { platform_uuid: this.account.platform_uuid, message: (error as Error).message },
          'account stream: an outside close could not be recorded',
        );
      });
    return this.chain;
  }

  /** The position is gone and the last fill on the symbol was not Signaldesk's: manual_close with its cause. */
  private async closeOutside(symbol: string): Promise<void> {
    const fill = this.outside.get(symbol);
    if (!fill || this.ownLast.get(symbol) !== false) return;
    this.outside.delete(symbol);
    const open = await this.openTrades(eq(symbols.symbol_pair, symbol));
    for (const found of open) {
      await this.record(found, TradeStatus.MANUAL_CLOSE, fill.price, fill.commission, fill.cause);
    }
  }

  /** The exit `letter`+`key` of a trade filled: the trade of that signal is recorded closed by it. */
  private async closeByExit(
    key: string,
    status: ClosingTradeStatus,
    price: string,
    commission: string | undefined,
    letter: string,
  ): Promise<void> {
    if (compareDecimals(price || '0', '0') <= 0) return;
    const [found] = await this.openTrades(eq(trades.trade_order_id, `sdo${key}`));
    if (found) {
      this.unmatched.delete(key);
      await this.record(found, status, price, commission, null, letter);
    } else {
      this.unmatched.set(key, { status, price, commission, letter, at: Date.now() });
    }
  }

  /** The account's trades changed (a trade was recorded): exit fills that found no trade are tried again. */
  retryUnmatched(): Promise<void> {
    if (this.unmatched.size === 0) return this.chain;
    this.chain = this.chain
      .then(async () => {
        for (const [key, fill] of [...this.unmatched]) {
          if (Date.now() - fill.at > UNMATCHED_KEEP_MS) this.unmatched.delete(key);
          else await this.closeByExit(key, fill.status, fill.price, fill.commission, fill.letter);
        }
      })
      .catch((error: unknown) => {
        this.options.log.warn(
          { platform_uuid: this.account.platform_uuid, message: (error as Error).message },
          'account stream: an early exit fill could not be recorded',
        );
      });
    return this.chain;
  }

  private async record(
    found: TradeWithSymbol,
    status: ClosingTradeStatus,
    price: string,
    commission: string | undefined,
    cause: string | null,
    /** The letter of the exit that filled (EXIT_STATUS), when one did. */
    fired?: string,
  ): Promise<void> {
    const closed = await this.options.desk.recordClose(found, status, price, commission, {
      trade_close_cause: cause,
      trade_exits_waiting: leftOrders(found, status, this.done, fired),
    });
    if (closed) this.options.onClose?.(closed.trade_uuid, status);
  }

  /** The account's open trades (ready) matching `where`. */
  private async openTrades(where: ReturnType<typeof eq>): Promise<TradeWithSymbol[]> {
    return this.options.db
      .select({ trade: trades, symbol: symbols })
      .from(trades)
      .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
      .where(
        and(
          eq(trades.user_uuid, this.account.user_uuid),
          eq(trades.platform_uuid, this.account.platform_uuid),
          eq(trades.trade_status, TradeStatus.OPEN),
          eq(trades.trade_phase, READY_PHASE),
          where,
        ),
      );
  }

  /**
   * An order reported done is taken off the closed trades that marked it waiting: one UPDATE that removes it
   * from the stored list (null when none is left), so it never writes back a list read before the reconciler
   * cancelled them all and cleared it (a read-then-write did, under PostgreSQL's timing).
   */
  private async noLongerWaiting(clientId: string): Promise<void> {
    const exit = EXIT_ID.exec(clientId);
    if (!exit) return;
    if (this.done.size > 1000) this.done.clear();
    this.done.add(clientId);
    const left = sql`(${trades.trade_exits_waiting} - ${clientId}::text)`;
    await this.options.db
      .update(trades)
      .set({
        trade_exits_waiting: sql`case when jsonb_array_length(${left}) = 0 then null else ${left} end`,
      })
      .where(
        and(
          eq(trades.user_uuid, this.account.user_uuid),
          eq(trades.trade_order_id, `sdo${exit[2]}`),
          isNotNull(trades.trade_exits_waiting),
        ),
      );
  }
}

/**
 * The orders a close by `status` leaves waiting on the exchange: the stop unless it fired, its backstop unless
 * that fired (issue 54: a stop_loss by the backstop leaves the stop-limit's resting limit order), and the exits
 * the exchange holds unless one of them fired. `fired` is the letter of the exit that filled, when known (a
 * stop_loss without one is the stop's). Null when none.
 */
export function leftOrders(
  found: TradeWithSymbol,
  status: ClosingTradeStatus,
  done: ReadonlySet<string> = new Set(),
  fired?: string,
): string[] | null {
  const { trade } = found;
  const key = trade.trade_order_id?.startsWith('sdo') ? trade.trade_order_id.slice(3) : undefined;
  const left: string[] = [];
  const byBackstop = status === TradeStatus.STOP_LOSS && fired === 'b';
  if (trade.trade_stop_order_id && (status !== TradeStatus.STOP_LOSS || byBackstop))
    left.push(trade.trade_stop_order_id);
  if (key && backstopHeldByExchange(trade.trade_backstop) && !byBackstop) left.push(`sdb${key}`);
  if (key && trade.trade_exits) {
    if (trade.trade_exits.take_profit.held_by === 'exchange' && status !== TradeStatus.TAKE_PROFIT)
      left.push(`sdt${key}`);
    if (trade.trade_exits.trailing.held_by === 'exchange' && status !== TradeStatus.TREILING_STOP)
      left.push(`sdr${key}`);
  }
  // A stop the backstop outran may be reported done (its algo order triggered) while the limit order it placed
  // still rests under the same client id: it stays listed.
  const waiting = left.filter((id) => !done.has(id) || (byBackstop && id === trade.trade_stop_order_id));
  return waiting.length > 0 ? waiting : null;
}
