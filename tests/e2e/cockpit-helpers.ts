// The trader's cockpit in the browser (issue 18): a row's Liq. $ and Net $ cells, and a closed trade's net
// realized PNL, checked against trade-core's figures for what the paper exchange reports of the trade's own
// fills (GET /fapi/v1/userTrades), its leverage brackets and its commission rate, read with the trader's keys.
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import type { Trade } from '../../contracts';
import {
  addDecimals,
  compareDecimals,
  initTradeCore,
  initialMargin,
  liquidationPrice,
  mulDecimals,
  roundDecimal,
  subDecimals,
  sumDecimals,
  unrealizedPnl,
} from '../../shared-core/trade-core-node';
import { clientOrderIds, fixed, type PaperAccount, type PaperExchange } from './trading-helpers';

interface Fill {
  commission: string;
  commissionAsset: string;
}
interface Bracket {
  notionalFloor: number;
  notionalCap: number;
  maintMarginRatio: number;
  cum: number;
}

/** The commission the exchange charged for an order's fills (a cost, summed). */
async function commissionOf(exchange: PaperExchange, account: PaperAccount, pair: string, orderId: number) {
  const fills = await exchange.signed<Fill[]>(account, 'GET', '/fapi/v1/userTrades', {
    symbol: pair,
    orderId,
  });
  expect(fills.length).toBeGreaterThan(0);
  expect(fills.every((fill) => fill.commissionAsset === 'USDT')).toBe(true);
  return sumDecimals(fills.map((fill) => fill.commission.replace(/^-/, '')));
}

/** The opening fill's commission, as the exchange charged it. */
export async function openingCommission(exchange: PaperExchange, account: PaperAccount, trade: Trade) {
  const pair = trade.symbol.symbol_pair;
  const { orderId } = await exchange.order(account, pair, clientOrderIds(trade.signal_uuid).open);
  return commissionOf(exchange, account, pair, orderId);
}

/** The closing market order's commission, as the exchange charged it. */
export async function closingCommission(exchange: PaperExchange, account: PaperAccount, trade: Trade) {
  const pair = trade.symbol.symbol_pair;
  const { orderId } = await exchange.order(account, pair, clientOrderIds(trade.signal_uuid).close);
  return commissionOf(exchange, account, pair, orderId);
}

/**
 * The row of an open trade at the pinned `price` shows trade-core's isolated liquidation price for the
 * exchange's fill (binance-fapi.md §12: wallet = the position's initial margin, the bracket of its notional)
 * and its PNL net of the opening commission the exchange charged and of the closing one at the exchange's
 * taker rate. Answers the opening commission.
 */
export async function expectCockpitCells(
  exchange: PaperExchange,
  account: PaperAccount,
  row: Locator,
  trade: Trade,
  price: string,
): Promise<string> {
  await initTradeCore();
  const pair = trade.symbol.symbol_pair;
  const precision = trade.symbol.symbol_price_precision;
  const quantity = trade.trade_quantity;
  const entry = trade.trade_open_price;
  const notional = mulDecimals(quantity, entry);
  const [open, brackets, rates] = await Promise.all([
    openingCommission(exchange, account, trade),
    exchange.signed<{ brackets: Bracket[] }>(account, 'GET', '/fapi/v1/leverageBracket', { symbol: pair }),
    exchange.signed<{ takerCommissionRate: string }>(account, 'GET', '/fapi/v1/commissionRate', {
      symbol: pair,
    }),
  ]);
  const bracket = brackets.brackets.find(
    (item) =>
      compareDecimals(notional, String(item.notionalFloor)) >= 0 &&
      compareDecimals(notional, String(item.notionalCap)) < 0,
  )!;
  const liquidation = liquidationPrice({
    direction: trade.trade_direction,
    quantity,
    entryPrice: entry,
    walletBalance: initialMargin(quantity, entry, trade.trade_leverage),
    maintMarginRate: String(bracket.maintMarginRatio),
    maintAmount: String(bracket.cum),
    pricePrecision: precision,
  });
  expect(compareDecimals(liquidation, '0')).toBe(1);
  const close = roundDecimal(mulDecimals(mulDecimals(rates.takerCommissionRate, quantity), price), 8);
  const gross = unrealizedPnl({
    direction: trade.trade_direction,
    quantity,
    entryPrice: entry,
    currentPrice: price,
  });
  const net = subDecimals(gross, addDecimals(open, close));
  await expect.poll(() => row.getByTestId('trade-liq-price').innerText()).toBe(fixed(liquidation, precision));
  await expect.poll(() => row.getByTestId('trade-pnl-net').innerText()).toBe(fixed(net, 2));
  expect(await row.getByTestId('trade-fee-open').innerText()).toBe(fixed(open, 4));
  return open;
}

/** The recorded close's realized PNL net of the commissions the exchange charged for both fills. */
export async function expectNetRealized(
  exchange: PaperExchange,
  account: PaperAccount,
  recorded: Trade,
  realized: string,
) {
  await initTradeCore();
  const [open, close] = await Promise.all([
    openingCommission(exchange, account, recorded),
    closingCommission(exchange, account, recorded),
  ]);
  expect(recorded.trade_pnl_net).toBeDefined();
  expect(compareDecimals(recorded.trade_pnl_net!, subDecimals(realized, addDecimals(open, close)))).toBe(0);
}
