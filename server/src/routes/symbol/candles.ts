// GET /api/symbol/get_symbol_candles/{symbol_uuid}/ (issue 18, the trading chart): a symbol's last closed
// 1-minute candles and the minute still forming, from the market feed (its day of candles in memory, REST
// klines for a symbol it does not follow or before its window fills). The chart keeps the forming minute up
// to date itself from symbol_price_base_from_core.
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  getSymbolCandlesAnswer,
  symbolCandlesQuery,
  symbolUuidParams,
  type CandlePoint,
} from '../../../../contracts';
import { symbols } from '../../db/schema';
import { candlePointOf, MINUTE_MS } from '../../engine/candles';
import type { MarketFeed } from '../../engine/market-feed';
import { HttpError } from '../../http-error';
import { bearerSecurity } from '../../services/access-token';

export const symbolCandlesRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.get(
    '/get_symbol_candles/:symbol_uuid/',
    {
      schema: {
        tags: ['symbol'],
        summary: "A symbol's last closed 1-minute candles, oldest first, and the minute still forming",
        security: bearerSecurity,
        params: symbolUuidParams,
        querystring: symbolCandlesQuery,
        response: {
          200: getSymbolCandlesAnswer,
          400: errorBody,
          401: errorBody,
          404: errorBody,
          503: errorBody,
        },
      },
    },
    async (request) => {
      const [symbol] = await app.db
        .select()
        .from(symbols)
        .where(eq(symbols.symbol_uuid, request.params.symbol_uuid));
      if (!symbol) throw new HttpError(404, 'Symbol not found');
      const pair = symbol.symbol_pair;
      const { limit } = request.query;
      // Minutes on the exchange's clock (its latest mark price), not this server's: the candles are its.
      const exchangeNow = feed.forming(pair)?.openTime ?? feed.price(pair)?.time ?? app.clock();
      const currentMinute = Math.floor(exchangeNow / MINUTE_MS) * MINUTE_MS;
      let candle_list: CandlePoint[];
      try {
        const closed = await feed.candlesBetween(pair, currentMinute - limit * MINUTE_MS, currentMinute);
        candle_list = closed.slice(-limit).map(candlePointOf);
      } catch {
        throw new HttpError(503, 'Market data is not available');
      }
      const forming = feed.forming(pair);
      const last = candle_list.at(-1);
      const is_forming = forming !== undefined && (last === undefined || forming.openTime > last.time);
      if (is_forming) candle_list.push(candlePointOf(forming));
      return {
        result: {
          symbol_uuid: symbol.symbol_uuid,
          symbol_pair: pair,
          symbol_price_precision: symbol.symbol_price_precision,
          candle_list,
          is_forming,
        },
      };
    },
  );
};
