// Order, algo-order and configuration endpoints (reference §5-6).
import { setLeverage, setMarginType, setPositionMode } from '../account-config.js';
import { cancelAlgo, findAlgo, placeAlgo, viewAlgo } from '../algo-orders.js';
import { Errors } from '../errors.js';
import type { ExchangeCore } from '../exchange-core.js';
import { parseOrderRequest, requireSymbol } from '../order-params.js';
import { cancelAllOrders, cancelOrder, findOrder, parseLimit, timeRange } from '../order-queries.js';
import { submitOrder } from '../orders.js';
import { orderView } from '../views.js';
import { accountOf, fapi, type RouteDef } from './route.js';

const CANCEL_ALL_DONE = { code: 200, msg: 'The operation of cancel all open order is done.' };

function openOrdersView(core: ExchangeCore, accountId: number, symbol: string | undefined) {
  return core
    .openOrdersOf(accountId, symbol)
    .sort((a, b) => a.orderId - b.orderId)
    .map((order) => orderView(order));
}

export const tradeRoutes: RouteDef[] = [
  {
    method: 'POST',
    paths: [fapi(1, 'order')],
    security: 'SIGNED',
    weight: 0,
    newOrder: true,
    handler: (ctx) => {
      const account = accountOf(ctx);
      const req = parseOrderRequest(ctx.params, {
        dualSidePosition: account.dualSidePosition,
        algo: false,
        legacyConditional: ctx.core.legacyFor(account),
        markOf: (symbol) => ctx.core.market.mark(symbol),
      });
      const { order, ack } = submitOrder(ctx.core, account, req);
      // RESULT answers the final state of a MARKET order, ACK the state at acceptance (reference §6).
      return orderView(req.respType === 'RESULT' ? order : ack, false);
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'order')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const order = findOrder(ctx.core, accountOf(ctx), ctx.params);
      if (!order) throw Errors.noSuchOrder();
      return orderView(order);
    },
  },
  {
    method: 'DELETE',
    paths: [fapi(1, 'order')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => orderView(cancelOrder(ctx.core, accountOf(ctx), ctx.params), false),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'openOrder')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const order = findOrder(ctx.core, accountOf(ctx), ctx.params);
      if (!order || !ctx.core.openOrders.has(order.orderId)) throw Errors.noSuchOrder();
      return orderView(order);
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'openOrders')],
    security: 'SIGNED',
    weight: (params) => (params.has('symbol') ? 1 : 40),
    handler: (ctx) => {
      const symbol = ctx.params.has('symbol') ? requireSymbol(ctx.params).symbol : undefined;
      return openOrdersView(ctx.core, accountOf(ctx).id, symbol);
    },
  },
  {
    method: 'DELETE',
    paths: [fapi(1, 'allOpenOrders')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      cancelAllOrders(ctx.core, accountOf(ctx), ctx.params);
      return CANCEL_ALL_DONE;
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'allOrders')],
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = accountOf(ctx);
      const spec = requireSymbol(ctx.params);
      const { start, end } = timeRange(ctx.params);
      const fromId = Number(ctx.params.get('orderId') ?? 0);
      const orders = [...ctx.core.store.tables.orders.values()].filter(
        (o) =>
          o.accountId === account.id &&
          o.symbol === spec.symbol &&
          o.orderId >= fromId &&
          (start === undefined || o.time >= start) &&
          (end === undefined || o.time <= end),
      );
      const limit = parseLimit(ctx.params, 500, 1000);
      const sorted = orders.sort((a, b) => a.orderId - b.orderId);
      // From orderId onwards when it is sent, else the most recent ones.
      const picked = ctx.params.has('orderId') ? sorted.slice(0, limit) : sorted.slice(-limit);
      return picked.map((order) => orderView(order));
    },
  },
  {
    method: 'POST',
    paths: [fapi(1, 'algoOrder')],
    security: 'SIGNED',
    weight: 0,
    newOrder: true,
    handler: (ctx) => placeAlgo(ctx.core, accountOf(ctx), ctx.params),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'algoOrder')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const algo = findAlgo(ctx.core, accountOf(ctx), ctx.params);
      if (!algo) throw Errors.noSuchOrder();
      return viewAlgo(ctx.core, algo);
    },
  },
  {
    method: 'DELETE',
    paths: [fapi(1, 'algoOrder')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => cancelAlgo(ctx.core, accountOf(ctx), ctx.params),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'openAlgoOrders')],
    security: 'SIGNED',
    weight: (params) => (params.has('symbol') ? 1 : 40),
    handler: (ctx) => {
      const symbol = ctx.params.has('symbol') ? requireSymbol(ctx.params).symbol : undefined;
      return ctx.core
        .openAlgosOf(accountOf(ctx).id, symbol)
        .sort((a, b) => a.algoId - b.algoId)
        .map((algo) => viewAlgo(ctx.core, algo));
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'allAlgoOrders')],
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = accountOf(ctx);
      const spec = requireSymbol(ctx.params);
      return [...ctx.core.store.tables.algoOrders.values()]
        .filter((a) => a.accountId === account.id && a.symbol === spec.symbol)
        .sort((a, b) => a.algoId - b.algoId)
        .slice(-parseLimit(ctx.params, 500, 1000))
        .map((algo) => viewAlgo(ctx.core, algo));
    },
  },
  {
    method: 'DELETE',
    paths: [fapi(1, 'algoOpenOrders')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      ctx.exchange.cancelAllAlgos(accountOf(ctx), requireSymbol(ctx.params).symbol);
      return CANCEL_ALL_DONE;
    },
  },
  {
    method: 'POST',
    paths: [fapi(1, 'leverage')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => setLeverage(ctx.core, accountOf(ctx), ctx.params),
  },
  {
    method: 'POST',
    paths: [fapi(1, 'marginType')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => setMarginType(ctx.core, accountOf(ctx), ctx.params),
  },
  {
    method: 'POST',
    paths: [fapi(1, 'positionSide/dual')],
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => setPositionMode(ctx.core, accountOf(ctx), ctx.params),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'positionSide/dual')],
    security: 'SIGNED',
    weight: 30,
    handler: (ctx) => ({ dualSidePosition: accountOf(ctx).dualSidePosition }),
  },
];
