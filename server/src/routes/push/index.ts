// /api/push/* (issue 41; docs/server.md "Web Push (issue 41)"): this device's Web Push subscription. The public key is the server's
// VAPID key (the page's applicationServerKey); a subscription is stored for the trader and the login that sent
// it, so logout removes it; what it receives is the trader's push_* trade preferences.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  pushPublicKeyAnswer,
  pushSubscribeBody,
  pushSubscriptionAnswer,
  pushUnsubscribeBody,
} from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/get_public_key/',
    {
      schema: {
        tags: ['push'],
        summary: "The server's VAPID public key (base64url), for PushManager.subscribe",
        security: bearerSecurity,
        response: { 200: pushPublicKeyAnswer, 401: errorBody },
      },
    },
    async () => ({ result: { public_key: app.webPush.publicKey } }),
  );

  app.post(
    '/subscribe/',
    {
      schema: {
        tags: ['push'],
        summary: "Store this device's push subscription (PushSubscription.toJSON()) and the page's language",
        security: bearerSecurity,
        body: pushSubscribeBody,
        response: { 200: pushSubscriptionAnswer, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const claims = await app.bearerClaims(request.headers.authorization);
      await app.webPush.subscribe(request.userUuid, claims?.sid, request.body);
      return { result: { subscribed: true } };
    },
  );

  app.post(
    '/unsubscribe/',
    {
      schema: {
        tags: ['push'],
        summary: 'Forget this device (its endpoint): it is sent nothing more',
        security: bearerSecurity,
        body: pushUnsubscribeBody,
        response: { 200: pushSubscriptionAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      await app.webPush.unsubscribe(request.userUuid, request.body.endpoint);
      return { result: { subscribed: false } };
    },
  );
};
