// /api/trade/* (SPEC.md §7): open trades with their live fields, one trade's price trend, the history, the
// update-trade-status call (a reset to open) and the repair of error trades. Rules: docs/decisions.md
// "Trading".
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TradeStatus,
  deleteTradeErrorsAnswer,
  deleteTradeErrorsBody,
  errorBody,
  tradeAnswer,
  tradeHistoryQuery,
  tradeListAnswer,
  tradeTrendAnswer,
  tradeUuidParams,
  updateTradeStatusBody,
} from '../../../../contracts';
import { candlePointOf, MINUTE_MS } from '../../engine/candles';
import type { MarketFeed } from '../../engine/market-feed';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { TradeTokenAccess } from '../../services/trade-token-access';
import { priceAtRoe } from '../../services/trade-math';
import {
  TRADE_ALREADY_CLOSED,
  calculatedOf,
  claimUnannouncedCloses,
  listTradeHistory,
  toWireTrade,
  updateTrade,
  userTradeOr404,
} from '../../services/trades';
import { historyExportRoutes } from './history-export';
import { riskLimitRoutes } from './risk-limits';
import { waitingOrderRoutes } from './waiting-orders';

/** Minutes of price shown before a trade was opened ('Trade Trend Data'). */
const LEAD_MINUTES = 30;

export const tradeRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.addHook('onRequest', app.authenticate);
  const access = new TradeTokenAccess(app.db, app.secretBox, app.clock);
  const desk = app.tradeDesk;
  const monitor = desk.monitor;
  // The cockpit's (issue 18): the risk-limit state and the history export, under /trade/ with this hook.
  await app.register(riskLimitRoutes);
  await app.register(historyExportRoutes);
  await app.register(waitingOrderRoutes);

  app.post(
    '/update_trade_status/',
    {
      schema: {
        tags: ['trade'],
        summary:
          'Reset an open trade to open with no UI status (the pulsing button, or a direction_signal at 0)',
        security: bearerSecurity,
        body: updateTradeStatusBody,
        response: { 200: tradeAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const { trade_uuid } = request.body;
      const found = await userTradeOr404(app.db, request.userUuid, trade_uuid);
      if (found.trade.trade_status !== TradeStatus.OPEN) throw new HttpError(409, TRADE_ALREADY_CLOSED);
      const live = await monitor.resetUiStatus(trade_uuid);
      const row = live
        ? found.trade
        : ((await updateTrade(app.db, trade_uuid, { trade_ui_status: null })) ?? found.trade);
      const calculated = live ?? { ...calculatedOf(row), trade_ui_status: null };
      // Other tabs of the trader stop their countdown too.
      desk.notify(request.userUuid, trade_uuid, calculated);
      return { result: toWireTrade(row, found.symbol, calculated) };
    },
  );

  app.get(
    '/get_trades/open/',
    {
      schema: {
        tags: ['trade'],
        summary: "The trader's open trades with their live price, PNL, ROE and trailing level",
        security: bearerSecurity,
        response: { 200: tradeListAnswer, 401: errorBody },
      },
    },
    // Already checked against tradeListAnswer and serialised by the view: Fastify sends a JSON string as is
    // (the typed reply only knows the object form, hence the cast).
    async (request, reply) => {
      const body = await desk.openTrades.body(request.userUuid);
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.get(
    '/get_trade_trend_by_uuid/:trade_uuid/',
    {
      schema: {
        tags: ['trade'],
        summary:
          '1-minute candles from 30 minutes before the open to the close (or now), with TP and TS prices',
        security: bearerSecurity,
        params: tradeUuidParams,
        response: { 200: tradeTrendAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 503: errorBody },
      },
    },
    async (request) => {
      const { trade, symbol } = await userTradeOr404(app.db, request.userUuid, request.params.trade_uuid);
      const wire = toWireTrade(trade, symbol, monitor.calculated(trade.trade_uuid));
      const opened = Math.floor(trade.trade_create_timestamp.getTime() / MINUTE_MS) * MINUTE_MS;
      const end = trade.trade_close_timestamp?.getTime() ?? app.clock();
      let candles;
      try {
        candles = await feed.candlesBetween(symbol.symbol_pair, opened - LEAD_MINUTES * MINUTE_MS, end);
      } catch {
        throw new HttpError(503, 'Market data is not available');
      }
      const position = {
        trade_direction: wire.trade_direction,
        trade_open_price: wire.trade_open_price,
        trade_quantity: wire.trade_quantity,
        trade_leverage: wire.trade_leverage,
      };
      return {
        result: {
          trade: wire,
          trade_take_profit_price: priceAtRoe(
            position,
            trade.trade_take_profit_percent,
            symbol.symbol_price_precision,
          ),
          trade_treiling_stop_price: priceAtRoe(
            position,
            wire.trade_treiling_stop_percent_current,
            symbol.symbol_price_precision,
          ),
          trend_data_list: candles.map(candlePointOf),
        },
      };
    },
  );

  app.get(
    '/get_trades_history/',
    {
      schema: {
        tags: ['trade'],
        summary: 'Trades created between start_date and end_date, newest first',
        security: bearerSecurity,
        querystring: tradeHistoryQuery,
        response: { 200: tradeListAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const rows = await listTradeHistory(app.db, request.userUuid, request.query);
      const trade_list = rows.map(({ trade, symbol }) =>
        toWireTrade(trade, symbol, monitor.calculated(trade.trade_uuid)),
      );
      return { result: { trade_list } };
    },
  );

  app.post(
    '/claim_unannounced_closes/',
    {
      schema: {
        tags: ['trade'],
        summary:
          'Closes the server recorded with no page told (the exchange, the account follower), each answered once',
        security: bearerSecurity,
        response: { 200: tradeListAnswer, 401: errorBody },
      },
    },
    async (request) => {
      const rows = await claimUnannouncedCloses(app.db, request.userUuid);
      return { result: { trade_list: rows.map(({ trade, symbol }) => toWireTrade(trade, symbol)) } };
    },
  );

  app.delete(
    '/delete_trade_errors/',
    {
      schema: {
        tags: ['trade'],
        summary:
          'Repair error trades: reconcile server-mode ones with the exchange (PINs given), fix the rest locally',
        security: bearerSecurity,
        body: deleteTradeErrorsBody.nullish(),
        response: {
          200: deleteTradeErrorsAnswer,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          429: errorBody,
          502: errorBody,
        },
      },
    },
    async (request) => {
      const pins = request.body?.pin_code_by_platform_uuid ?? {};
      const count = await desk.reconciler.repair(request.userUuid, pins, access);
      return { result: { count } };
    },
  );
};
