// Bitcoin public information (SPEC.md §3) and its trend data, from the market feed:
// - current_price: the latest mark price (the exchange's string, a number only here, on the way out);
// - trend_moment: the trend rule of trend.ts at the last closed minute;
// - trend_prediction: the forecast move over the next PREDICTION_HORIZON_MINUTES in percent (prediction.ts);
//   0 while the model has not seen enough minutes to forecast.
import type { BitcoinPublicInformation, BitcoinPublicTrendData } from '../../../contracts';
import { BITCOIN_SYMBOL, type MarketFeed } from './market-feed';
import { PREDICTION_HORIZON_MINUTES } from './prediction';

/** Minutes of trend data a chart gets: the last four hours. */
const TREND_DATA_MINUTES = 240;

export function bitcoinInformation(feed: MarketFeed): BitcoinPublicInformation | undefined {
  const latest = feed.price(BITCOIN_SYMBOL);
  if (!latest) return undefined;
  const analyzed = feed.analytics.latest(BITCOIN_SYMBOL);
  return {
    current_price: Number(latest.price),
    trend_moment: analyzed?.trendMoment ?? 0,
    trend_prediction: analyzed?.prediction ?? 0,
  };
}

export function bitcoinTrendData(feed: MarketFeed): BitcoinPublicTrendData | undefined {
  const information = bitcoinInformation(feed);
  if (!information) return undefined;
  return {
    symbol_pair: BITCOIN_SYMBOL,
    bitcoin_public_information: information,
    prediction_horizon_minutes: PREDICTION_HORIZON_MINUTES,
    trend_data_list: feed.analytics.recent(BITCOIN_SYMBOL, TREND_DATA_MINUTES).map((item) => ({
      time: item.candle.openTime,
      price: Number(item.candle.close),
      trend_moment: item.trendMoment,
      trend_prediction: item.prediction,
    })),
  };
}
