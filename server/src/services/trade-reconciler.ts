// Server-mode trades against the exchange (docs/decisions.md "Trading"): the reconciliation the account-balance
// call starts every 30 s (it carries the PIN), and the repair of error trades (DELETE
// /trade/delete_trade_errors/). Both record trade-flow's checkPositions the same way: a position the exchange
// closed is closed (a fired stop → stop_loss at its fill), an open that never filled is deleted, an open the
// exchange confirms loses its open_incomplete / position_missing error, and an open that was interrupted after
// its market order (a server killed mid-open, docs/decisions.md "Faults") gets its stop placed then. Every change
// is pushed to the owner's sockets.
import { and, eq, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import { TradeError, TradeStatus, TradeTokenMessage, exitsHeldByExchange } from '../../../contracts';
import { ExchangeClient, ExchangeError } from '../../../shared-core/exchange-client';
import { serverExchangeClient } from './exchange-transport';
import {
  checkPositions,
  protectPosition,
  type PositionCheck,
  type ProtectedPosition,
} from '../../../shared-core/trade-flow';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { trades, type TradeRow } from '../db/schema-trades';
import { compareDecimals } from '../../../shared-core/trade-core-node';
import { cancelExitQuietly, cancelQuietly } from '../../../shared-core/trade-flow-common';
import { exchangeHttpError, HttpError } from '../http-error';
import type { ClosingDesk } from './closing-desk';
import type { TradeTokenAccess } from './trade-token-access';
import { WrongPinError, touchTradeToken } from './trade-tokens';
import {
  OPENING_PHASE,
  READY_PHASE,
  calculatedOf,
  deleteTrade,
  isListable,
  updateTrade,
  type TradeWithSymbol,
} from './trades';
import { positionAt, readCostColumns } from './trade-costs';

/** An 'opening' row older than this belongs to an open that died (the exchange calls take far less). */
export const STALE_OPENING_MS = 60_000;

type Check = { mode: 'repair' | 'reconcile' };

export interface TradeReconcilerOptions {
  db: Database;
  log: { warn(obj: object, msg: string): void };
  clock: () => number;
}

export class TradeReconciler {
  private readonly background = new Map<string, Promise<void>>();

  constructor(
    private readonly desk: ClosingDesk,
    private readonly options: TradeReconcilerOptions,
  ) {}

  /**
   * Account-balance hook: checks the user's open server-mode trades on the platform against the exchange and
   * records what the exchange did (a stop that fired → stop_loss at its fill price). Runs in the background,
   * at most one run per user and platform; failures are logged (message only) and never reach the caller.
   */
  reconcileInBackground(userUuid: string, platformUuid: string, client: ExchangeClient): void {
    const key = `${userUuid}:${platformUuid}`;
    if (this.background.has(key)) return;
    const run = (async () => {
      const rows = await this.serverTrades(userUuid, platformUuid);
      if (rows.length > 0) await this.check(rows, client, { mode: 'reconcile' });
      await this.cancelWaitingOrders(userUuid, platformUuid, client);
    })()
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.options.log.warn({ platform_uuid: platformUuid, message }, 'trades: reconciliation failed');
      })
      .finally(() => this.background.delete(key));
    this.background.set(key, run);
  }

  /** Resolves when the background reconciliations started so far are done. */
  async idle(): Promise<void> {
    await Promise.all(this.background.values());
  }

  /**
   * Repairs the user's error trades (docs/decisions.md "Trading"): server-mode ones on platforms whose PIN is
   * given are checked with the exchange; the rest are repaired when no exchange call is needed. Returns how
   * many were repaired. A wrong PIN for a platform with a server-mode token is 403.
   */
  async repair(
    userUuid: string,
    pinByPlatform: Record<string, string>,
    access: TradeTokenAccess,
  ): Promise<number> {
    const errorTrades = await this.errorTrades(userUuid);
    const clients = new Map<string, { client: ExchangeClient; tokenUuid: string }>();
    const serverPlatforms = new Set(
      errorTrades.filter((found) => found.trade.trade_in_server_side === 1).map((f) => f.trade.platform_uuid),
    );
    for (const platformUuid of serverPlatforms) {
      const pin = pinByPlatform[platformUuid];
      if (!pin) continue;
      const opened = await openTokenOrSkip(access, userUuid, platformUuid, pin);
      if (opened) clients.set(platformUuid, opened);
    }

    let count = 0;
    for (const [platformUuid, { client, tokenUuid }] of clients) {
      const rows = errorTrades.filter(
        (found) => found.trade.platform_uuid === platformUuid && found.trade.trade_in_server_side === 1,
      );
      try {
        count += await this.check(rows, client, { mode: 'repair' });
      } catch (error) {
        if (error instanceof ExchangeError) throw exchangeHttpError(error);
        throw error;
      }
      await touchTradeToken(this.options.db, tokenUuid);
    }
    for (const found of errorTrades) {
      const checked = found.trade.trade_in_server_side === 1 && clients.has(found.trade.platform_uuid);
      if (!checked && (await this.repairWithoutExchange(found))) count += 1;
    }
    return count;
  }

  /** An open that is no longer running anywhere: still 'opening' STALE_OPENING_MS after it was stored. */
  isDeadOpen(row: TradeRow): boolean {
    return (
      row.trade_phase === OPENING_PHASE &&
      row.trade_status === TradeStatus.OPEN &&
      row.trade_create_timestamp.getTime() < this.options.clock() - STALE_OPENING_MS
    );
  }

  /**
   * The trader asks again for a signal whose earlier server-mode open died (isDeadOpen): completes it now, as
   * Repair would (its market order decides; a filled one gets its stop), instead of waiting for the next
   * reconciliation. Answers the trade when it is now open and listed, 'gone' when the dead open never reached
   * the exchange (its row is deleted, so the signal can be traded afresh), 'closed' when its position was found
   * closed (recorded; the signal is traded), 'unsettled' otherwise (another instance holds it). An exchange
   * failure is answered as the route answers it (400 refused, 502 otherwise).
   */
  async settleDeadOpen(
    found: TradeWithSymbol,
    client: ExchangeClient,
  ): Promise<{ state: 'open'; row: TradeRow } | { state: 'gone' | 'closed' | 'unsettled' }> {
    try {
      await this.check([found], client, { mode: 'repair' });
    } catch (error) {
      if (error instanceof ExchangeError) throw exchangeHttpError(error);
      throw error;
    }
    const [row] = await this.options.db
      .select()
      .from(trades)
      .where(eq(trades.trade_uuid, found.trade.trade_uuid));
    if (!row) return { state: 'gone' };
    if (row.trade_status !== TradeStatus.OPEN) return { state: 'closed' };
    return isListable(row) ? { state: 'open', row } : { state: 'unsettled' };
  }

  /**
   * Before a server-mode open on a symbol (issue 35): the trader's open server-mode trades there whose exits
   * the exchange holds are checked first. One the exchange closed meanwhile is recorded, and the exits it left
   * waiting are cancelled, as they would act on the new position. No call when there is none.
   */
  async settleExitsBeforeOpen(
    userUuid: string,
    platformUuid: string,
    symbolUuid: string,
    client: ExchangeClient,
  ): Promise<void> {
    const rows = await this.serverTrades(userUuid, platformUuid, symbolUuid);
    const held = rows.filter((found) => exitsHeldByExchange(found.trade.trade_exits));
    if (held.length > 0) await this.check(held, client, { mode: 'reconcile' });
    await this.cancelWaitingOrders(userUuid, platformUuid, client, symbolUuid);
  }

  /**
   * The orders that closed server-mode trades left waiting on the exchange (issue 37: the user data stream
   * recorded the close and marked them, holding no secret to cancel them) are cancelled with the key now,
   * before they can act on a later position of the symbol. No call when none is marked.
   */
  async cancelWaitingOrders(
    userUuid: string,
    platformUuid: string,
    client: ExchangeClient,
    symbolUuid?: string,
  ): Promise<void> {
    const marked = await this.options.db
      .select({
        trade_uuid: trades.trade_uuid,
        waiting: trades.trade_exits_waiting,
        pair: symbols.symbol_pair,
      })
      .from(trades)
      .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
      .where(
        and(
          eq(trades.user_uuid, userUuid),
          eq(trades.platform_uuid, platformUuid),
          eq(trades.trade_in_server_side, 1),
          symbolUuid === undefined ? undefined : eq(trades.symbol_uuid, symbolUuid),
          isNotNull(trades.trade_exits_waiting),
        ),
      );
    for (const { trade_uuid, waiting, pair } of marked) {
      await Promise.all(
        (waiting ?? []).map((id) =>
          id.startsWith('sds') ? cancelQuietly(client, pair, id) : cancelExitQuietly(client, id),
        ),
      );
      await this.options.db
        .update(trades)
        .set({ trade_exits_waiting: null })
        .where(eq(trades.trade_uuid, trade_uuid));
    }
  }

  /** Open trades with trade_error set, plus 'opening' rows older than STALE_OPENING_MS. */
  async errorTrades(userUuid: string): Promise<TradeWithSymbol[]> {
    const staleBefore = new Date(this.options.clock() - STALE_OPENING_MS);
    return this.select(
      and(
        eq(trades.user_uuid, userUuid),
        eq(trades.trade_status, TradeStatus.OPEN),
        or(
          isNotNull(trades.trade_error),
          and(eq(trades.trade_phase, OPENING_PHASE), lt(trades.trade_create_timestamp, staleBefore)),
        ),
        // A row trade-core cannot price (issue 52) has nothing a repair could compute: it stays as it is.
        or(isNull(trades.trade_error), ne(trades.trade_error, TradeError.UNPRICEABLE)),
      ),
    );
  }

  /**
   * The user's open server-mode trades on a platform (on one symbol when given), except 'opening' rows of an
   * open still running.
   */
  private async serverTrades(
    userUuid: string,
    platformUuid: string,
    symbolUuid?: string,
  ): Promise<TradeWithSymbol[]> {
    const staleBefore = new Date(this.options.clock() - STALE_OPENING_MS);
    return this.select(
      and(
        eq(trades.user_uuid, userUuid),
        eq(trades.platform_uuid, platformUuid),
        symbolUuid === undefined ? undefined : eq(trades.symbol_uuid, symbolUuid),
        eq(trades.trade_in_server_side, 1),
        eq(trades.trade_status, TradeStatus.OPEN),
        or(eq(trades.trade_phase, READY_PHASE), lt(trades.trade_create_timestamp, staleBefore)),
      ),
    );
  }

  private async select(where: ReturnType<typeof and>): Promise<TradeWithSymbol[]> {
    return this.options.db
      .select({ trade: trades, symbol: symbols })
      .from(trades)
      .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
      .where(where);
  }

  /** checkPositions for trades of one platform, each result recorded; returns how many trades it repaired. */
  private async check(rows: TradeWithSymbol[], client: ExchangeClient, how: Check): Promise<number> {
    const claimed = new Set(this.desk.claim(rows.map((found) => found.trade.trade_uuid)));
    const free = rows.filter((found) => claimed.has(found.trade.trade_uuid));
    if (free.length === 0) return 0;
    try {
      const results = await checkPositions(
        client,
        free.map(({ trade, symbol }) => ({
          trade_uuid: trade.trade_uuid,
          symbol_pair: symbol.symbol_pair,
          trade_direction: trade.trade_direction === 'SELL' ? 'SELL' : 'BUY',
          trade_stop_order_id: trade.trade_stop_order_id,
          trade_order_id: trade.trade_order_id,
          trade_exits_held: exitsHeldByExchange(trade.trade_exits),
        })),
      );
      let count = 0;
      for (const result of results) {
        const found = free.find((item) => item.trade.trade_uuid === result.trade_uuid);
        if (found && (await this.apply(found, await ownFill(client, found, result), client, how))) count += 1;
      }
      return count;
    } finally {
      this.desk.release([...claimed]);
    }
  }

  /** Records one exchange check; true when the trade was repaired (its error or state resolved). */
  private async apply(
    found: TradeWithSymbol,
    result: OwnCheck,
    client: ExchangeClient,
    how: Check,
  ): Promise<boolean> {
    const row = found.trade;
    const incomplete = row.trade_error === TradeError.OPEN_INCOMPLETE || row.trade_phase === OPENING_PHASE;
    if (result.state === 'never_opened') {
      if (incomplete) {
        await deleteTrade(this.options.db, row.trade_uuid);
        this.desk.monitor.forget(row.trade_uuid);
        return true;
      }
      // A confirmed position the exchange does not know: closed outside Signaldesk, price unknown.
      return this.markPositionMissing(row);
    }
    if (result.state === 'closed') {
      const price = result.trade_close_price ?? this.desk.monitor.currentPrice(found.symbol.symbol_pair);
      if (!price) return this.markPositionMissing(row);
      // The fill's commission only with the fill's price: a close price guessed from the market is not its.
      const commission = result.trade_close_price ? result.trade_close_commission : undefined;
      return (await this.desk.recordClose(found, result.trade_status, price, commission)) !== undefined;
    }
    // The position is open on the exchange.
    const learnt = !row.trade_open_price || !row.trade_quantity;
    const quantity = learnt ? result.trade_quantity : row.trade_quantity!;
    const entry = learnt ? result.trade_open_price : row.trade_open_price!;
    let trade_error = row.trade_error;
    let stop: ProtectedPosition | undefined;
    // No stop yet: an open interrupted after its market order (the process died, or the order's answer was
    // lost) gets the stop the open would have placed next; a stop_missing trade gets it when the trader asks
    // for the repair. Refused again, the trade stays (or becomes) stop_missing and is shown so.
    const protect =
      !row.trade_stop_order_id &&
      (incomplete || (row.trade_error === TradeError.STOP_MISSING && how.mode === 'repair'));
    if (protect) {
      stop = await protectPosition(client, {
        symbol_pair: found.symbol.symbol_pair,
        trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
        trade_quantity: quantity,
        trade_open_price: entry,
        trade_leverage: row.trade_leverage,
        trade_stop_loss_percent: row.trade_stop_loss_percent,
        symbol_price_precision: found.symbol.symbol_price_precision,
        signal_uuid: row.signal_uuid,
      });
      if (stop.stop_error) {
        this.options.log.warn(
          { trade_uuid: row.trade_uuid, message: stop.stop_error.message },
          'trades: the stop of an open position could not be placed',
        );
      }
      trade_error = stop.trade_stop_order_id ? null : TradeError.STOP_MISSING;
    } else if (incomplete || row.trade_error === TradeError.POSITION_MISSING) {
      trade_error = row.trade_stop_order_id ? null : TradeError.STOP_MISSING;
    }
    if (!learnt && !stop && trade_error === row.trade_error && row.trade_phase === READY_PHASE) return false;
    // A position learnt only now gets what its open would have read after the MARKET order (issue 18).
    const costs = learnt
      ? await readCostColumns(client, found.symbol, positionAt(row, entry, quantity), result.orderId)
      : {};
    const updated = await updateTrade(this.options.db, row.trade_uuid, {
      trade_phase: READY_PHASE,
      trade_error,
      ...(learnt ? { trade_open_price: entry, trade_quantity: quantity, trade_current_price: entry } : {}),
      ...costs,
      ...(stop?.trade_stop_order_id
        ? {
            trade_stop_order_id: stop.trade_stop_order_id,
            trade_stop_price: stop.trade_stop_price,
            trade_backstop: stop.trade_backstop ?? null,
          }
        : {}),
      ...(stop && !row.trade_stop_price ? { trade_stop_price: stop.trade_stop_price } : {}),
    });
    if (updated) {
      this.desk.monitor.watch({ ...updated, symbol_pair: found.symbol.symbol_pair });
      this.tellOwner(updated);
    }
    return trade_error !== row.trade_error || learnt || stop?.trade_stop_order_id != null;
  }

  private async markPositionMissing(row: TradeRow): Promise<boolean> {
    if (row.trade_error !== TradeError.POSITION_MISSING) {
      const updated = await updateTrade(this.options.db, row.trade_uuid, {
        trade_error: TradeError.POSITION_MISSING,
      });
      if (updated) this.tellOwner(updated);
    }
    return false;
  }

  /**
   * What reconciliation or repair changed reaches the owner's sockets at once (trade_updated_response_from_core):
   * a trade the SPA did not list yet (an open completed after a restart) makes it read the list again, where
   * the trade shows with its trade_error. Nothing the exchange did to a trader's money stays unseen.
   */
  private tellOwner(row: TradeRow): void {
    if (!isListable(row)) return;
    this.desk.notify(
      row.user_uuid,
      row.trade_uuid,
      this.desk.monitor.calculated(row.trade_uuid) ?? calculatedOf(row),
    );
  }

  /** The repairs that need no exchange call. */
  private async repairWithoutExchange(found: TradeWithSymbol): Promise<boolean> {
    const row = found.trade;
    const incomplete = row.trade_error === TradeError.OPEN_INCOMPLETE || row.trade_phase === OPENING_PHASE;
    if (incomplete && !row.trade_order_id) {
      // No market order was ever sent for it: nothing can be open on the exchange.
      await deleteTrade(this.options.db, row.trade_uuid);
      this.desk.monitor.forget(row.trade_uuid);
      return true;
    }
    if (row.trade_error === TradeError.POSITION_MISSING) {
      const closed = await this.desk.recordClose(
        found,
        TradeStatus.MANUAL_CLOSE,
        this.desk.currentPriceOf(found),
      );
      return closed !== undefined;
    }
    return false;
  }
}

