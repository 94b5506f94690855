// Signals (SPEC.md §3 "Signal", §4 "Signal card"): the cards of signal_from_core, each with a 99 s
// countdown from its arrival, and the detail data of the 'Signal Trend Data' modal. The countdown and
// auto-open timers live in hooks (use-signal-timers.ts); the store keeps only the arrival times.
import { proxy } from 'valtio';
import type { Signal, SignalByUuid, SignalHistory, SignalTrendData } from '../../../contracts';
import { SIGNAL_COUNTDOWN_S } from '../../config/constants';
import { getSignalHistoryByUuid } from './api/get-signal-history-by-uuid';
import { getSignalTrendByUuid } from './api/get-signal-trend-by-uuid';

/** At most this many cards are kept; the oldest go first. */
export const SIGNAL_LIST_MAX_COUNT = 30;

interface SignalsState {
  /** signal_uuid of the cards, newest first. */
  signal_list: string[];
  signal_by_uuid: Record<string, Signal>;
  /** Epoch ms at which each card arrived; its countdown runs from here. */
  received_at_by_uuid: Record<string, number>;
  /** Cards whose trade is being opened (the trade button's 'processing' state). */
  processing_by_uuid: Record<string, boolean>;
  /** Detail data of the 'Signal Trend Data' modal, keyed by signal_uuid. */
  signal_trend_data: Record<string, SignalTrendData>;
  signal_history_dict: Record<string, SignalHistory>;
  detail_loading_by_uuid: Record<string, boolean>;
  detail_error_by_uuid: Record<string, string>;
}

function initialState(): SignalsState {
  return {
    signal_list: [],
    signal_by_uuid: {},
    received_at_by_uuid: {},
    processing_by_uuid: {},
    signal_trend_data: {},
    signal_history_dict: {},
    detail_loading_by_uuid: {},
    detail_error_by_uuid: {},
  };
}

export const signalsStore = proxy<SignalsState>(initialState());

/** Whole seconds left on a card's countdown at `nowMs`: 99 on arrival, 0 when it is due for removal. */
export function signalSecondsLeft(receivedAtMs: number, nowMs: number): number {
  const elapsedS = Math.floor(Math.max(0, nowMs - receivedAtMs) / 1000);
  return Math.max(0, SIGNAL_COUNTDOWN_S - elapsedS);
}

/**
 * Adds the signals of a signal_from_core event as new cards, newest first. A signal already shown keeps its
 * card and its countdown (the same signal can arrive twice across a reconnect).
 */
export function pushSignals(signalByUuid: SignalByUuid, nowMs: number = Date.now()): void {
  const fresh = Object.values(signalByUuid)
    .filter((signal) => !signalsStore.signal_by_uuid[signal.signal_uuid])
    .sort((a, b) => a.signal_created_at.localeCompare(b.signal_created_at));
  for (const signal of fresh) {
    signalsStore.signal_by_uuid[signal.signal_uuid] = signal;
    signalsStore.received_at_by_uuid[signal.signal_uuid] = nowMs;
    signalsStore.signal_list.unshift(signal.signal_uuid);
  }
  const overflow = signalsStore.signal_list.slice(SIGNAL_LIST_MAX_COUNT);
  for (const signalUuid of overflow) removeSignal(signalUuid);
}

/** Removes a card (countdown at 0, a click on the countdown, or its trade opened). */
export function removeSignal(signalUuid: string): void {
  const index = signalsStore.signal_list.indexOf(signalUuid);
  if (index >= 0) signalsStore.signal_list.splice(index, 1);
  delete signalsStore.signal_by_uuid[signalUuid];
  delete signalsStore.received_at_by_uuid[signalUuid];
  delete signalsStore.processing_by_uuid[signalUuid];
}

/** Removes every card whose countdown has reached 0 at `nowMs`. */
export function expireSignals(nowMs: number = Date.now()): void {
  for (const signalUuid of [...signalsStore.signal_list]) {
    const receivedAt = signalsStore.received_at_by_uuid[signalUuid];
    if (receivedAt === undefined || signalSecondsLeft(receivedAt, nowMs) <= 0) removeSignal(signalUuid);
  }
}

export function setSignalProcessing(signalUuid: string, isProcessing: boolean): void {
  if (isProcessing) signalsStore.processing_by_uuid[signalUuid] = true;
  else delete signalsStore.processing_by_uuid[signalUuid];
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads the trend data and the history of a signal for its modal; the previous copy shows meanwhile. */
export async function loadSignalDetail(signalUuid: string): Promise<void> {
  signalsStore.detail_loading_by_uuid[signalUuid] = true;
  try {
    const [trendData, history] = await Promise.all([
      getSignalTrendByUuid(signalUuid),
      getSignalHistoryByUuid(signalUuid),
    ]);
    signalsStore.signal_trend_data[signalUuid] = trendData;
    signalsStore.signal_history_dict[signalUuid] = history;
    delete signalsStore.detail_error_by_uuid[signalUuid];
  } catch (error) {
    console.error(error);
    signalsStore.detail_error_by_uuid[signalUuid] = errorText(error);
  } finally {
    delete signalsStore.detail_loading_by_uuid[signalUuid];
  }
}

export function resetSignalsStore(): void {
  Object.assign(signalsStore, initialState());
}
