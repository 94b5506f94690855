// Closing stored trades (both modes; SPEC.md §4 "Closing a trade"): the realized PNL and ROE with trade-core,
// one close per trade at a time, and the owner told over the websocket. Reconciliation with the exchange and
// the repair of error trades live in trade-reconciler.ts. Rules: docs/decisions.md "Trading".
import { and, eq } from 'drizzle-orm';
import { TradeStatus, type ClosingTradeStatus, type TradeCalculated } from '../../../contracts';
import type { Database } from '../db';
import { trades, type TradeRow } from '../db/schema-trades';
import { HttpError } from '../http-error';
import type { LiveTrades } from './live-trades';
import type { CloseExtra } from './closing-desk';
import { OpenTradesView } from './open-trades-view';
import type { SocketHub } from './socket-hub';
import {
  closeCommissionAt,
  netPnlAndRoe,
  pnlAndRoe,
  positionMargin,
  priceDirection,
  tradeFees,
} from './trade-math';
import { TradeReconciler } from './trade-reconciler';
import { READY_PHASE, announceTradeWrite, calculatedOf, isListable, type TradeWithSymbol } from './trades';
import { positionOf } from './trade-costs';
import type { WebPush } from './web-push';

declare module 'fastify' {
  interface FastifyInstance {
    tradeDesk: TradeDesk;
  }
}

export interface TradeDeskOptions {
  db: Database;
  hub: SocketHub;
  monitor: LiveTrades;
  log: { warn(obj: object, msg: string): void };
  clock: () => number;
  /** Web Push to the trader's devices (issue 41): opens and closes are sent from here, where they are born. */
  push?: WebPush;
}

export class TradeDesk {
  /** Trades with a close or an exchange check under way in this process. */
  private readonly busy = new Set<string>();
  /** Reconciliation with the exchange and the repair of error trades (trade-reconciler.ts). */
  readonly reconciler: TradeReconciler;
  /** Every trader's open list, served from memory (open-trades-view.ts). */
  readonly openTrades: OpenTradesView;

  constructor(private readonly options: TradeDeskOptions) {
    this.reconciler = new TradeReconciler(this, options);
    this.openTrades = new OpenTradesView(options.db, options.monitor);
  }

  get monitor(): LiveTrades {
    return this.options.monitor;
  }

  now(): Date {
    return new Date(this.options.clock());
  }

  /** Marks trades busy unless they are; answers the ones it marked (release them with release()). */
  claim(tradeUuids: readonly string[]): string[] {
    const claimed = tradeUuids.filter((uuid) => !this.busy.has(uuid));
    for (const uuid of claimed) this.busy.add(uuid);
    return claimed;
  }

  release(tradeUuids: readonly string[]): void {
    for (const uuid of tradeUuids) this.busy.delete(uuid);
  }

  /** Resolves when background reconciliations and the monitor's pending writes are done. */
  async idle(): Promise<void> {
    await this.reconciler.idle();
    await this.monitor.idle();
  }

  /** Runs `task` while no other close or check of the trade runs here; 409 otherwise. */
  async exclusively<T>(tradeUuid: string, task: () => Promise<T>): Promise<T> {
    if (this.busy.has(tradeUuid)) throw new HttpError(409, 'The trade is being closed or checked');
    this.busy.add(tradeUuid);
    try {
      return await task();
    } finally {
      this.busy.delete(tradeUuid);
    }
  }

  /** The close price when none is reported: the current mark price, else the trade's last known price. */
  currentPriceOf({ trade, symbol }: TradeWithSymbol): string {
    return (
      this.monitor.currentPrice(symbol.symbol_pair) ??
      this.monitor.calculated(trade.trade_uuid)?.trade_current_price ??
      trade.trade_current_price ??
      trade.trade_open_price ??
      '0'
    );
  }

  /**
   * Records a close at `closePrice`: realized PNL and ROE (trade-core), the status and close time; the monitor
   * forgets the trade and the owner gets trade_updated_response_from_core. Undefined when it was closed already.
   * `closeCommission` is the closing fill's commission as the exchange reported it; unknown, it is the opening
   * fill's taker rate × quantity × the close price (a MARKET close is charged that rate; issue 18). The realized
   * PNL and ROE net of both commissions are stored beside the gross ones.
   */
  async recordClose(
    found: TradeWithSymbol,
    status: ClosingTradeStatus,
    closePrice: string,
    closeCommission?: string,
    extra: CloseExtra = {},
  ): Promise<TradeRow | undefined> {
    const row = found.trade;
    const live = this.monitor.calculated(row.trade_uuid);
    const now = this.now();
    const position = positionOf(row);
    const realized = position ? pnlAndRoe(position, closePrice) : undefined;
    const fees = position ? tradeFees(row.trade_open_commission, position) : undefined;
    const commission = closeCommission ?? (fees ? closeCommissionAt(fees, closePrice) : undefined);
    const net =
      position && realized && row.trade_open_commission !== null && commission !== undefined
        ? netPnlAndRoe(realized.pnl, row.trade_open_commission, commission, positionMargin(position))
        : undefined;
    const [closed] = await this.options.db
      .update(trades)
      .set({
        trade_status: status,
        trade_phase: READY_PHASE,
        trade_close_price: closePrice,
        trade_current_price: closePrice,
        trade_last_update_price: priceDirection(
          live?.trade_current_price ?? row.trade_current_price,
          closePrice,
        ),
        ...(realized ? { trade_pnl_current: realized.pnl, trade_roe_current: realized.roe } : {}),
        trade_close_commission: commission ?? null,
        trade_pnl_net: net?.pnlNet ?? null,
        trade_roe_net: net?.roeNet ?? null,
        trade_treiling_stop_percent_current:
          live?.trade_treiling_stop_percent_current ?? row.trade_treiling_stop_percent_current,
        trade_ui_status: null,
        trade_error: null,
        trade_close_timestamp: now,
        trade_update_timestamp: now,
        trade_close_announced: false,
        ...extra,
      })
      .where(and(eq(trades.trade_uuid, row.trade_uuid), eq(trades.trade_status, TradeStatus.OPEN)))
      .returning();
    this.monitor.forget(row.trade_uuid);
    if (!closed) return undefined;
    announceTradeWrite(this.options.db, closed.user_uuid);
    if (isListable(closed)) this.notify(closed.user_uuid, closed.trade_uuid, calculatedOf(closed));
    this.options.push?.tradeClosed(closed, found.symbol.symbol_pair);
    return closed;
  }

  /**
   * A trade just opened (either mode, its position recorded): every socket of the owner hears of it, and the
   * owner's devices are pushed the open — and a warning when the exchange holds no stop for it.
   */
  announceOpen(trade: TradeRow, symbolPair: string, calculated: TradeCalculated): void {
    this.notify(trade.user_uuid, trade.trade_uuid, calculated);
    this.options.push?.tradeOpened(trade, symbolPair, !trade.trade_stop_order_id);
  }

  /** trade_updated_response_from_core to every socket of the trade's owner. */
  notify(userUuid: string, tradeUuid: string, calculated: TradeCalculated): void {
    this.options.hub.sendToUser(userUuid, {
      event: 'trade_updated_response_from_core',
      message: { trade_uuid: tradeUuid, trade_update_calculated: calculated },
    });
  }
}
