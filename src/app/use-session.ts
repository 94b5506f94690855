import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { TradeSide } from '../../contracts/preferences';
import { BALANCE_REFRESH_MS } from '../config/constants';
import { authStore, initAuth } from '../stores/auth-store';
import { loadNotifications } from '../stores/notifications-store';
import { loadPlatforms, platformsStore } from '../stores/platforms-store';
import { loadTradePreferences, preferencesStore } from '../stores/preferences-store';
import { loadRiskLimitState } from '../stores/risk-limits-store';
import { loadSymbols } from '../stores/symbols-store';
import { tradesStore } from '../features/trades/trades-store';
import { loadAllTradeTokens } from '../stores/trade-tokens-store';
import { loadBalances } from './platform-keys';

/**
 * The session's data flow: at start the notification history and the current user; once a user exists the
 * platforms, symbols and global preferences; then the token levels (again when the mode changes) and the
 * balances every BALANCE_REFRESH_MS (SPEC.md §4, §9).
 */
export function useSession(): void {
  const { user } = useSnapshot(authStore);
  const { is_loaded: platformsLoaded, platform_dict } = useSnapshot(platformsStore);
  const { trade_preferences, is_trade_preferences_settled } = useSnapshot(preferencesStore);
  const userUuid = user?.user_uuid;
  // Client mode until the preferences say otherwise, once their first read has finished.
  const mode =
    trade_preferences?.trade_in_server_side ?? (is_trade_preferences_settled ? TradeSide.CLIENT : undefined);
  const platformKey = Object.keys(platform_dict).sort().join(',');
  const { open_trade_count } = useSnapshot(tradesStore);
  const maxOpen = trade_preferences?.trade_max_open_trades;
  const lossLimit = trade_preferences?.trade_daily_loss_limit;

  useEffect(() => {
    loadNotifications();
    void initAuth();
  }, []);

  useEffect(() => {
    if (!userUuid) return;
    void loadPlatforms();
    void loadSymbols();
    void loadTradePreferences();
  }, [userUuid]);

  // The risk limits' state (issue 18) again whenever the limits or the open trades change: a close changes the
  // day's loss, and the count of open trades.
  useEffect(() => {
    if (!userUuid) return;
    void loadRiskLimitState();
  }, [userUuid, open_trade_count, maxOpen, lossLimit]);

  useEffect(() => {
    if (!userUuid || !platformsLoaded || mode === undefined) return;
    const uuids = platformKey ? platformKey.split(',') : [];
    void loadAllTradeTokens(uuids).then(() => loadBalances());
    const timer = setInterval(() => void loadBalances(), BALANCE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [userUuid, platformsLoaded, platformKey, mode]);
}
