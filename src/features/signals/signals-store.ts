// Signals (SPEC.md §3 "Signal", §4 "Signal card"): the cards of signal_from_core and of the recent-signal list
// read when the socket connects, each with a 99 s countdown that runs from when the signal was made (so a
// reload continues it), and the detail data of the 'Signal Trend Data' modal. The countdown and auto-open
// timers live in hooks (use-signal-timers.ts); the store keeps only when each countdown started.
import { proxy } from 'valtio';
import type { Signal, SignalByUuid, SignalHistory, SignalTrendData } from '../../../contracts';
import { SIGNAL_COUNTDOWN_S } from '../../config/constants';
import { getRecentSignalList } from './api/get-recent-signal-list';
import { getSignalHistoryByUuid } from './api/get-signal-history-by-uuid';
import { getSignalTrendByUuid } from './api/get-signal-trend-by-uuid';
import { createUnusedDataCache } from '../../lib/unused-data';

/** At most this many cards are kept; the oldest go first. */
export const SIGNAL_LIST_MAX_COUNT = 30;

interface SignalsState {
  /** signal_uuid of the cards, newest first. */
  signal_list: string[];
  signal_by_uuid: Record<string, Signal>;
  /**
   * Epoch ms (this browser's clock) at which each card's countdown started: its arrival minus its age, the
   * age measured on the server's clock (see pushSignals).
   */
  countdown_start_by_uuid: Record<string, number>;
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
    countdown_start_by_uuid: {},
    processing_by_uuid: {},
    signal_trend_data: {},
    signal_history_dict: {},
    detail_loading_by_uuid: {},
    detail_error_by_uuid: {},
  };
}

export const signalsStore = proxy<SignalsState>(initialState());

/** Whole seconds left on a card's countdown at `nowMs`: 99 when it starts, 0 when it is due for removal. */
/** Signals of one minute on a symbol that point opposite ways are said to disagree (issue 53). */
const DISAGREEMENT_WINDOW_MS = 60_000;

/**
 * The other cards' signals on the same platform and symbol, made within a minute of `signal`, that point the other
 * way (issue 53): two neurons' opposite calls share the symbol's trend label, and nothing else said they differ.
 */
export function disagreeingSignals(
  signal: Signal,
  signalList: readonly string[],
  signalByUuid: Readonly<Record<string, Signal>>,
): Signal[] {
  const at = Date.parse(signal.signal_created_at);
  return signalList
    .map((uuid) => signalByUuid[uuid])
    .filter(
      (other): other is Signal =>
        other !== undefined &&
        other.signal_uuid !== signal.signal_uuid &&
        other.platform_uuid === signal.platform_uuid &&
        other.symbol.symbol_uuid === signal.symbol.symbol_uuid &&
        other.signal_direction_created !== signal.signal_direction_created &&
        Math.abs(Date.parse(other.signal_created_at) - at) <= DISAGREEMENT_WINDOW_MS,
    );
}

export function signalSecondsLeft(countdownStartMs: number, nowMs: number): number {
  const elapsedS = Math.floor(Math.max(0, nowMs - countdownStartMs) / 1000);
  return Math.max(0, SIGNAL_COUNTDOWN_S - elapsedS);
}

/**
 * How old a signal is (ms) at `serverNowMs`, the server's clock when it sent the signal: 0 when that is not
 * known or the signal seems to be from the future. The age is measured on the server's clock alone, never
 * against this browser's, so a browser whose clock is off still counts the cards right.
 */
export function signalAgeMs(signal: Pick<Signal, 'signal_created_at'>, serverNowMs?: number): number {
  const createdMs = Date.parse(signal.signal_created_at);
  if (serverNowMs === undefined || !Number.isFinite(createdMs)) return 0;
  return Math.max(0, serverNowMs - createdMs);
}

