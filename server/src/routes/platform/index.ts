// GET /api/platform/get_available_platforms_dict/ (SPEC.md §7): result.platform_dict keyed by platform_uuid.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, getAvailablePlatformsDictAnswer } from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { listPlatforms } from '../../services/platforms';

export const platformRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/get_available_platforms_dict/',
    {
      schema: {
        tags: ['platform'],
        summary: 'Platforms the trader can connect',
        security: bearerSecurity,
        response: { 200: getAvailablePlatformsDictAnswer, 401: errorBody },
      },
    },
    async () => ({ result: { platform_dict: await listPlatforms(app.db) } }),
  );
};
