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
import { RateLimiter } from '../../services/rate-limiter';
import { ADMIN_TOKEN_HEADER } from '../../../../paper-exchange/src/admin-guard';

const ADMIN_TIMEOUT_MS = 5000;

const DAY_MS = 24 * 60 * 60 * 1000;
export const PAPER_ACCOUNT_QUOTA =
  'You have created as many paper accounts as a day allows; try again in 24 hours';

export const paperExchangeRoutes: FastifyPluginAsyncZod<{
  paperExchangeUrl?: string;
  adminToken?: string;
  /** Accounts a trader may create in 24 h (issue 38 item 6): each is a funded account the exchange keeps. */
  accountsPerDay: number;
}> = async (app, { paperExchangeUrl, adminToken, accountsPerDay }) => {
  app.addHook('onRequest', app.authenticate);
  const quota = new RateLimiter(
    app.db,
    'paper_account',
    { maxFailures: accountsPerDay, windowMs: DAY_MS },
    app.clock,
  );
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
          429: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (request, reply) => {
      if (!paperExchangeUrl) throw new HttpError(503, 'The paper exchange is not running on this server');
      const balance = request.body?.balance;
      // Counted before the exchange is asked, so that many at once cannot all pass; given back when none is made.
      const reservation = await quota.reserve(request.userUuid);
      if (!reservation) {
        reply.header('Retry-After', String(Math.ceil(DAY_MS / 1000)));
        throw new HttpError(429, PAPER_ACCOUNT_QUOTA);
      }
      try {
        return { result: await createAccount(request, balance) };
      } catch (error) {
        await quota.release(reservation);
        throw error;
      }
    },
  );

  async function createAccount(
    request: { log: { warn(obj: object, msg: string): void } },
    balance: number | undefined,
  ) {
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
    return parsed.data;
  }
};
