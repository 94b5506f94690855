// Account, balance, position, bracket, trade-history and income endpoints (reference §7-8), and the
// listenKey endpoints of the user data stream (reference §9).
import type { AccountMetrics } from '../account-state.js';
import { Errors } from '../errors.js';
import type { ExchangeCore } from '../exchange-core.js';
import {
  maxNotionalForLeverage,
  SYMBOLS,
  MAKER_FEE_RATE,
  TAKER_FEE_RATE,
  type SymbolSpec,
} from '../market/symbols.js';
import { requireSymbol } from '../order-params.js';
import { parseLimit, timeRange } from '../order-queries.js';
import type { AccountRecord, PositionSide } from '../state.js';
import {
  accountTotals,
  assetView,
  balanceView,
  money,
  positionRiskV2,
  positionRiskV3,
  qtyText,
  tradeView,
  type PositionLine,
} from '../views.js';
import { accountOf, fapi, type RouteDef, type RouteContext } from './route.js';

const WEEK_MS = 7 * 86_400_000;

/** One line per symbol (BOTH) in one-way mode, LONG and SHORT in hedge mode; flat lines included. */
function positionLines(
  core: ExchangeCore,
  account: AccountRecord,
  metrics: AccountMetrics,
  specs: readonly SymbolSpec[],
) {
  const sides: PositionSide[] = account.dualSidePosition ? ['LONG', 'SHORT'] : ['BOTH'];
  const lines: PositionLine[] = [];
  for (const spec of specs) {
    const settings = core.accounts.settings(account, spec.symbol);
    for (const positionSide of sides) {
      const m = metrics.positions.find((p) => p.spec === spec && p.record.positionSide === positionSide);
      const record = core.position(account.id, spec.symbol, positionSide);
      lines.push({
        symbol: spec.symbol,
        positionSide,
        metrics: m,
        leverage: settings.leverage,
        isolated: settings.marginType === 'ISOLATED',
        mark: core.market.mark(spec.symbol),
        updateTime: record?.updateTime ?? 0,
      });
    }
  }
  return lines;
}

/** v3 lists only symbols with a position or open orders (reference §7). */
function activeLines(core: ExchangeCore, account: AccountRecord, lines: PositionLine[]) {
  return lines.filter(
    (line) =>
      line.metrics ||
      core.openOrdersOf(account.id, line.symbol).length > 0 ||
      core.openAlgosOf(account.id, line.symbol).length > 0,
  );
}

function symbolsOf(ctx: RouteContext): readonly SymbolSpec[] {
  return ctx.params.has('symbol') ? [requireSymbol(ctx.params)] : SYMBOLS;
}

function accountV2(ctx: RouteContext) {
  const account = accountOf(ctx);
  const metrics = ctx.core.metrics(account);
  const positions = positionLines(ctx.core, account, metrics, SYMBOLS).map((line) => {
    const m = line.metrics;
    const spec = SYMBOLS.find((s) => s.symbol === line.symbol) as SymbolSpec;
    return {
      symbol: line.symbol,
      initialMargin: money(m?.initialMargin ?? '0'),
      maintMargin: money(m?.maint.margin ?? '0'),
      unrealizedProfit: money(m?.pnl ?? '0'),
      positionInitialMargin: money(m?.initialMargin ?? '0'),
      openOrderInitialMargin: money(metrics.openOrderMarginBySymbol.get(line.symbol) ?? '0'),
      leverage: String(line.leverage),
      isolated: line.isolated,
      entryPrice: money(m?.entry ?? '0'),
      breakEvenPrice: money(m?.breakEvenPrice ?? '0'),
      maxNotional: String(maxNotionalForLeverage(spec, line.leverage)),
      bidNotional: '0',
      askNotional: '0',
      positionSide: line.positionSide,
      positionAmt: qtyText(spec, m?.amt ?? '0'),
      isolatedWallet: money(m?.isolated ? m.isolatedWallet : '0'),
      notional: money(m?.notional ?? '0'),
      updateTime: line.updateTime,
    };
  });
  return {
    feeTier: 0,
    feeBurn: false,
    canTrade: true,
    canDeposit: true,
    canWithdraw: true,
    updateTime: 0,
    multiAssetsMargin: false,
    tradeGroupId: -1,
    ...accountTotals(metrics),
    assets: [assetView(metrics)],
    positions,
  };
}

function accountV3(ctx: RouteContext) {
  const account = accountOf(ctx);
  const metrics = ctx.core.metrics(account);
  const lines = activeLines(ctx.core, account, positionLines(ctx.core, account, metrics, SYMBOLS));
  return {
    ...accountTotals(metrics),
    assets: [assetView(metrics)],
    positions: lines.map((line) => {
      const v = positionRiskV3(line);
      return {
        symbol: v.symbol,
        positionSide: v.positionSide,
        positionAmt: v.positionAmt,
        unrealizedProfit: v.unRealizedProfit,
        isolatedMargin: v.isolatedMargin,
        notional: v.notional,
        isolatedWallet: v.isolatedWallet,
        initialMargin: v.initialMargin,
        maintMargin: v.maintMargin,
        updateTime: v.updateTime,
      };
    }),
  };
}

