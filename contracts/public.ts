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
