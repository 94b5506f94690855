// Applying one fill to an account: position size and entry price, isolated wallet, realized PNL
// (size × (exit − entry) per reference §12), maker/taker commission, the trade and the income records.
import type { ExchangeCore } from './exchange-core.js';
import { findSymbol, MAKER_FEE_RATE, TAKER_FEE_RATE, type SymbolSpec } from './market/symbols.js';
import { D, ZERO, type Dec } from './num.js';
import type {
  AccountRecord,
  IncomeRecord,
  IncomeType,
  OrderRecord,
  PositionRecord,
  PositionSide,
  Side,
  TradeRecord,
} from './state.js';

/** Commission is charged with 8 decimals, like every USDT amount on the wallet. */
const COMMISSION_DECIMALS = 8;

export interface FillResult {
  trade: TradeRecord;
  positions: PositionRecord[];
}

/** Position side a fill goes to: BOTH in one-way mode, else the order's LONG/SHORT. */
export function targetSide(account: AccountRecord, orderPositionSide: PositionSide): PositionSide {
  return account.dualSidePosition ? orderPositionSide : 'BOTH';
}

/**
 * Quantity of this order side that reduces the current position: in one-way mode the opposite side of
 * the position; in hedge mode SELL on LONG and BUY on SHORT.
 */
export function reducibleQty(
  core: ExchangeCore,
  account: AccountRecord,
  symbol: string,
  side: Side,
  positionSide: PositionSide,
): Dec {
  const ps = targetSide(account, positionSide);
  const amt = core.amount(account.id, symbol, ps);
  if (ps === 'LONG') return side === 'SELL' ? amt.abs() : ZERO;
  if (ps === 'SHORT') return side === 'BUY' ? amt.abs() : ZERO;
  if (side === 'SELL' && amt.greaterThan(0)) return amt;
  if (side === 'BUY' && amt.lessThan(0)) return amt.abs();
  return ZERO;
}

export function addIncome(
  core: ExchangeCore,
  account: AccountRecord,
  incomeType: IncomeType,
  amount: Dec,
  symbol: string,
  tradeId: string,
  now: number,
): void {
  if (amount.isZero()) return;
  const tranId = core.store.nextId('tranId');
  const record: IncomeRecord = {
    tranId,
    accountId: account.id,
    symbol,
    incomeType,
    income: amount.toString(),
    info: incomeType,
    tradeId,
    time: now,
  };
  core.store.put('income', tranId, record);
}

export function fill(
  core: ExchangeCore,
  account: AccountRecord,
  order: OrderRecord,
  qty: Dec,
  price: Dec,
  maker: boolean,
  now: number,
): FillResult {
  const spec = findSymbol(order.symbol) as SymbolSpec;
  const settings = core.accounts.settings(account, order.symbol);
  const isolated = settings.marginType === 'ISOLATED';
  const position = core.ensurePosition(
    account.id,
    order.symbol,
    targetSide(account, order.positionSide),
    now,
  );
  const direction = order.side === 'BUY' ? 1 : -1;
  let amt = new D(position.positionAmt);
  let entry = new D(position.entryPrice);
  let isolatedWallet = new D(position.isolatedWallet);
  let realized = ZERO;
  let remaining = qty;

  const reducing = !amt.isZero() && amt.greaterThan(0) !== direction > 0;
  if (reducing) {
    const closeQty = D.min(remaining, amt.abs());
    const side = amt.greaterThan(0) ? 1 : -1;
    realized = closeQty.times(price.minus(entry)).times(side);
    if (isolated) {
      const release = isolatedWallet.times(closeQty).div(amt.abs());
      isolatedWallet = isolatedWallet.minus(release);
    }
    amt = amt.minus(closeQty.times(side));
    if (amt.isZero()) {
      entry = ZERO;
      isolatedWallet = ZERO;
    }
    remaining = remaining.minus(closeQty);
  }
  if (remaining.greaterThan(0)) {
    const size = amt.abs();
    entry = size.times(entry).plus(remaining.times(price)).div(size.plus(remaining));
    amt = amt.plus(remaining.times(direction));
    if (isolated) isolatedWallet = isolatedWallet.plus(remaining.times(price).div(settings.leverage));
  }

  const quote = qty.times(price);
  const commission = quote
    .times(maker ? MAKER_FEE_RATE : TAKER_FEE_RATE)
    .toDecimalPlaces(COMMISSION_DECIMALS, D.ROUND_HALF_UP);
  account.walletBalance = new D(account.walletBalance).plus(realized).minus(commission).toString();
  account.updateTime = now;
  core.store.touch('accounts', account.id);

  position.positionAmt = amt.toString();
  position.entryPrice = entry.toString();
  position.isolatedWallet = isolatedWallet.toString();
  position.accumulatedRealized = new D(position.accumulatedRealized).plus(realized).toString();
  position.updateTime = now;
  core.store.touch('positions', position.key);

  const executed = new D(order.executedQty).plus(qty);
  const cumQuote = new D(order.cumQuote).plus(quote);
  order.executedQty = executed.toString();
  order.cumQuote = cumQuote.toString();
  order.avgPrice = cumQuote.div(executed).toString();
  order.updateTime = now;

  const trade: TradeRecord = {
    id: core.store.nextId('tradeId'),
    accountId: account.id,
    orderId: order.orderId,
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    price: price.toString(),
    qty: qty.toString(),
    quoteQty: quote.toString(),
    commission: commission.toString(),
    realizedPnl: realized.toString(),
    maker,
    time: now,
  };
  core.store.put('trades', trade.id, trade);
  addIncome(core, account, 'REALIZED_PNL', realized, order.symbol, String(trade.id), now);
  addIncome(core, account, 'COMMISSION', commission.negated(), order.symbol, String(trade.id), now);
  core.publishTrade({
    symbol: order.symbol,
    id: core.market.nextTradeId(),
    price: price.toFixed(spec.pricePrecision),
    qty: qty.toFixed(spec.quantityPrecision),
    buyerMaker: order.side === 'SELL',
    time: now,
  });
  return { trade, positions: [position] };
}
