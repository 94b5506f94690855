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
 * The pulsing UI-status button of an open trade (SPEC.md §4): coloured like the status it leads to, it shows
 * its letters and the seconds left by turns, one each second. A click resets the trade to open. What happens
 * at zero is done by the session's clock (use-trade-status-timers.ts); this button only shows it.
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
  const showsLetters = uiStatusElapsedS(sinceMs, nowMs) % 2 === 1;
  const closingStatus = CLOSING_STATUS_OF_UI_STATUS[uiStatus];
  const look = statusBadgeLook(closingStatus);
  const statusName = t(`trade_status.${closingStatus}`);
  const tooltip =
    plan.action === UiStatusAction.CLOSE
      ? t('trades.ui_status.closes_in', { status: statusName, n: secondsLeft })
      : isClosedByExchange(uiStatus, exits)
        ? t('trades.ui_status.exchange_closes', { status: statusName, n: secondsLeft })
        : delayS >= 1
          ? t('trades.ui_status.clears_in', { status: statusName, n: secondsLeft })
          : t('trades.ui_status.auto_close_off', { status: statusName, n: secondsLeft });
  return (
    <button
      type="button"
      className={`status-badge trade-ui-status palette-${look?.palette ?? 'gray'}`}
      onClick={() => void resetTradeStatus(tradeUuid)}
      disabled={isProcessing}
      aria-busy={isProcessing}
      aria-label={tooltip}
      title={tooltip}
      data-testid="trade-ui-status"
      data-ui-status={uiStatus}
    >
      {showsLetters ? (look?.text ?? '…') : secondsLeft}
    </button>
  );
}
