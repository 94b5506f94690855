// Public (anonymous) endpoints of SPEC.md §7.
import { z } from 'zod';
import { resultOf, trendMoment } from './common';

/** Bitcoin public information (SPEC.md §3): current price in USD, trend, predicted move in percent. */
export const bitcoinPublicInformation = z
  .object({
    current_price: z.number().positive(),
    trend_moment: trendMoment,
    trend_prediction: z.number(),
  })
  .meta({ id: 'BitcoinPublicInformation' });
export type BitcoinPublicInformation = z.infer<typeof bitcoinPublicInformation>;

export const getBitcoinPublicInformationAnswer = resultOf(bitcoinPublicInformation);

/** One closed 1-minute bitcoin candle with the trend and the forecast made at its close. */
export const bitcoinTrendPoint = z
  .object({
    /** Open time of the candle, ms since the epoch. */
    time: z.number().int(),
    /** Close of the candle in USD. */
    price: z.number().positive(),
    trend_moment: trendMoment,
    /** Forecast of the move over the next prediction_horizon_minutes, percent; null while the model warms up. */
    trend_prediction: z.number().nullable(),
  })
  .meta({ id: 'BitcoinTrendPoint' });
export type BitcoinTrendPoint = z.infer<typeof bitcoinTrendPoint>;

/** GET /public/get_bitcoin_public_trend_data/ (SPEC.md §7 leaves the shape open): a chart's series. */
export const bitcoinPublicTrendData = z
  .object({
    symbol_pair: z.string(),
    bitcoin_public_information: bitcoinPublicInformation,
    /** Minutes ahead that trend_prediction forecasts. */
    prediction_horizon_minutes: z.number().int().positive(),
    /** The last closed minutes, oldest first. */
    trend_data_list: z.array(bitcoinTrendPoint),
  })
  .meta({ id: 'BitcoinPublicTrendData' });
export type BitcoinPublicTrendData = z.infer<typeof bitcoinPublicTrendData>;
export const getBitcoinPublicTrendDataAnswer = resultOf(bitcoinPublicTrendData);
