import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { CLOSING_STATUS_OF_UI_STATUS, TradeUiStatus, type TradeExits } from '../../../../contracts';
import { statusBadgeLook } from '../../../components/ui/status-badge';
import { preferencesStore } from '../../../stores/preferences-store';
import {
  UiStatusAction,
  isClosedByExchange,
  uiStatusElapsedS,
  uiStatusPlan,
  uiStatusSecondsLeft,
} from '../trade-ui-status';
import { resetTradeStatus } from '../trades-actions';
import { formatDate } from '../../../lib/i18n';
import { useSecondClock } from '../../../lib/use-second-clock';

export interface TradeStatusButtonProps {
  tradeUuid: string;
  uiStatus: TradeUiStatus;
  /** Epoch ms at which the status was first seen. */
  sinceMs: number;
  isProcessing: boolean;
  /** Where the trade's exits are held (issue 35): one the exchange holds is not closed by the countdown. */
  exits?: TradeExits | null;
}

/**
 * The pulsing UI-status button of an open trade (SPEC.md §4 "The button alternates each second between an
 * elapsed counter and its label"): coloured like the status it leads to, it shows the seconds since the status
 * was set and its letters (TP, SL, TS, DS, RS) by turns, one each second. The countdown to what happens at zero
 * stays in the tooltip (seconds left, redrawn each second) and in the accessible name, which names the time of
 * day it runs out so it does not change each second (a screen reader is not told a new name every second). A
 * click resets the trade to open. What happens at zero is done by the session's clock
 * (use-trade-status-timers.ts); this button only shows it.
 */
export function TradeStatusButton({
  tradeUuid,
  uiStatus,
  sinceMs,
  isProcessing,
  exits,
}: TradeStatusButtonProps) {
  const { t } = useTranslation();
  const nowMs = useSecondClock();
  const { trade_preferences } = useSnapshot(preferencesStore);
  const delayS = trade_preferences?.trade_auto_close_delay ?? 0;
  const plan = uiStatusPlan(uiStatus, delayS, exits);
  const secondsLeft = uiStatusSecondsLeft(sinceMs, nowMs, plan.durationS);
  const elapsedS = uiStatusElapsedS(sinceMs, nowMs);
  const showsLetters = elapsedS % 2 === 1;
  const closingStatus = CLOSING_STATUS_OF_UI_STATUS[uiStatus];
  const look = statusBadgeLook(closingStatus);
  const statusName = t(`trade_status.${closingStatus}`);
  const key =
    plan.action === UiStatusAction.CLOSE
      ? 'closes'
      : isClosedByExchange(uiStatus, exits)
        ? 'exchange_closes'
        : delayS >= 1
          ? 'clears'
          : 'auto_close_off';
  // The tooltip's keys predate the accessible name's: 'closes_in' and 'clears_in', but 'auto_close_off'.
  const tooltipKey = key === 'closes' || key === 'clears' ? `${key}_in` : key;
  const tooltip = t(`trades.ui_status.${tooltipKey}`, { status: statusName, n: secondsLeft });
  const accessibleName = t(`trades.ui_status.${key}_at`, {
    status: statusName,
    time: formatDate('time_of_day_seconds', sinceMs + plan.durationS * 1000),
  });
  return (
    <button
      type="button"
      className={`status-badge trade-ui-status palette-${look?.palette ?? 'gray'}`}
      onClick={() => void resetTradeStatus(tradeUuid)}
      disabled={isProcessing}
      aria-busy={isProcessing}
      aria-label={accessibleName}
      title={tooltip}
      data-testid="trade-ui-status"
      data-ui-status={uiStatus}
      data-elapsed-s={elapsedS}
    >
      {showsLetters ? (look?.text ?? '…') : elapsedS}
    </button>
  );
}
