// POST /api/account_balance/get_account_balance/ (SPEC.md §4 "Balance retrieval", method 1 = server side):
// opens the trade token with the PIN and reads the exchange account with the decrypted key. It also starts
// the reconciliation of the trader's server-mode trades (services/trade-reconciler.ts), as this call brings the PIN
// every 30 s.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TradeTokenMessage,
  accountBalanceAnswer,
  errorBody,
  getAccountBalanceBody,
} from '../../../../contracts';
import { ExchangeError } from '../../../../shared-core/exchange-client';
import { serverExchangeClient } from '../../services/exchange-transport';
import { bearerSecurity } from '../../services/access-token';
import { exchangeHttpError, HttpError } from '../../http-error';
import { TradeTokenAccess } from '../../services/trade-token-access';
import { WrongPinError, touchTradeToken } from '../../services/trade-tokens';

export const accountBalanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const access = new TradeTokenAccess(app.db, app.secretBox, app.clock);

  app.post(
    '/get_account_balance/',
    {
      schema: {
        tags: ['account_balance'],
        summary: "The exchange account's totals, read with the server-mode trade token",
        security: bearerSecurity,
        body: getAccountBalanceBody,
        response: {
          200: accountBalanceAnswer,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          429: errorBody,
          502: errorBody,
        },
      },
    },
    async (request) => {
      const { platform_uuid, pin_code } = request.body;
      let opened;
      try {
        opened = await access.open(request.userUuid, platform_uuid, pin_code);
      } catch (error) {
        // 403, not 401: a 401 would make the SPA refresh its session, which cannot fix a PIN.
        if (error instanceof WrongPinError) throw new HttpError(403, TradeTokenMessage.WRONG_PIN_CODE);
        throw error;
      }
      const client = serverExchangeClient(opened.platform.base_url, opened.content, request.userUuid);
      try {
        const result = await client.getAccount();
        await touchTradeToken(app.db, opened.row.trade_token_uuid);
        // With the key open anyway, the trader's open server-mode trades on this platform are checked against
        // the exchange in the background (a stop that fired closes its trade); never part of this answer.
        app.tradeDesk.reconciler.reconcileInBackground(request.userUuid, platform_uuid, client);
        return { result };
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        // The exchange refused with a code (bad key, permissions …): the trader's to fix, so 400 with the
        // catalogue text. Not reached, or failing: 502; our budget's refusal: 429 (http-error.ts, one mapping).
        throw exchangeHttpError(error);
      }
    },
  );
};
