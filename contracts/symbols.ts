// Symbols (SPEC.md §3, §7 GET /symbol/get_available_symbols_dict/), filled from the exchange's exchangeInfo.
import { z } from 'zod';
import { resultOf } from './common';
import { candlePoint } from './signals';

/**
 * An order filter of the exchange's exchangeInfo (issue 53): a decimal above 0 of at most 12 integer and 12
 * fraction digits, well inside what trade-core's decimals hold. The server keeps only values that pass.
 */
export const symbolFilterValue = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,12})?$/, 'Must be a decimal number such as 0.001')
  .refine((value) => /[1-9]/.test(value), { message: 'Must be above 0' });

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
    /** LOT_SIZE minQty: the smallest order quantity; null or absent while the exchange has not listed it. */
    symbol_min_quantity: symbolFilterValue.nullable().optional(),
    /** The lower of LOT_SIZE's and MARKET_LOT_SIZE's maxQty: the largest market order quantity. */
    symbol_max_quantity: symbolFilterValue.nullable().optional(),
    /** MIN_NOTIONAL notional (USDT): the smallest quantity × price an order may have. */
    symbol_min_notional: symbolFilterValue.nullable().optional(),
  })
  .meta({ id: 'Symbol' });
/** Named SymbolInfo so it does not shadow the global Symbol. */
export type SymbolInfo = z.infer<typeof symbol>;

/** result.symbol_dict, keyed by symbol_uuid. */
export const symbolDict = z.record(z.string(), symbol);
export type SymbolDict = z.infer<typeof symbolDict>;
export const getAvailableSymbolsDictAnswer = resultOf(z.object({ symbol_dict: symbolDict }));

/** Path of GET /symbol/get_symbol_candles/{symbol_uuid}/. */
export const symbolUuidParams = z.object({ symbol_uuid: z.uuid() });

/** Most candles one read of a symbol's chart may ask for: the feed keeps a day of closed minutes. */
export const SYMBOL_CANDLES_MAX = 1440;

/** Query of GET /symbol/get_symbol_candles/{symbol_uuid}/: how many closed 1-minute candles (1 … 1440). */
export const symbolCandlesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(SYMBOL_CANDLES_MAX).default(360),
});
export type SymbolCandlesQuery = z.infer<typeof symbolCandlesQuery>;

/**
 * GET /symbol/get_symbol_candles/{symbol_uuid}/ (not in SPEC.md §7; the trading chart, issue 18): the symbol's
 * last `limit` closed 1-minute candles of the market feed, oldest first, then the minute still forming when
 * the feed has seen it (is_forming). The chart then keeps the forming candle itself from
 * symbol_price_base_from_core. Prices are numbers: a chart draws them (the figures of a trade stay strings).
 */
export const symbolCandles = z
  .object({
    symbol_uuid: z.uuid(),
    symbol_pair: z.string(),
    symbol_price_precision: z.number().int().min(0),
    /** Open times in ms since the epoch, on the exchange's clock. */
    candle_list: z.array(candlePoint),
    /** True when the last candle is the minute still forming (its close is the latest price). */
    is_forming: z.boolean(),
  })
  .meta({ id: 'SymbolCandles' });
export type SymbolCandles = z.infer<typeof symbolCandles>;
export const getSymbolCandlesAnswer = resultOf(symbolCandles);
