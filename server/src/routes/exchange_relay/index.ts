// /api/exchange_relay/* — client mode's road to an exchange that refuses browser origins (Binance does;
// docs/relay.md). `{method} /api/exchange_relay/{platform_uuid}{exchange path}?{signed query}` with the
// X-MBX-APIKEY header, for the exchange calls the product makes (a route each; any other is not found), is
// forwarded verbatim to the platform's base URL (services/exchange-relay.ts) for the logged-in trader, and
// answered with the exchange's status, body and rate-limit headers. Every answer the
// relay gives itself (a refusal, an unreachable exchange) carries RELAY_HEADER, so the page's exchange client
// tells it from the exchange's. Also GET /egress_ip/{platform_uuid}/: the address to allow on the key.
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RELAYED_CALLS,
  RELAY_EXCHANGE_STATUS_HEADER,
  RELAY_NO_CHANGE_ANSWERS,
  RELAY_QUERY_PATTERN,
  egressIpAnswer,
  errorBody,
  relayHeaders,
  relayParams,
  type RelayMethod,
  type RelayedPath,
} from '../../../../contracts';
import { RELAY_HEADER } from '../../../../shared-core/exchange-client';
import { HttpError } from '../../http-error';
import { bearerSecurity } from '../../services/access-token';
import type { EgressIp } from '../../services/egress-ip';
import { ExchangeRelay } from '../../services/exchange-relay';
import { findPlatform } from '../../services/platforms';

export interface ExchangeRelayOptions {
  egressIp: EgressIp;
  /** Relayed requests a trader may make a minute (an open is 6, a balance read 1, Repair a few per trade). */
  requestsPerMinute: number;
}

/** The default per-trader limit: far above a trader's use, far below Binance's 2400 weight a minute per IP. */
export const RELAY_REQUESTS_PER_MINUTE = 300;

const refusals = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  429: errorBody,
  502: errorBody,
  504: errorBody,
};

export const exchangeRelayRoutes: FastifyPluginAsyncZod<ExchangeRelayOptions> = async (app, options) => {
  // Before authentication, so that its 401 carries the header too; a forwarded answer removes it.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header(RELAY_HEADER, 'refused');
  });
  app.addHook('onRequest', app.authenticate);
  await app.register(rateLimit, {
    max: options.requestsPerMinute,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (request) => request.userUuid,
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        `Too many exchange requests through Signaldesk: at most ${context.max} a minute. Try again in ${context.after}`,
      ),
  });
  const relay = new ExchangeRelay(app.db, app.secretBox, app.clock);

  app.get(
    '/egress_ip/:platform_uuid/',
    {
      schema: {
        tags: ['exchange_relay'],
        summary:
          "The address the platform's exchange sees our requests come from (for its API key's IP list)",
        security: bearerSecurity,
        params: z.object({ platform_uuid: z.uuid() }),
        response: { 200: egressIpAnswer, 401: errorBody, 404: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const platform = await findPlatform(app.db, request.params.platform_uuid);
      if (!platform)
        throw new HttpError(404, `platform_uuid: unknown platform ${request.params.platform_uuid}`);
      return { result: { egress_ip: options.egressIp.forExchange(platform.base_url) } };
    },
  );

  // One route per call the product makes (RELAYED_CALLS): any other path or method is not found.
  for (const [path, methods] of Object.entries(RELAYED_CALLS) as [RelayedPath, readonly RelayMethod[]][]) {
    app.route({
      method: [...methods],
      url: `/:platform_uuid${path}`,
      // No automatic HEAD for the GET calls: a HEAD would be forwarded as a GET and spend the signature.
      exposeHeadRoute: false,
      schema: {
        tags: ['exchange_relay'],
        summary: `${methods.join(', ')} ${path}, signed by the page, forwarded verbatim to the platform's exchange`,
        description:
          "The exchange's status, body and rate-limit headers are the answer; the statuses listed are the relay's own refusals (docs/relay.md).",
        security: bearerSecurity,
        params: relayParams,
        headers: relayHeaders,
        response: refusals,
      },
      handler: async (request, reply) => {
        const at = request.url.indexOf('?');
        const query = at < 0 ? '' : request.url.slice(at + 1);
        if (!RELAY_QUERY_PATTERN.test(query)) {
          throw new HttpError(400, 'The signed query must be a percent-encoded query string');
        }
        if (request.body !== undefined && request.body !== '' && request.body !== null) {
          throw new HttpError(400, 'A relayed request carries its parameters in the query string only');
        }
        const platform = await findPlatform(app.db, request.params.platform_uuid);
        if (!platform?.base_url) {
          throw new HttpError(404, `platform_uuid: unknown platform ${request.params.platform_uuid}`);
        }
        const answer = await relay.forward({
          userUuid: request.userUuid,
          platformUuid: platform.platform_uuid,
          baseUrl: platform.base_url,
          method: request.method as RelayMethod,
          path,
          query,
          apiKey: request.headers['x-mbx-apikey'],
        });
        reply.removeHeader(RELAY_HEADER);
        // The exchange's own status and body, whatever they are: the typed reply knows only our refusals.
        const raw = reply as unknown as { code(status: number): { send(body: string): void } };
        reply.headers(answer.headers);
        if (isNoChangeAnswer(`${request.method} ${path}`, answer.status, answer.body)) {
          reply.header(RELAY_EXCHANGE_STATUS_HEADER, String(answer.status));
          raw.code(200).send(answer.body);
          return;
        }
        raw.code(answer.status).send(answer.body);
      },
    });
  }
};

/** The exchange's "no change needed" answer to a setting (RELAY_NO_CHANGE_ANSWERS), sent as a 4xx. */
function isNoChangeAnswer(call: string, status: number, body: string): boolean {
  const expected = RELAY_NO_CHANGE_ANSWERS[call];
  if (expected === undefined || status < 400 || status >= 500) return false;
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return Number(parsed.code) === expected;
  } catch {
    return false;
  }
}
