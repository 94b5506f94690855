// The per-trade rules of SPEC.md §4 "Trade status and UI status", pure: a trade's state and a price in, its new
// calculated fields and the UI status that rises out. The trade monitor applies them to every mark price of a
// live trade; the house replay of the backfill applies them to every minute's close of a replayed one. One
// implementation, so the house's replayed track record follows exactly the rules its live trades follow.
// - Each price: trade_current_price, trade_last_update_price (1 / -1 / 0 against the previous price), PNL and
//   ROE (trade-math.ts, trade-core decimals), the best ROE and the trailing level
//   max(previous level, best ROE − trade_treiling_stop_percent), starting at −trade_stop_loss_percent. The best
//   ROE is the best gain (ROE above 0): at the open and while the trade only lost, the level stays at −SL %.
// - UI statuses fire on an edge: only when their condition becomes true (the conditions of the last price are
//   kept). TAKE_PROFIT: ROE ≥ take profit %. STOP_LOSS: ROE ≤ −stop loss %. TREILING_STOP: the level has risen
//   above −stop loss % and ROE ≤ the level. When several become true on one price the protective one wins:
//   STOP_LOSS, then TREILING_STOP, then TAKE_PROFIT.
// - A signal on the trade's symbol whose accuracy reaches minimal_accuracy: DIRECTION_SIGNAL in the trade's
//   direction, else REVERSE_SIGNAL.
// - A UI status never replaces another one, except STOP_LOSS and TREILING_STOP replacing DIRECTION_SIGNAL.
import { TradeUiStatus, type SignalDirection } from '../../../contracts';
import { compareDecimals } from '../../../shared-core/trade-core-node';
import {
  percentText,
  pnlAndRoe,
  positionMargin,
  priceDirection,
  raiseTrailingLevel,
  type TradePosition,
} from '../services/trade-math';

/** Bits of the edge-trigger state (trades.monitor_conditions): the conditions that held at the last price. */
export const MonitorCondition = { TAKE_PROFIT: 1, STOP_LOSS: 2, TREILING_STOP: 4 } as const;

/** minimal_accuracy is a percent with two decimals (SPEC.md §5); this absorbs binary rounding only. */
const ACCURACY_TOLERANCE = 1e-9;

/** What a trade's rules are made of; fixed for the trade's life. */
export interface TradeTerms {
  position: TradePosition;
  /** Initial margin of the position (positionMargin), the divisor of its ROE. */
  margin: string;
  /** −trade_stop_loss_percent as a 2-decimal percent. */
  stopLevel: string;
  /** trade_take_profit_percent as a 2-decimal percent. */
  takeProfitLevel: string;
  trailingPercent: number;
}

export function tradeTerms(input: {
  position: TradePosition;
  stopLossPercent: number;
  takeProfitPercent: number;
  trailingPercent: number;
}): TradeTerms {
  return {
    position: input.position,
    margin: positionMargin(input.position),
    stopLevel: percentText(-input.stopLossPercent),
    takeProfitLevel: percentText(input.takeProfitPercent),
    trailingPercent: input.trailingPercent,
  };
}

/** The fields the rules move (named as the trades table names them). */
export interface TradeRuleState {
  trade_current_price: string;
  trade_last_update_price: -1 | 0 | 1;
  /** USDT, exact. */
  trade_pnl_current: string;
  /** Percent, 2 decimals. */
  trade_roe_current: string;
  /** The trailing level, percent, 2 decimals. */
  trade_treiling_stop_percent_current: string;
  /** The best gain seen (ROE above 0), null before the first. */
  trade_best_roe: string | null;
  /** MonitorCondition bits that held at the last price. */
  monitor_conditions: number;
}

export interface PriceStep {
  state: TradeRuleState;
  /** The UI status whose condition became true on this price, if any. */
  rises: TradeUiStatus | null;
}

/**
 * One price of the trade's symbol. `figures` is the position's PNL and ROE at `price` when the caller already has
 * them (the replay keeps them per price: a trade's prices come back again and again).
 */
export function applyPrice(
  terms: TradeTerms,
  state: TradeRuleState,
  price: string,
  figures: { pnl: string; roe: string } = pnlAndRoe(terms.position, price, terms.margin),
): PriceStep {
  const { pnl, roe } = figures;
  // The best ROE counts gains only: at the open (ROE 0) or while losing, the level stays −stop loss %.
  const gain = compareDecimals(roe, 0) > 0 ? roe : null;
  const previousBest = state.trade_best_roe;
  const best =
    gain !== null && (previousBest === null || compareDecimals(gain, previousBest) > 0) ? gain : previousBest;
  // Raising is idempotent: with the best ROE unchanged the level stays what the last price made it.
  const level =
    best === null || best === previousBest
      ? state.trade_treiling_stop_percent_current
      : raiseTrailingLevel(state.trade_treiling_stop_percent_current, best, terms.trailingPercent);

  let conditions = 0;
  // Take profit is at least 2 % and the stop level at most −5 % (SPEC.md §5): never both.
  if (compareDecimals(roe, terms.takeProfitLevel) >= 0) conditions |= MonitorCondition.TAKE_PROFIT;
  else if (compareDecimals(roe, terms.stopLevel) <= 0) conditions |= MonitorCondition.STOP_LOSS;
  // The level starts as the very text of −stop loss % (initialTrailingLevel): equal text has not risen.
  const risen = level !== terms.stopLevel && compareDecimals(level, terms.stopLevel) > 0;
  if (risen && compareDecimals(roe, level) <= 0) conditions |= MonitorCondition.TREILING_STOP;
  const rising = conditions & ~state.monitor_conditions;
  const rises =
    rising & MonitorCondition.STOP_LOSS
      ? TradeUiStatus.STOP_LOSS
      : rising & MonitorCondition.TREILING_STOP
        ? TradeUiStatus.TREILING_STOP
        : rising & MonitorCondition.TAKE_PROFIT
          ? TradeUiStatus.TAKE_PROFIT
          : null;
  return {
    state: {
      trade_current_price: price,
      trade_last_update_price: priceDirection(state.trade_current_price, price),
      trade_pnl_current: pnl,
      trade_roe_current: roe,
      trade_treiling_stop_percent_current: level,
      trade_best_roe: best,
      monitor_conditions: conditions,
    },
    rises,
  };
}

/** Whether a signal's accuracy (a fraction, null = never sent) reaches minimal_accuracy (a percent). */
export function reachesMinimalAccuracy(accuracy: number | null, minimalAccuracy: number): boolean {
  return accuracy !== null && accuracy * 100 + ACCURACY_TOLERANCE >= minimalAccuracy;
}

/** The UI status a signal on the trade's symbol gives it. */
export function signalUiStatus(
  tradeDirection: SignalDirection,
  signalDirection: string,
): typeof TradeUiStatus.DIRECTION_SIGNAL | typeof TradeUiStatus.REVERSE_SIGNAL {
  return signalDirection === tradeDirection ? TradeUiStatus.DIRECTION_SIGNAL : TradeUiStatus.REVERSE_SIGNAL;
}

/** Whether `next` may be shown on a trade that shows `current` (null: none). */
export function mayMark(current: TradeUiStatus | null, next: TradeUiStatus): boolean {
  if (current === null) return true;
  return (
    current === TradeUiStatus.DIRECTION_SIGNAL &&
    (next === TradeUiStatus.STOP_LOSS || next === TradeUiStatus.TREILING_STOP)
  );
}
