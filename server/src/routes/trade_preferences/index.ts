// /api/trade_preferences/* (SPEC.md §3, §5, §7): the global trade preferences of the user.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, setTradePreferencesBody, tradePreferencesAnswer } from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { getTradePreferences, setTradePreferences } from '../../services/preferences';
import { whatIfRoutes } from './what-if';

export const tradePreferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // What the signals would have done with these settings (issue 42).
  await app.register(whatIfRoutes);

  app.get(
    '/get_preferences/',
    {
      schema: {
        tags: ['trade_preferences'],
        summary: 'Global trade preferences (defaults until saved)',
        security: bearerSecurity,
        response: { 200: tradePreferencesAnswer, 401: errorBody },
      },
    },
    async (request) => ({ result: await getTradePreferences(app.db, request.userUuid) }),
  );

  app.post(
    '/set_preferences/',
    {
      schema: {
        tags: ['trade_preferences'],
        summary: 'Save the global trade preferences',
        security: bearerSecurity,
        body: setTradePreferencesBody,
        response: { 200: tradePreferencesAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => ({ result: await setTradePreferences(app.db, request.userUuid, request.body) }),
  );
};
