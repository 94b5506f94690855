// What the trade reconciler needs of the trade desk (services/trade-desk.ts builds the reconciler and is one),
// in a module of its own so that the reconciler imports neither the desk nor the monitor.
import type { ClosingTradeStatus, TradeCalculated } from '../../../contracts';
import type { TradeRow } from '../db/schema-trades';
import type { LiveTrades } from './live-trades';
import type { TradeWithSymbol } from './trades';

/**
 * What the reconciler needs of the trade desk (services/trade-desk.ts builds the reconciler and is one): the
 * busy marks of the trades, the monitor, and recording a close. Declared here so the reconciler does not
 * import the desk.
 */
export interface ClosingDesk {
  claim(tradeUuids: readonly string[]): string[];
  release(tradeUuids: readonly string[]): void;
  readonly monitor: LiveTrades;
  recordClose(
    found: TradeWithSymbol,
    status: ClosingTradeStatus,
    closePrice: string,
    closeCommission?: string,
    extra?: CloseExtra,
  ): Promise<TradeRow | undefined>;
  notify(userUuid: string, tradeUuid: string, calculated: TradeCalculated): void;
  currentPriceOf(found: TradeWithSymbol): string;
}

/**
 * What a close seen on the exchange's user data stream records beside it (issue 37): why a manual_close happened
 * and the orders it left waiting on the exchange.
 */
export interface CloseExtra {
  trade_close_cause?: string | null;
  trade_exits_waiting?: string[] | null;
  /** True when a page asked for the close (it tells its trader); otherwise a page claims it later (issue 53). */
  trade_close_announced?: boolean;
}
