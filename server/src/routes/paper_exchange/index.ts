// POST /api/paper_exchange/create_account/: "Create paper account" (DESIGN.md "How things run"). Asks the
// embedded paper exchange's loopback admin endpoint for a funded account (with its admin token) and hands its
// credentials to the SPA, which fills the trade token form with them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createPaperAccountAnswer,
  createPaperAccountBody,
  errorBody,
  paperAccount,
} from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { ADMIN_TOKEN_HEADER } from '../../../../paper-exchange/src/admin-guard';

const ADMIN_TIMEOUT_MS = 5000;

export const paperExchangeRoutes: FastifyPluginAsyncZod<{
  paperExchangeUrl?: string;
  adminToken?: string;
}> = async (app, { paperExchangeUrl, adminToken }) => {
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/create_account/',
    {
      schema: {
        tags: ['paper_exchange'],
        summary: 'A funded account on the embedded paper exchange',
        security: bearerSecurity,
        // Fastify hands a request without a body over as null.
        body: createPaperAccountBody.nullish(),
        response: {
          200: createPaperAccountAnswer,
          400: errorBody,
          401: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (request) => {
      if (!paperExchangeUrl) throw new HttpError(503, 'The paper exchange is not running on this server');
      const balance = request.body?.balance;
      let response: Response;
      try {
        response = await fetch(`${paperExchangeUrl}/admin/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [ADMIN_TOKEN_HEADER]: adminToken ?? '' },
          // The admin endpoint takes the balance as a decimal string, and its own default when absent.
          body: JSON.stringify(balance === undefined ? {} : { balance: String(balance) }),
          signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
        });
      } catch (error) {
        request.log.warn({ err: error }, 'paper exchange admin unreachable');
        throw new HttpError(502, 'The paper exchange did not answer');
      }
      const parsed = paperAccount.safeParse(await response.json().catch(() => undefined));
      if (!response.ok || !parsed.success) {
        throw new HttpError(502, `The paper exchange could not create an account (HTTP ${response.status})`);
      }
      return { result: parsed.data };
    },
  );
};
