// Orders a closed client-mode trade left waiting on the exchange (issue 37; contracts WaitingOrders): the user
// data stream recorded the close and marked them (services/account-events.ts), holding no secret to cancel
// them; the page cancels them with the key and clears the mark. Server-mode marks are the reconciler's
// (TradeReconciler.cancelWaitingOrders), so only client-mode trades are listed here.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TradeSide,
  clearWaitingOrdersAnswer,
  clearWaitingOrdersBody,
  errorBody,
  waitingOrdersAnswer,
} from '../../../../contracts';
import { symbols } from '../../db/schema';
import { trades } from '../../db/schema-trades';
import { bearerSecurity } from '../../services/access-token';
import { userTradeOr404 } from '../../services/trades';

export const waitingOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_waiting_orders/',
    {
      schema: {
        tags: ['trade'],
        summary:
          'Orders closed client-mode trades left waiting on the exchange, for the page to cancel (issue 37)',
        security: bearerSecurity,
        response: { 200: waitingOrdersAnswer, 401: errorBody },
      },
    },
    async (request) => {
      const rows = await app.db
        .select({
          trade_uuid: trades.trade_uuid,
          platform_uuid: trades.platform_uuid,
          symbol_pair: symbols.symbol_pair,
          order_ids: trades.trade_exits_waiting,
        })
        .from(trades)
        .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
        .where(
          and(
            eq(trades.user_uuid, request.userUuid),
            eq(trades.trade_in_server_side, TradeSide.CLIENT),
            isNotNull(trades.trade_exits_waiting),
          ),
        );
      return {
        result: { waiting: rows.map((row) => ({ ...row, order_ids: row.order_ids ?? [] })) },
      };
    },
  );

  app.post(
    '/clear_waiting_orders/',
    {
      schema: {
        tags: ['trade'],
        summary: 'These orders of a closed trade are no longer waiting on the exchange (issue 37)',
        security: bearerSecurity,
        body: clearWaitingOrdersBody,
        response: { 200: clearWaitingOrdersAnswer, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const { trade_uuid, order_ids } = request.body;
      const found = await userTradeOr404(app.db, request.userUuid, trade_uuid);
      const left = (found.trade.trade_exits_waiting ?? []).filter((id) => !order_ids.includes(id));
      await app.db
        .update(trades)
        .set({ trade_exits_waiting: left.length > 0 ? left : null })
        .where(eq(trades.trade_uuid, trade_uuid));
      return { result: { trade_uuid, order_ids: left } };
    },
  );
};