/**
 * Adds signals as new cards (signal_from_core, or the recent list read on connect). A card's countdown is
 * 99 s minus the signal's age, so it continues where it was after a reload: the countdown starts at
 * `nowMs` − age, the age measured at `serverNowMs` (the server's clock when it sent them; without it a
 * signal counts as just made). A signal whose countdown has already run out gets no card. A signal already
 * shown keeps its card and its countdown (the same signal can arrive twice across a reconnect). Cards are
 * kept newest first by countdown start.
 */
export function pushSignals(
  signalByUuid: SignalByUuid,
  nowMs: number = Date.now(),
  serverNowMs?: number,
): void {
  const fresh = Object.values(signalByUuid).filter(
    (signal) => !signalsStore.signal_by_uuid[signal.signal_uuid],
  );
  let added = false;
  for (const signal of fresh) {
    const start = nowMs - signalAgeMs(signal, serverNowMs);
    if (signalSecondsLeft(start, nowMs) <= 0) continue;
    signalsStore.signal_by_uuid[signal.signal_uuid] = signal;
    signalsStore.countdown_start_by_uuid[signal.signal_uuid] = start;
    signalsStore.signal_list.push(signal.signal_uuid);
    added = true;
  }
  if (!added) return;
  const startOf = (uuid: string) => signalsStore.countdown_start_by_uuid[uuid] ?? 0;
  const createdOf = (uuid: string) => signalsStore.signal_by_uuid[uuid]?.signal_created_at ?? '';
  signalsStore.signal_list.sort(
    (a, b) => startOf(b) - startOf(a) || createdOf(b).localeCompare(createdOf(a)),
  );
  const overflow = signalsStore.signal_list.slice(SIGNAL_LIST_MAX_COUNT);
  for (const signalUuid of overflow) removeSignal(signalUuid);
}

/**
 * Reads the newest signals of this trader (GET /signal/get_recent_signal_list/) and adds those whose
 * countdown is still running: run whenever the socket (re)connects, so a reload or an outage does not lose
 * the cards. Failures are only logged; the live signals keep coming.
 */
export async function loadRecentSignals(): Promise<void> {
  try {
    const { signal_list, server_time } = await getRecentSignalList();
    const serverNowMs = Date.parse(server_time);
    pushSignals(
      Object.fromEntries(signal_list.map((signal) => [signal.signal_uuid, signal])),
      Date.now(),
      Number.isFinite(serverNowMs) ? serverNowMs : undefined,
    );
  } catch (error) {
    console.error(error);
  }
}

/** Removes a card (countdown at 0, a click on the countdown, or its trade opened). */
export function removeSignal(signalUuid: string): void {
  const index = signalsStore.signal_list.indexOf(signalUuid);
  if (index >= 0) signalsStore.signal_list.splice(index, 1);
  delete signalsStore.signal_by_uuid[signalUuid];
  delete signalsStore.countdown_start_by_uuid[signalUuid];
  delete signalsStore.processing_by_uuid[signalUuid];
}

/** Removes every card whose countdown has reached 0 at `nowMs`. */
export function expireSignals(nowMs: number = Date.now()): void {
  for (const signalUuid of [...signalsStore.signal_list]) {
    const start = signalsStore.countdown_start_by_uuid[signalUuid];
    if (start === undefined || signalSecondsLeft(start, nowMs) <= 0) removeSignal(signalUuid);
  }
}

export function setSignalProcessing(signalUuid: string, isProcessing: boolean): void {
  if (isProcessing) signalsStore.processing_by_uuid[signalUuid] = true;
  else delete signalsStore.processing_by_uuid[signalUuid];
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A signal's trend data and history (and its read's error) are cached API data (SPEC.md §9,
 * lib/unused-data.ts): dropped CACHED_DATA_UNUSED_MS after its modal's body last showed them.
 */
export const signalDetailCache = createUnusedDataCache((signalUuid) => {
  delete signalsStore.signal_trend_data[signalUuid];
  delete signalsStore.signal_history_dict[signalUuid];
  delete signalsStore.detail_error_by_uuid[signalUuid];
});

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
    signalDetailCache.written(signalUuid);
  }
}

export function resetSignalsStore(): void {
  signalDetailCache.reset();
  Object.assign(signalsStore, initialState());
}
