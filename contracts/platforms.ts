// Platforms (SPEC.md §3, §7 GET /platform/get_available_platforms_dict/): the exchanges a trader can connect.
import { z } from 'zod';
import { resultOf } from './common';
import { tradeTokenLevel } from './trade-tokens';

export const platform = z
  .object({
    platform_uuid: z.uuid(),
    platform_name: z.string(),
    /** CSS colour of the platform chip (SPEC.md §2 "Platform chip"). */
    platform_background: z.string(),
    /** TradeTokenLevel.TRADE_AVAILABLE (3) marks a platform where trading is available (SPEC.md §3). */
    level: tradeTokenLevel,
    /** Upper bound of trade_leverage in the platform preferences (SPEC.md §5). */
    trade_leverage_max: z.number().int().positive(),
    /** Base URL of the exchange's REST API (SPEC.md §7). */
    platform_url: z.string(),
    /**
     * The exchange answers browser origins: client mode calls platform_url straight from the page. Otherwise
     * (Binance) client mode sends its signed requests through our relay (docs/relay.md).
     */
    platform_allows_browser: z.boolean(),
  })
  .meta({ id: 'Platform' });
export type Platform = z.infer<typeof platform>;

/** result.platform_dict, keyed by platform_uuid. */
export const platformDict = z.record(z.string(), platform);
export type PlatformDict = z.infer<typeof platformDict>;
export const getAvailablePlatformsDictAnswer = resultOf(z.object({ platform_dict: platformDict }));
