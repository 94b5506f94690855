// Global trade preferences and per-platform preferences (SPEC.md §3). trade_in_server_side decides whether
// trade tokens and balances work in client mode (0) or server mode (1).
import { proxy } from 'valtio';
import { TradeSide, type PlatformPreferences, type TradePreferences } from '../../contracts/preferences';
import { addNotification, NotificationType } from './notifications-store';
import { getPlatformPreferences } from './api/get-platform-preferences';
import { getTradePreferences } from './api/get-trade-preferences';
import { setPlatformPreferences } from './api/set-platform-preferences';
import { setTradePreferences } from './api/set-trade-preferences';

interface PreferencesState {
  trade_preferences: TradePreferences | undefined;
  is_trade_preferences_loading: boolean;
  /** True once the first read of the global preferences finished, with or without success. */
  is_trade_preferences_settled: boolean;
  platform_preferences_by_uuid: Record<string, PlatformPreferences>;
  platform_preferences_loading: Record<string, boolean>;
}

function initialState(): PreferencesState {
  return {
    trade_preferences: undefined,
    is_trade_preferences_loading: false,
    is_trade_preferences_settled: false,
    platform_preferences_by_uuid: {},
    platform_preferences_loading: {},
  };
}

export const preferencesStore = proxy<PreferencesState>(initialState());

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The mode of trade tokens and balances; client until the preferences say otherwise. */
export function tradeSide(): TradeSide {
  return preferencesStore.trade_preferences?.trade_in_server_side ?? TradeSide.CLIENT;
}

export async function loadTradePreferences(): Promise<void> {
  preferencesStore.is_trade_preferences_loading = true;
  try {
    preferencesStore.trade_preferences = await getTradePreferences();
  } catch (error) {
    addNotification(NotificationType.ERROR, ['notification.get_trade_preferences_error', detailOf(error)]);
  } finally {
    preferencesStore.is_trade_preferences_loading = false;
    preferencesStore.is_trade_preferences_settled = true;
  }
}

/** Saves the global preferences; true on success (SPEC.md §4 "Preference editing"). */
export async function saveTradePreferences(values: TradePreferences): Promise<boolean> {
  try {
    await setTradePreferences(values);
    // The server's copy changed: read it back (SPEC.md §7 "invalidates cached preferences").
    preferencesStore.trade_preferences = { ...values };
    addNotification(NotificationType.SUCCESS, 'notification.update_trade_preferences_success');
    void refreshTradePreferences();
    return true;
  } catch (error) {
    addNotification(NotificationType.ERROR, ['notification.update_trade_preferences_error', detailOf(error)]);
    return false;
  }
}

async function refreshTradePreferences(): Promise<void> {
  try {
    preferencesStore.trade_preferences = await getTradePreferences();
  } catch (error) {
    console.error(error);
  }
}

export async function loadPlatformPreferences(platformUuid: string): Promise<void> {
  preferencesStore.platform_preferences_loading[platformUuid] = true;
  try {
    preferencesStore.platform_preferences_by_uuid[platformUuid] = await getPlatformPreferences(platformUuid);
  } catch (error) {
    addNotification(NotificationType.ERROR, ['notification.get_platform_preferences_error', detailOf(error)]);
  } finally {
    preferencesStore.platform_preferences_loading[platformUuid] = false;
  }
}

/** Saves one platform's preferences; true on success. */
export async function savePlatformPreferences(
  platformUuid: string,
  values: PlatformPreferences,
): Promise<boolean> {
  try {
    await setPlatformPreferences({ platform_uuid: platformUuid, ...values });
    preferencesStore.platform_preferences_by_uuid[platformUuid] = { ...values };
    addNotification(NotificationType.SUCCESS, 'notification.update_platform_preferences_success');
    return true;
  } catch (error) {
    addNotification(NotificationType.ERROR, [
      'notification.update_platform_preferences_error',
      detailOf(error),
    ]);
    return false;
  }
}

export function resetPreferencesStore(): void {
  Object.assign(preferencesStore, initialState());
}
