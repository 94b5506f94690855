// Bitcoin public information (SPEC.md §3) derived from the market feed.
// Provisional rule until the signal engine lands (issue 6):
// - trend_moment: sign of the move over the last TREND_WINDOW ticks, 0 when it is within ±FLAT_BAND_PERCENT;
// - trend_prediction: that move in percent, extrapolated over the same horizon (a naive momentum forecast).
import type { BitcoinPublicInformation, TrendMoment } from '../../../contracts';
import type { MarketFeed } from './market-feed';

const TREND_WINDOW = 60;
const FLAT_BAND_PERCENT = 0.02;
export const BITCOIN_SYMBOL = 'BTCUSDT';

export function bitcoinInformation(feed: MarketFeed): BitcoinPublicInformation | undefined {
  const latest = feed.price(BITCOIN_SYMBOL);
  if (!latest) return undefined;
  const recent = feed.recent(BITCOIN_SYMBOL);
  const first = recent[Math.max(0, recent.length - TREND_WINDOW)] ?? latest;
  const now = Number(latest.price);
  const then = Number(first.price);
  const movePercent = then > 0 ? ((now - then) / then) * 100 : 0;
  const trend: TrendMoment = movePercent > FLAT_BAND_PERCENT ? 1 : movePercent < -FLAT_BAND_PERCENT ? -1 : 0;
  return { current_price: now, trend_moment: trend, trend_prediction: movePercent };
}