/**
 * One-way mode keeps one position per symbol, so checkPositions reads an open position on the trade's side as
 * the trade's. For a trade whose open was not confirmed that may be another trade's position: its own market
 * order (by client id) decides whether it opened, and gives its own entry price and quantity.
 */
async function ownFill(
  client: ExchangeClient,
  { trade, symbol }: TradeWithSymbol,
  result: PositionCheck,
): Promise<OwnCheck> {
  const unconfirmed = trade.trade_error === TradeError.OPEN_INCOMPLETE || trade.trade_phase === OPENING_PHASE;
  if (result.state !== 'open' || !unconfirmed || !trade.trade_order_id) return result;
  const order = await client.getOrder(symbol.symbol_pair, trade.trade_order_id);
  if (!order || compareDecimals(order.executedQty, '0') <= 0) {
    return { trade_uuid: trade.trade_uuid, state: 'never_opened' };
  }
  return {
    ...result,
    trade_open_price: order.avgPrice,
    trade_quantity: order.executedQty,
    orderId: order.orderId,
  };
}

/** A check, with the exchange's id of the trade's own market order when ownFill read it (its fills). */
type OwnCheck = PositionCheck & { orderId?: number };

/** The exchange client of a platform's server-mode token; undefined when the user has no such token. */
async function openTokenOrSkip(
  access: TradeTokenAccess,
  userUuid: string,
  platformUuid: string,
  pin: string,
): Promise<{ client: ExchangeClient; tokenUuid: string } | undefined> {
  try {
    const opened = await access.open(userUuid, platformUuid, pin);
    return {
      client: serverExchangeClient(opened.platform.base_url, opened.content, userUuid),
      tokenUuid: opened.row.trade_token_uuid,
    };
  } catch (error) {
    if (error instanceof WrongPinError) throw new HttpError(403, TradeTokenMessage.WRONG_PIN_CODE);
    // A PIN of a client-mode token (no server-mode token for the platform) is not for us.
    if (error instanceof HttpError && error.statusCode === 404) return undefined;
    throw error;
  }
}
