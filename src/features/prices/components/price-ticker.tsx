import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { DirectionIcon, trendPalette } from '../../../components/ui';
import { PRICE_TICKER_INTERVAL_MS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { symbolsStore } from '../../../stores/symbols-store';
import { dropOldestSymbolPrice, pricesStore } from '../../../stores/prices-store';
import './prices.css';

/**
 * Header price ticker (SPEC.md §2, §4): the first queued price — symbol name and current price at the
 * symbol's precision, coloured by its trend; every PRICE_TICKER_INTERVAL_MS the oldest item is dropped.
 */
export function PriceTicker() {
  const { t } = useTranslation();
  const { symbol_price_queue } = useSnapshot(pricesStore);
  const { symbol_dict } = useSnapshot(symbolsStore);
  const hasPrices = symbol_price_queue.length > 0;

  useEffect(() => {
    if (!hasPrices) return;
    const timer = setInterval(dropOldestSymbolPrice, PRICE_TICKER_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [hasPrices]);

  const item = symbol_price_queue[0];
  if (!item) return null;
  const precision = symbol_dict[item.symbol_uuid]?.symbol_price_precision;
  const price =
    precision === undefined ? String(item.current_price) : formatFixed(item.current_price, precision);
  return (
    <div
      className={`price-ticker palette-${trendPalette(item.trend_moment)}`}
      title={t('prices.ticker_tooltip')}
      data-testid="price-ticker"
      data-trend={item.trend_moment}
    >
      <DirectionIcon direction={item.trend_moment} />
      <span className="price-ticker-name">{item.symbol_name}</span>
      <span className="price-ticker-price numeric" data-testid="price-ticker-price">
        {price}
      </span>
    </div>
  );
}
