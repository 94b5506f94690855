// The session's clock for the UI statuses of open trades (SPEC.md §4): every second, a status whose countdown
// reached zero is acted on once — the trade is closed with the status, or reset to open (trade-ui-status.ts).
// It runs for a logged-in trader whichever page is shown, like the signal cards' clock.
import { useEffect } from 'react';
import { CLOSING_STATUS_OF_UI_STATUS } from '../../../contracts';
import { TRADE_STATUS_TICK_MS } from '../../config/constants';
import { preferencesStore } from '../../stores/preferences-store';
import { uiStatusPlan, uiStatusSecondsLeft, UiStatusAction } from './trade-ui-status';
import { closeTrade, resetTradeStatus } from './trades-actions';
import { tradesStore } from './trades-store';

/** Acts on every due UI status once; `handled` remembers trade_uuid → the status start it acted on. */
function actOnDueUiStatuses(handled: Map<string, number>, nowMs: number = Date.now()): void {
  const delayS = preferencesStore.trade_preferences?.trade_auto_close_delay ?? 0;
  for (const [tradeUuid, sinceMs] of Object.entries(tradesStore.ui_status_since_by_uuid)) {
    const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
    const uiStatus = trade?.trade_ui_status;
    if (!uiStatus || handled.get(tradeUuid) === sinceMs) continue;
    const plan = uiStatusPlan(uiStatus, delayS, trade.trade_exits);
    if (uiStatusSecondsLeft(sinceMs, nowMs, plan.durationS) > 0) continue;
    handled.set(tradeUuid, sinceMs);
    if (plan.action === UiStatusAction.CLOSE)
      void closeTrade(tradeUuid, CLOSING_STATUS_OF_UI_STATUS[uiStatus]);
    else void resetTradeStatus(tradeUuid);
  }
  for (const tradeUuid of handled.keys()) {
    if (tradesStore.ui_status_since_by_uuid[tradeUuid] === undefined) handled.delete(tradeUuid);
  }
}

export function useTradeStatusTimers(isActive: boolean): void {
  useEffect(() => {
    if (!isActive) return;
    const handled = new Map<string, number>();
    const timer = setInterval(() => actOnDueUiStatuses(handled), TRADE_STATUS_TICK_MS);
    return () => clearInterval(timer);
  }, [isActive]);
}
