// Logout resets every store and cached datum (SPEC.md §4 "Logout"). Each feature owns its reset; this is the list.
import { resetAnalysisStore } from '../features/analysis/analysis-store';
import { resetAuthStore } from '../stores/auth-store';
import { resetBalancesStore } from '../features/balances/balances-store';
import { resetBitcoinStore } from '../features/bitcoin/bitcoin-store';
import { resetHistoryStore } from '../features/history/history-store';
import { resetNotificationsStore } from '../stores/notifications-store';
import { resetPlatformsStore } from '../stores/platforms-store';
import { resetPreferencesStore } from '../stores/preferences-store';
import { resetRiskLimitsStore } from '../stores/risk-limits-store';
import { resetPricesStore } from '../stores/prices-store';
import { resetBracketsStore } from '../stores/brackets-store';
import { resetSignalInfoStore } from '../features/signals/signal-info-store';
import { resetSignalsStore } from '../features/signals/signals-store';
import { resetStatisticsStore } from '../features/statistics/statistics-store';
import { resetSymbolsStore } from '../stores/symbols-store';
import { resetThemeStore } from '../features/theme/theme-store';
import { resetPinCodeStore } from '../stores/pin-code-store';
import { resetTradeTokensStore } from '../stores/trade-tokens-store';
import { resetWhatIfStore } from '../stores/what-if-store';
import { resetTradeErrorNotices } from '../features/trades/trade-error-notices';
import { resetAccountFollow } from '../features/trades/account-follow';
import { resetTradesStore } from '../features/trades/trades-store';
import { resetLayoutStore } from './layout-store';
import { resetSymbolHolds } from './signal-trading';
import { resetChartFocus } from './trading-chart/chart-focus';
import { resetNewTradePointer } from './new-trade-pointer';

const STORE_RESETS: readonly (() => void)[] = [
  resetAnalysisStore,
  resetSymbolHolds,
  resetAccountFollow,
  resetAuthStore,
  resetBalancesStore,
  resetBitcoinStore,
  resetHistoryStore,
  resetNotificationsStore,
  resetPlatformsStore,
  resetPreferencesStore,
  resetRiskLimitsStore,
  resetSymbolsStore,
  resetThemeStore,
  resetPinCodeStore,
  resetTradeTokensStore,
  resetPricesStore,
  resetBracketsStore,
  resetSignalsStore,
  resetSignalInfoStore,
  resetStatisticsStore,
  resetTradesStore,
  resetTradeErrorNotices,
  resetLayoutStore,
  resetWhatIfStore,
  // Issue 53: the last user's focused chart trade must not survive into the next session.
  resetChartFocus,
  resetNewTradePointer,
];

export function resetAllStores(): void {
  for (const reset of STORE_RESETS) reset();
}
