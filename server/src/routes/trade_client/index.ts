// /api/trade_client/* (SPEC.md §4 "Opening a trade", "Closing a trade", client mode; §7): the SPA opened or
// closed the position on the exchange itself and records it here; and the stop it placed for a trade that had
// none (Repair, set_trade_stop: not in SPEC.md).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TradeError,
  closeClientTradeBody,
  createClientTradeBody,
  errorBody,
  setClientTradeStopBody,
  tradeAnswer,
} from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import {
  TRADE_ALREADY_CLOSED,
  calculatedOf,
  insertTrade,
  toWireTrade,
  tradeOrigin,
  updateTrade,
  userTradeOr404,
} from '../../services/trades';

/** set_trade_stop on a trade that has its stop: the SPA must not replace the id its close will cancel. */
export const TRADE_HAS_STOP = 'This trade has its stop already';

export const tradeClientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const desk = app.tradeDesk;

  app.post(
    '/create_trade/',
    {
      schema: {
        tags: ['trade_client'],
        summary: 'Record a trade the SPA opened on the exchange (client mode)',
        security: bearerSecurity,
        body: createClientTradeBody,
        response: { 201: tradeAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const origin = await tradeOrigin(app.db, body.signal_uuid, body.trade_leverage);
      const row = await insertTrade(app.db, {
        user_uuid: request.userUuid,
        origin,
        settings: body,
        trade_in_server_side: 0,
        position: {
          trade_open_price: body.trade_open_price,
          trade_quantity: body.trade_quantity,
          trade_order_id: body.trade_order_id,
          trade_stop_order_id: body.trade_stop_order_id,
          trade_stop_price: body.trade_stop_price,
          trade_open_commission: body.trade_open_commission,
          trade_maint_margin_rate: body.trade_maint_margin_rate,
          trade_maint_amount: body.trade_maint_amount,
          trade_exits: body.trade_exits ?? null,
          trade_backstop: body.trade_backstop ?? null,
        },
        now: desk.now(),
      });
      desk.monitor.watch({ ...row, symbol_pair: origin.symbol.symbol_pair });
      const live = desk.monitor.calculated(row.trade_uuid);
      // The owner's other tabs and devices learn of the new trade and read the list again.
      desk.announceOpen(row, origin.symbol.symbol_pair, live ?? calculatedOf(row));
      reply.status(201);
      return { result: toWireTrade(row, origin.symbol, live) };
    },
  );

  app.post(
    '/close_trade/',
    {
      schema: {
        tags: ['trade_client'],
        summary: 'Record the close of a client-mode trade; realized PNL at the reported (or current) price',
        security: bearerSecurity,
        body: closeClientTradeBody,
        response: { 200: tradeAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const { trade_uuid, trade_status, trade_close_price, trade_close_commission } = request.body;
      return desk.exclusively(trade_uuid, async () => {
        const found = await userTradeOr404(app.db, request.userUuid, trade_uuid);
        if (found.trade.trade_status !== 'open') throw new HttpError(409, TRADE_ALREADY_CLOSED);
        if (found.trade.trade_in_server_side === 1) {
          throw new HttpError(
            400,
            'This trade was opened in server mode: close it with /trade_server/close_trade/',
          );
        }
        const closed = await desk.recordClose(
          found,
          trade_status,
          trade_close_price ?? desk.currentPriceOf(found),
          // The fill's commission only with the fill's price (issue 18).
          trade_close_price ? trade_close_commission : undefined,
          // The page that records it tells its trader.
          { trade_close_announced: true },
        );
        if (!closed) throw new HttpError(409, TRADE_ALREADY_CLOSED);
        return { result: toWireTrade(closed, found.symbol) };
      });
    },
  );

  app.post(
    '/set_trade_stop/',
    {
      schema: {
        tags: ['trade_client'],
        summary: 'Record the stop the SPA placed for a client-mode trade that had none (Repair)',
        security: bearerSecurity,
        body: setClientTradeStopBody,
        response: { 200: tradeAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const { trade_uuid, trade_stop_order_id, trade_stop_price, trade_backstop } = request.body;
      return desk.exclusively(trade_uuid, async () => {
        const found = await userTradeOr404(app.db, request.userUuid, trade_uuid);
        if (found.trade.trade_status !== 'open') throw new HttpError(409, TRADE_ALREADY_CLOSED);
        if (found.trade.trade_in_server_side === 1) {
          throw new HttpError(400, 'This trade was opened in server mode: its stop is placed by the server');
        }
        if (found.trade.trade_stop_order_id !== null) throw new HttpError(409, TRADE_HAS_STOP);
        const updated = await updateTrade(app.db, trade_uuid, {
          trade_stop_order_id,
          trade_stop_price,
          ...(trade_backstop !== undefined ? { trade_backstop } : {}),
          ...(found.trade.trade_error === TradeError.STOP_MISSING ? { trade_error: null } : {}),
        });
        if (!updated) throw new HttpError(409, TRADE_ALREADY_CLOSED);
        desk.monitor.watch({ ...updated, symbol_pair: found.symbol.symbol_pair });
        const live = desk.monitor.calculated(trade_uuid);
        // Told to the owner's sockets, as every change of a trade is.
        desk.notify(request.userUuid, trade_uuid, live ?? calculatedOf(updated));
        return { result: toWireTrade(updated, found.symbol, live) };
      });
    },
  );
};
