// Symbols (SPEC.md §3, §7 GET /symbol/get_available_symbols_dict/), filled from the exchange's exchangeInfo.
import { z } from 'zod';
import { resultOf } from './common';

export const symbol = z
  .object({
    symbol_uuid: z.uuid(),
    /** Base asset, e.g. 'BTC'. */
    symbol_name: z.string(),
    /** Exchange symbol, e.g. 'BTCUSDT'. */
    symbol_pair: z.string(),
    /** Decimals of the LOT_SIZE stepSize: order quantities are rounded to it (SPEC.md §5). */
    symbol_quantity_precision: z.number().int().min(0),
    /** Decimals of the PRICE_FILTER tickSize: prices are shown and rounded to it (SPEC.md §5, §9). */
    symbol_price_precision: z.number().int().min(0),
  })
  .meta({ id: 'Symbol' });
/** Named SymbolInfo so it does not shadow the global Symbol. */
export type SymbolInfo = z.infer<typeof symbol>;

/** result.symbol_dict, keyed by symbol_uuid. */
export const symbolDict = z.record(z.string(), symbol);
export type SymbolDict = z.infer<typeof symbolDict>;
export const getAvailableSymbolsDictAnswer = resultOf(z.object({ symbol_dict: symbolDict }));
