// The session's clock for the UI statuses of open trades (SPEC.md §4): every second, a status whose countdown
// reached zero is acted on once — the trade is closed with the status, or reset to open (trade-ui-status.ts).
// It runs for a logged-in trader whichever page is shown, like the signal cards' clock. A take profit or trailing
// stop the exchange holds (issue 35) is closed by the exchange: EXCHANGE_EXIT_CHECK_S after it is flagged the
// platform's balance is read, whose reconciliation records that close (both modes), instead of the next 30 s read.
import { useEffect } from 'react';
import { CLOSING_STATUS_OF_UI_STATUS } from '../../../contracts';
import { EXCHANGE_EXIT_CHECK_S, TRADE_STATUS_TICK_MS } from '../../config/constants';
import { preferencesStore } from '../../stores/preferences-store';
import {
  isClosedByExchange,
  uiStatusElapsedS,
  uiStatusPlan,
  uiStatusSecondsLeft,
  UiStatusAction,
} from './trade-ui-status';
import { closeTrade, resetTradeStatus } from './trades-actions';
import { tradesStore } from './trades-store';

/** What the clock has done: trade_uuid → the status start it acted on, and the one it checked the exchange for. */
interface Handled {
  acted: Map<string, number>;
  checked: Map<string, number>;
}

/**
 * Acts on every due UI status once, and asks `checkExchange` once per platform and tick for the platforms whose
 * exchange-held exit was flagged EXCHANGE_EXIT_CHECK_S ago.
 */
function actOnDueUiStatuses(
  { acted: handled, checked }: Handled,
  checkExchange: ((platformUuid: string) => void) | undefined,
  nowMs: number = Date.now(),
): void {
  const delayS = preferencesStore.trade_preferences?.trade_auto_close_delay ?? 0;
  const toCheck = new Set<string>();
  for (const [tradeUuid, sinceMs] of Object.entries(tradesStore.ui_status_since_by_uuid)) {
    const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
    const uiStatus = trade?.trade_ui_status;
    if (
      uiStatus &&
      checkExchange &&
      checked.get(tradeUuid) !== sinceMs &&
      isClosedByExchange(uiStatus, trade.trade_exits) &&
      uiStatusElapsedS(sinceMs, nowMs) >= EXCHANGE_EXIT_CHECK_S
    ) {
      checked.set(tradeUuid, sinceMs);
      toCheck.add(trade.platform_uuid);
    }
    if (!uiStatus || handled.get(tradeUuid) === sinceMs) continue;
    const plan = uiStatusPlan(uiStatus, delayS, trade.trade_exits);
    if (uiStatusSecondsLeft(sinceMs, nowMs, plan.durationS) > 0) continue;
    handled.set(tradeUuid, sinceMs);
    if (plan.action === UiStatusAction.CLOSE)
      void closeTrade(tradeUuid, CLOSING_STATUS_OF_UI_STATUS[uiStatus]);
    else void resetTradeStatus(tradeUuid);
  }
  for (const map of [handled, checked]) {
    for (const tradeUuid of map.keys()) {
      if (tradesStore.ui_status_since_by_uuid[tradeUuid] === undefined) map.delete(tradeUuid);
    }
  }
  for (const platformUuid of toCheck) checkExchange!(platformUuid);
}

/**
 * The session's clock of UI statuses; `checkExchange` reads a platform's balance (and so reconciles its trades)
 * when an exit the exchange holds was flagged.
 */
export function useTradeStatusTimers(
  isActive: boolean,
  checkExchange?: (platformUuid: string) => void,
): void {
  useEffect(() => {
    if (!isActive) return;
    const handled: Handled = { acted: new Map(), checked: new Map() };
    const timer = setInterval(() => actOnDueUiStatuses(handled, checkExchange), TRADE_STATUS_TICK_MS);
    return () => clearInterval(timer);
  }, [isActive, checkExchange]);
}
