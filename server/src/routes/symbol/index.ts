// GET /api/symbol/get_available_symbols_dict/ (SPEC.md §7): result.symbol_dict keyed by symbol_uuid; and a
// symbol's candles for the trading chart (candles.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, getAvailableSymbolsDictAnswer } from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import type { MarketFeed } from '../../engine/market-feed';
import { listSymbols } from '../../services/symbols';
import { symbolCandlesRoutes } from './candles';

export const symbolRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.addHook('onRequest', app.authenticate);
  await app.register(symbolCandlesRoutes, { feed });
  app.get(
    '/get_available_symbols_dict/',
    {
      schema: {
        tags: ['symbol'],
        summary: 'Symbols listed by the exchange, with their precisions',
        security: bearerSecurity,
        response: { 200: getAvailableSymbolsDictAnswer, 401: errorBody },
      },
    },
    async () => ({ result: { symbol_dict: await listSymbols(app.db) } }),
  );
};
