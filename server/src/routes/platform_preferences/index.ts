// /api/platform_preferences/* (SPEC.md §3, §5, §7): per-platform trade preferences. trade_leverage is capped
// by the platform's trade_leverage_max, which only the server knows, so that bound is checked here.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  platformPreferencesAnswer,
  platformPreferencesParams,
  setPlatformPreferencesBody,
} from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { findPlatform } from '../../services/platforms';
import { getPlatformPreferences, setPlatformPreferences } from '../../services/preferences';

export const platformPreferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  const platformOr404 = async (platformUuid: string) => {
    const platform = await findPlatform(app.db, platformUuid);
    if (!platform) throw new HttpError(404, `platform_uuid: unknown platform ${platformUuid}`);
    return platform;
  };

  app.get(
    '/get_preferences_by_platform_uuid/:platform_uuid/',
    {
      schema: {
        tags: ['platform_preferences'],
        summary: 'Preferences of one platform (defaults until saved)',
        security: bearerSecurity,
        params: platformPreferencesParams,
        response: { 200: platformPreferencesAnswer, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const platform = await platformOr404(request.params.platform_uuid);
      return { result: await getPlatformPreferences(app.db, request.userUuid, platform) };
    },
  );

  app.post(
    '/set_preferences/',
    {
      schema: {
        tags: ['platform_preferences'],
        summary: 'Save the preferences of one platform',
        security: bearerSecurity,
        body: setPlatformPreferencesBody,
        response: { 200: platformPreferencesAnswer, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const { platform_uuid, ...values } = request.body;
      const platform = await platformOr404(platform_uuid);
      if (values.trade_leverage > platform.trade_leverage_max) {
        throw new HttpError(
          400,
          `trade_leverage: Must be at most ${platform.trade_leverage_max} on this platform`,
        );
      }
      return { result: await setPlatformPreferences(app.db, request.userUuid, platform_uuid, values) };
    },
  );
};
