// The document title (SPEC.md §1): the rounded bitcoin price, an arrow for its trend and the count of open
// trades, e.g. '97 123 ↑ (2)'. Before the first price it is the app name.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { BitcoinPublicInformation } from '../../contracts';
import { BITCOIN_PRICE_DECIMALS } from '../config/constants';
import { authStore } from '../stores/auth-store';
import { bitcoinStore } from '../features/bitcoin/bitcoin-store';
import { countOpenTrades, tradesStore } from '../features/trades/trades-store';
import { formatGrouped } from '../lib/format';

/** ↑ for a rising trend (1), ↓ for a falling one (-1), → when flat (0). */
export function trendArrow(trendMoment: number): string {
  if (trendMoment > 0) return '↑';
  if (trendMoment < 0) return '↓';
  return '→';
}

/**
 * '97 123 ↑ (2)'. The count of open trades shows only to a logged-in trader (a visitor has no trades);
 * without bitcoin information the title is `fallback`.
 */
export function pageTitle(
  information: Pick<BitcoinPublicInformation, 'current_price' | 'trend_moment'> | undefined,
  openTradeCount: number | undefined,
  fallback: string,
): string {
  if (!information) return fallback;
  const price = formatGrouped(information.current_price, BITCOIN_PRICE_DECIMALS);
  const head = `${price} ${trendArrow(information.trend_moment)}`;
  return openTradeCount === undefined ? head : `${head} (${openTradeCount})`;
}

export function usePageTitle(): void {
  const { t } = useTranslation();
  const { information } = useSnapshot(bitcoinStore);
  const { user } = useSnapshot(authStore);
  const trades = useSnapshot(tradesStore);
  const count = user ? countOpenTrades(trades) : undefined;
  const title = pageTitle(information, count, t('app_name'));
  useEffect(() => {
    document.title = title;
  }, [title]);
}
