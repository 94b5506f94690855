// The trade button and the auto-open timer of a signal card both come here (SPEC.md §4 "Signal card"). What
// opening a trade means is the app's rule (app/signal-trading.ts): the card is handed it as `openTrade`.
import type { Signal } from '../../../contracts';
import { compareDecimals, mulDecimals } from '../../../shared-core/trade-core';
import { TradeTokenLevel } from '../../stores/token-level';
import { setSignalProcessing, signalsStore } from './signals-store';

/** The trade button is enabled only when the platform's token level is TRADE_AVAILABLE (SPEC.md §4). */
export function canTradeSignal(tokenLevel: number | undefined): boolean {
  return tokenLevel === TradeTokenLevel.TRADE_AVAILABLE;
}

/** How a card asks for its trade: with the smallest margin the exchange takes (issue 53), else the settings'. */
export interface OpenTradeOptions {
  margin?: number;
}

/** Opens a trade from a signal; the app's openTradeFromSignal. */
export type OpenTradeFromSignal = (signalUuid: string, options?: OpenTradeOptions) => Promise<void>;

/** Opens a trade from a card once at a time: the card shows 'processing' until the attempt ends. */
export async function tradeFromSignal(
  signalUuid: string,
  openTrade: OpenTradeFromSignal,
  options?: OpenTradeOptions,
): Promise<void> {
  if (signalsStore.processing_by_uuid[signalUuid] || !signalsStore.signal_by_uuid[signalUuid]) return;
  setSignalProcessing(signalUuid, true);
  try {
    await (options ? openTrade(signalUuid, options) : openTrade(signalUuid));
  } catch (error) {
    // The trading flow reports its own failures as notifications; nothing may escape a click handler.
    console.error(error);
  } finally {
    setSignalProcessing(signalUuid, false);
  }
}

export interface AutoOpenContext {
  /** trade_auto_open_delay in seconds; 0 is OFF (SPEC.md §3, §4). */
  autoOpenDelayS: number;
  /** minimal_accuracy in percent, when the preferences are known. */
  minimalAccuracyPercent: number | undefined;
  tokenLevel: number | undefined;
  /** False when the exchange would refuse the order with the trader's settings (issue 53): never opened alone. */
  placeable?: boolean;
}

/**
 * Whether a card should be traded automatically now: auto-open is on, the countdown has run the delay, the
 * trade button would be enabled, and the signal's accuracy reaches minimal_accuracy (the preference is the
 * lowest accuracy the trader acts on; a card below it stays for a manual decision).
 */
export function isAutoOpenDue(
  signal: Pick<Signal, 'signal_accuracy'>,
  elapsedMs: number,
  context: AutoOpenContext,
): boolean {
  if (context.autoOpenDelayS <= 0) return false;
  if (elapsedMs < context.autoOpenDelayS * 1000) return false;
  if (!canTradeSignal(context.tokenLevel)) return false;
  if (context.placeable === false) return false;
  if (context.minimalAccuracyPercent === undefined) return true;
  // In exact decimals: 0.57 × 100 is 56.99999999999999 in binary floating point.
  return compareDecimals(mulDecimals(signal.signal_accuracy, 100), context.minimalAccuracyPercent) >= 0;
}

/**
 * Seconds until a card that has run `elapsedS` seconds is traded automatically, when it will be (auto-open on,
 * the trade button enabled, accurate enough) and the delay has not run yet; otherwise undefined. The card and
 * the signal toast both show it.
 */
export function secondsToAutoOpen(
  signal: Pick<Signal, 'signal_accuracy'>,
  elapsedS: number,
  context: AutoOpenContext,
): number | undefined {
  if (!isAutoOpenDue(signal, Number.POSITIVE_INFINITY, context)) return undefined;
  const left = context.autoOpenDelayS - elapsedS;
  return left > 0 ? left : undefined;
}
