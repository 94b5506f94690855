// The countdown of a trade's UI status (SPEC.md §4 "Trade status and UI status") and what happens at zero.
// README "Automatic closing": trade_auto_close_delay 0 means OFF — Signaldesk never closes a trade by itself;
// the defaults (50 s; 30 s for direction_signal) are then how long the status stays lit before it resets to
// open. With a delay of 1 s or more the countdown is that delay and at zero the trade is closed with the
// status (direction_signal only resets to open). A take profit or trailing stop the exchange holds (issue 35) is
// closed by the exchange, not by the countdown: its status stays lit for the default time and resets.
import { TradeUiStatus, type TradeExits } from '../../../contracts';
import { TRADE_UI_STATUS_DEFAULT_S } from '../../config/constants';

export const UiStatusAction = { CLOSE: 'close', RESET: 'reset' } as const;
export type UiStatusAction = (typeof UiStatusAction)[keyof typeof UiStatusAction];

export interface UiStatusPlan {
  /** Length of the countdown, seconds. */
  durationS: number;
  /** What the countdown does at zero. */
  action: UiStatusAction;
}

/** The exchange holds the exit a UI status names (issue 35): the exchange closes the trade, not Signaldesk. */
export function isClosedByExchange(uiStatus: TradeUiStatus, exits: TradeExits | null | undefined): boolean {
  if (uiStatus === TradeUiStatus.TAKE_PROFIT) return exits?.take_profit.held_by === 'exchange';
  if (uiStatus === TradeUiStatus.TREILING_STOP) return exits?.trailing.held_by === 'exchange';
  return false;
}

/**
 * The countdown of a UI status under trade_auto_close_delay (seconds; 0 is OFF), for a trade whose exits are
 * held as `exits` says (null: Signaldesk holds both).
 */
export function uiStatusPlan(
  uiStatus: TradeUiStatus,
  autoCloseDelayS: number,
  exits?: TradeExits | null,
): UiStatusPlan {
  if (autoCloseDelayS >= 1 && !isClosedByExchange(uiStatus, exits)) {
    return {
      durationS: autoCloseDelayS,
      action: uiStatus === TradeUiStatus.DIRECTION_SIGNAL ? UiStatusAction.RESET : UiStatusAction.CLOSE,
    };
  }
  return { durationS: TRADE_UI_STATUS_DEFAULT_S[uiStatus], action: UiStatusAction.RESET };
}

/** Whole seconds since the status was first seen. */
export function uiStatusElapsedS(sinceMs: number, nowMs: number): number {
  return Math.floor(Math.max(0, nowMs - sinceMs) / 1000);
}

/** Whole seconds left on the countdown: durationS when first seen, 0 when it is due. */
export function uiStatusSecondsLeft(sinceMs: number, nowMs: number, durationS: number): number {
  return Math.max(0, durationS - uiStatusElapsedS(sinceMs, nowMs));
}
