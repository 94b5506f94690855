// /api/trade_token/* (SPEC.md §4 server mode, §7): create, read with the PIN, revoke.
// A wrong PIN is answered 200 with the record at level WRONG_PIN_CODE and SPEC.md §4's message, so the SPA
// shows the same 'WRONG PIN CODE' state as in client mode (docs/server.md "Accounts and settings").
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TradeTokenLevel,
  TradeTokenMessage,
  changeTradeTokenPinBody,
  createTradeTokenBody,
  errorBody,
  followAccountAnswer,
  followAccountBody,
  getTradeTokenBody,
  revokeTradeTokenAnswer,
  revokeTradeTokenBody,
  tradeTokenAnswer,
} from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { HttpError, exchangeHttpError } from '../../http-error';
import { ExchangeError } from '../../../../shared-core/exchange-client';
import { bindRelayKey, relayKeyDigest } from '../../services/exchange-relay';
import { followAccount, unfollowAccount } from '../../services/followed-accounts';
import { sealUnattendedKey } from '../../services/unattended-keys';
import { getTradePreferences } from '../../services/preferences';
import { serverExchangeClient } from '../../services/exchange-transport';
import { TradeTokenAccess } from '../../services/trade-token-access';
import {
  WrongPinError,
  changeTradeTokenPin,
  createTradeToken,
  revokeTradeToken,
  toRecord,
} from '../../services/trade-tokens';

export const tradeTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const access = new TradeTokenAccess(app.db, app.secretBox, app.clock);

  app.post(
    '/create_trade_token/',
    {
      schema: {
        tags: ['trade_token'],
        summary: 'Seal and store exchange credentials under the PIN (replaces an earlier token)',
        security: bearerSecurity,
        body: createTradeTokenBody,
        response: {
          200: tradeTokenAnswer,
          400: errorBody,
          401: errorBody,
          404: errorBody,
          429: errorBody,
          502: errorBody,
        },
      },
    },
    async (request) => {
      const platform = await access.platformOr404(request.body.platform_uuid);
      const owner = {
        user_uuid: request.userUuid,
        user_trade_token_key: await access.userKey(request.userUuid),
      };
      // Only success is success (issue 36): one account read with the key, on the road server mode trades on,
      // before anything is saved. A refusal is answered with the exchange's reason (400), an exchange that
      // cannot be reached with 502; neither saves the key, so no refused key shows AVAILABLE.
      try {
        await serverExchangeClient(platform.base_url, request.body, request.userUuid, {
          newKey: true,
        }).getAccount();
      } catch (error) {
        if (error instanceof ExchangeError) throw exchangeHttpError(error);
        throw error;
      }
      const row = await createTradeToken(app.db, app.secretBox, owner, request.body, app.clock());
      // The exchange took the key: the relay binds it to this trader (docs/relay.md), and the server may
      // follow the account with it while the trader is away (issue 37; the API key only, never the secret).
      await bindRelayKey(
        app.db,
        relayKeyDigest(app.secretBox, platform.platform_uuid, request.body.api_key),
        request.userUuid,
      );
      await followAccount(app.db, app.secretBox, {
        user_uuid: request.userUuid,
        platform_uuid: platform.platform_uuid,
        api_key: request.body.api_key,
      });
      // A token saved while the server may act when the trader is away gets its second seal now (issue 54).
      await sealUnattendedKey(app.db, app.secretBox, {
        user_uuid: request.userUuid,
        platform_uuid: platform.platform_uuid,
        content: request.body,
      });
      return { result: toRecord(row, TradeTokenLevel.TRADE_AVAILABLE) };
    },
  );

  app.post(
    '/get_trade_token/',
    {
      schema: {
        tags: ['trade_token'],
        summary: 'The token record; level WRONG_PIN_CODE when the PIN does not open it',
        security: bearerSecurity,
        body: getTradeTokenBody,
        response: { 200: tradeTokenAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { platform_uuid, pin_code } = request.body;
      try {
        const { row } = await access.open(request.userUuid, platform_uuid, pin_code);
        return { result: toRecord(row, TradeTokenLevel.TRADE_AVAILABLE) };
      } catch (error) {
        if (!(error instanceof WrongPinError)) throw error;
        return {
          result: toRecord(error.row, TradeTokenLevel.WRONG_PIN_CODE, TradeTokenMessage.WRONG_PIN_CODE),
        };
      }
    },
  );

  app.post(
    '/change_pin_code/',
    {
      schema: {
        tags: ['trade_token'],
        summary: 'Re-encrypt the token under a new PIN (not in SPEC.md §7; client mode re-encrypts locally)',
        security: bearerSecurity,
        body: changeTradeTokenPinBody,
        response: {
          200: tradeTokenAnswer,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          429: errorBody,
        },
      },
    },
    async (request) => {
      const { platform_uuid, pin_code, new_pin_code } = request.body;
      try {
        const { row } = await access.open(request.userUuid, platform_uuid, pin_code);
        const key = await access.userKey(request.userUuid);
        const updated = await changeTradeTokenPin(app.db, app.secretBox, row, pin_code, new_pin_code, key);
        return { result: toRecord(updated, TradeTokenLevel.TRADE_AVAILABLE) };
      } catch (error) {
        // 403, not 401: a 401 would make the SPA refresh its session, which cannot fix a PIN.
        if (error instanceof WrongPinError) throw new HttpError(403, TradeTokenMessage.WRONG_PIN_CODE);
        throw error;
      }
    },
  );

  app.post(
    '/revoke_trade_token/',
    {
      schema: {
        tags: ['trade_token'],
        summary: 'Delete the token of a platform (idempotent)',
        security: bearerSecurity,
        body: revokeTradeTokenBody,
        response: { 200: revokeTradeTokenAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const { platform_uuid } = request.body;
      const revoked = await revokeTradeToken(app.db, request.userUuid, platform_uuid);
      // The key is forgotten: the account is no longer followed (issue 37).
      await unfollowAccount(app.db, request.userUuid, platform_uuid);
      return { result: { platform_uuid, revoked } };
    },
  );

  app.post(
    '/follow_account/',
    {
      schema: {
        tags: ['trade_token'],
        summary:
          'Follow the client-mode account while the trader is away: the API key only, bound to the trader (issue 37)',
        security: bearerSecurity,
        body: followAccountBody,
        response: {
          200: followAccountAnswer,
          400: errorBody,
          401: errorBody,
          404: errorBody,
          409: errorBody,
        },
      },
    },
    async (request) => {
      const { platform_uuid, api_key } = request.body;
      await access.platformOr404(platform_uuid);
      const preferences = await getTradePreferences(app.db, request.userUuid);
      if (preferences.trade_follow_when_away === 0) {
        throw new HttpError(409, "Following the account while you're away is off in Trade Preferences");
      }
      const answer = await followAccount(app.db, app.secretBox, {
        user_uuid: request.userUuid,
        platform_uuid,
        api_key,
      });
      // Only a key the exchange accepted from this trader through our relay: a pasted copy of someone else's key
      // is bound to them (or to nobody) and never opens their stream.
      if (answer === 'not_bound') {
        throw new HttpError(
          409,
          'The exchange has not accepted this API key from you through Signaldesk yet',
        );
      }
      return { result: { platform_uuid, followed: true as const } };
    },
  );
};
