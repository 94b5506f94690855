// GET /api/symbol/get_available_symbols_dict/ (SPEC.md §7): result.symbol_dict keyed by symbol_uuid.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, getAvailableSymbolsDictAnswer } from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { listSymbols } from '../../services/symbols';

export const symbolRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
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
