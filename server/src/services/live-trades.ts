// What the services need of the trade monitor (engine/trade-monitor.ts implements it): the live fields of the
// open trades it watches, and being told which to watch. Declared here because the engine runs on the services
// and not the other way round (server/README.md): the desk, the reconciler and the open-trades view use the
// monitor the engine built without importing the engine.
import type { TradeCalculated } from '../../../contracts';
import type { TradeRow } from '../db/schema-trades';

/** What watching a trade needs: its row and its symbol pair. */
export type WatchableTrade = TradeRow & { symbol_pair: string };

export interface LiveTrades {
  /** Starts (or restarts) watching an open trade whose price and quantity are known, on every instance. */
  watch(row: WatchableTrade): void;
  /** Stops watching a trade (closed or removed) on every instance. */
  forget(tradeUuid: string): void;
  /** The live calculated fields of a watched trade. */
  calculated(tradeUuid: string): TradeCalculated | undefined;
  /** The latest mark price of a symbol pair. */
  currentPrice(symbolPair: string): string | undefined;
  /** Changes whenever a watched trade of the user changes, is watched or is forgotten. */
  liveRevision(userUuid: string): number;
  /** Resets a watched trade to open with no UI status and stores it (POST /trade/update_trade_status/). */
  resetUiStatus(tradeUuid: string): Promise<TradeCalculated | undefined>;
  /** Resolves when every write asked for so far is done. */
  idle(): Promise<void>;
}
