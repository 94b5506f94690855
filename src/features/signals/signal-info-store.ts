// The signal-info header bar (SPEC.md §2, §3 "Signal info header"): while the pointer is on (or focus is in)
// a signal card, the header shows what a trade from it would use on its platform. The 2 s the bar lingers
// after the info disappears is a timer of the bar itself.
import { proxy } from 'valtio';
import type { PlatformPreferences } from '../../../contracts';
import { loadPlatformPreferences, preferencesStore } from '../../stores/preferences-store';
import { TradeTokenLevel } from '../../stores/token-level';

interface SignalInfoState {
  /** Platform of the card the trader is looking at; undefined when none. */
  platform_uuid: string | undefined;
}

export const signalInfoStore = proxy<SignalInfoState>({ platform_uuid: undefined });

/** SPEC.md §3 "Signal info header" (is_visible is the bar's own state). */
export interface SignalInfo {
  trade_token_level: TradeTokenLevel;
  trade_margin: number | undefined;
  trade_leverage: number | undefined;
  trade_take_profit_percent: number | undefined;
  trade_stop_loss_percent: number | undefined;
  trade_treiling_stop_percent: number | undefined;
}

// Platforms whose preferences this bar asked for: asked once per session, so a failing read does not
// raise an error notification on every hover (the preferences page reads them again).
const requestedPlatforms = new Set<string>();

export function showSignalInfo(platformUuid: string): void {
  signalInfoStore.platform_uuid = platformUuid;
  requestPlatformPreferences(platformUuid);
}

/** Reads a platform's preferences once per session when not known (the bar and the cards' placement check). */
export function requestPlatformPreferences(platformUuid: string): void {
  const isKnown = preferencesStore.platform_preferences_by_uuid[platformUuid] !== undefined;
  if (isKnown || requestedPlatforms.has(platformUuid)) return;
  if (preferencesStore.platform_preferences_loading[platformUuid]) return;
  requestedPlatforms.add(platformUuid);
  void loadPlatformPreferences(platformUuid);
}

export function hideSignalInfo(platformUuid?: string): void {
  // A late leave of one card must not hide the info another card has just shown.
  if (platformUuid === undefined || signalInfoStore.platform_uuid === platformUuid) {
    signalInfoStore.platform_uuid = undefined;
  }
}

export function signalInfoOf(
  preferences: PlatformPreferences | undefined,
  tokenLevel: TradeTokenLevel | undefined,
): SignalInfo {
  return {
    trade_token_level: tokenLevel ?? TradeTokenLevel.NO_TRADE_TOKEN,
    trade_margin: preferences?.trade_margin,
    trade_leverage: preferences?.trade_leverage,
    trade_take_profit_percent: preferences?.trade_take_profit_percent,
    trade_stop_loss_percent: preferences?.trade_stop_loss_percent,
    trade_treiling_stop_percent: preferences?.trade_treiling_stop_percent,
  };
}

export function resetSignalInfoStore(): void {
  signalInfoStore.platform_uuid = undefined;
  requestedPlatforms.clear();
}