function userTrades(ctx: RouteContext) {
  const account = accountOf(ctx);
  const spec = requireSymbol(ctx.params);
  const { start, end } = timeRange(ctx.params);
  const orderId = ctx.params.get('orderId');
  const fromId = ctx.params.get('fromId');
  const limit = parseLimit(ctx.params, 500, 1000);
  const windowed = start === undefined && end === undefined && fromId === undefined && orderId === undefined;
  const from = windowed ? ctx.now - WEEK_MS : (start ?? 0);
  const trades = [...ctx.core.store.tables.trades.values()].filter(
    (t) =>
      t.accountId === account.id &&
      t.symbol === spec.symbol &&
      (orderId === undefined || t.orderId === Number(orderId)) &&
      (fromId === undefined || t.id >= Number(fromId)) &&
      t.time >= from &&
      (end === undefined || t.time <= end),
  );
  trades.sort((a, b) => a.id - b.id);
  return (fromId === undefined ? trades.slice(-limit) : trades.slice(0, limit)).map(tradeView);
}

function income(ctx: RouteContext) {
  const account = accountOf(ctx);
  const symbol = ctx.params.has('symbol') ? requireSymbol(ctx.params).symbol : undefined;
  const incomeType = ctx.params.get('incomeType');
  const { start, end } = timeRange(ctx.params);
  const limit = parseLimit(ctx.params, 100, 1000);
  const from = start ?? (end === undefined ? ctx.now - WEEK_MS : 0);
  const rows = [...ctx.core.store.tables.income.values()]
    .filter(
      (i) =>
        i.accountId === account.id &&
        (symbol === undefined || i.symbol === symbol) &&
        (incomeType === undefined || i.incomeType === incomeType) &&
        i.time >= from &&
        (end === undefined || i.time <= end),
    )
    .sort((a, b) => a.time - b.time || a.tranId - b.tranId)
    .slice(0, limit);
  return rows.map((i) => ({
    symbol: i.symbol,
    incomeType: i.incomeType,
    income: money(i.income),
    asset: 'USDT',
    info: i.info,
    time: i.time,
    tranId: i.tranId,
    tradeId: i.tradeId,
  }));
}

function leverageBracket(ctx: RouteContext) {
  const rows = symbolsOf(ctx).map((spec) => ({
    symbol: spec.symbol,
    notionalCoef: 1.0,
    brackets: spec.brackets,
  }));
  return ctx.params.has('symbol') ? rows[0] : rows;
}

export const accountRoutes: RouteDef[] = [
  { method: 'GET', paths: [fapi(2, 'account')], security: 'SIGNED', weight: 5, handler: accountV2 },
  { method: 'GET', paths: [fapi(3, 'account')], security: 'SIGNED', weight: 5, handler: accountV3 },
  {
    method: 'GET',
    paths: [fapi(2, 'balance'), fapi(3, 'balance')],
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => [balanceView(ctx.core.metrics(accountOf(ctx)))],
  },
  {
    method: 'GET',
    paths: [fapi(2, 'positionRisk')],
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = accountOf(ctx);
      return positionLines(ctx.core, account, ctx.core.metrics(account), symbolsOf(ctx)).map(positionRiskV2);
    },
  },
  {
    method: 'GET',
    paths: [fapi(3, 'positionRisk')],
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = accountOf(ctx);
      const lines = positionLines(ctx.core, account, ctx.core.metrics(account), symbolsOf(ctx));
      return activeLines(ctx.core, account, lines).map(positionRiskV3);
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'leverageBracket')],
    security: 'SIGNED',
    weight: 1,
    handler: leverageBracket,
  },
  { method: 'GET', paths: [fapi(1, 'userTrades')], security: 'SIGNED', weight: 5, handler: userTrades },
  { method: 'GET', paths: [fapi(1, 'income')], security: 'SIGNED', weight: 30, handler: income },
  {
    method: 'GET',
    paths: [fapi(1, 'symbolConfig')],
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = accountOf(ctx);
      return symbolsOf(ctx).map((spec) => {
        const settings = ctx.core.accounts.settings(account, spec.symbol);
        return {
          symbol: spec.symbol,
          marginType: settings.marginType,
          isAutoAddMargin: false,
          leverage: settings.leverage,
          maxNotionalValue: String(maxNotionalForLeverage(spec, settings.leverage)),
        };
      });
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'commissionRate')],
    security: 'SIGNED',
    weight: 20,
    handler: (ctx) => ({
      symbol: requireSymbol(ctx.params).symbol,
      makerCommissionRate: MAKER_FEE_RATE,
      takerCommissionRate: TAKER_FEE_RATE,
    }),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'multiAssetsMargin')],
    security: 'SIGNED',
    weight: 30,
    handler: () => ({ multiAssetsMargin: false }),
  },
  {
    method: 'POST',
    paths: [fapi(1, 'listenKey')],
    security: 'API_KEY',
    weight: 1,
    handler: (ctx) => ({ listenKey: ctx.core.accounts.openListenKey(accountOf(ctx), ctx.now) }),
  },
  {
    method: 'PUT',
    paths: [fapi(1, 'listenKey')],
    security: 'API_KEY',
    weight: 1,
    handler: (ctx) => {
      const key = ctx.core.accounts.keepAliveListenKey(accountOf(ctx), ctx.params.get('listenKey'), ctx.now);
      if (!key) throw Errors.invalidListenKey();
      return { listenKey: key };
    },
  },
  {
    method: 'DELETE',
    paths: [fapi(1, 'listenKey')],
    security: 'API_KEY',
    weight: 1,
    handler: (ctx) => {
      const closed = ctx.core.accounts.closeListenKey(accountOf(ctx), ctx.params.get('listenKey'));
      for (const key of closed) ctx.exchange.listenKeyClosed(key);
      return {};
    },
  },
];
