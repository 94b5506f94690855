// What a candlestick chart draws for a trade (issue 18: /trading's chart and 'Trade Trend Data'): its entry,
// the exchange's stop order and its market backstop, take-profit, current trailing level and liquidation as price lines, and where
// trades opened and closed as markers.
// Prices are exact decimal strings: the server's when it sends them, else trade-core's (never float math).
import type { Trade } from '../../../contracts';
import {
  compareDecimals,
  stopPrice,
  subDecimals,
  trailingActivationPrice,
  type Direction,
} from '../../../shared-core/trade-core';
import type { CandleLine, CandleMarker } from '../../components/charts/candle-chart';

type Translate = (key: string) => string;

const opposite = (direction: Direction): Direction => (direction === 'BUY' ? 'SELL' : 'BUY');

/**
 * The price at which the trade's ROE is `roe` percent, at the symbol's precision, by trade-core's stopPrice:
 * a loss of p % on one side is where a gain of p % is on the other. Undefined when there is none (a loss of
 * 100 % or more of a BUY's margin at its leverage).
 */
export function priceAtRoe(
  trade: Pick<Trade, 'trade_direction' | 'trade_open_price' | 'trade_leverage' | 'symbol'>,
  roe: string,
): string | undefined {
  const isLoss = compareDecimals(roe, '0') < 0;
  try {
    return stopPrice({
      direction: isLoss ? trade.trade_direction : opposite(trade.trade_direction),
      entryPrice: trade.trade_open_price,
      stopLossPercent: isLoss ? subDecimals('0', roe) : roe,
      leverage: String(trade.trade_leverage),
      pricePrecision: trade.symbol.symbol_price_precision,
    });
  } catch {
    return undefined;
  }
}

/**
 * Where the trailing stop starts to trail (issue 53): until then its level is −stop loss % and it sat on the
 * stop line, saying nothing; the line is drawn at its activation price instead, labelled so.
 */
function activationPrice(trade: Trade): string | undefined {
  try {
    return trailingActivationPrice({
      direction: trade.trade_direction,
      entryPrice: trade.trade_open_price,
      trailingPercent: String(trade.trade_treiling_stop_percent),
      leverage: String(trade.trade_leverage),
      pricePrecision: trade.symbol.symbol_price_precision,
    });
  } catch {
    return undefined;
  }
}

/** The price lines of an open trade. */
export function tradeLines(trade: Trade, t: Translate): CandleLine[] {
  const takeProfit =
    trade.trade_take_profit_price ?? priceAtRoe(trade, String(trade.trade_take_profit_percent));
  // Active once its level has reached 0 (break-even, server/src/services/trade-math.ts raiseTrailingLevel).
  const isTrailing = compareDecimals(trade.trade_treiling_stop_percent_current, '0') >= 0;
  const trailing = isTrailing
    ? (trade.trade_treiling_stop_price ?? priceAtRoe(trade, trade.trade_treiling_stop_percent_current))
    : undefined;
  const activation = isTrailing ? undefined : activationPrice(trade);
  const lines: (CandleLine | undefined)[] = [
    { id: 'entry', price: trade.trade_open_price, label: t('chart.entry'), tone: 'accent' },
    { id: 'stop', price: trade.trade_stop_price, label: t('chart.stop'), tone: 'red' },
    // The stop's market backstop (issue 54), where the exchange holds it: a gap through the stop-limit's limit
    // closes there at market.
    trade.trade_backstop?.held_by === 'exchange'
      ? {
          id: 'backstop',
          price: trade.trade_backstop.price,
          label: t('chart.backstop'),
          tone: 'red',
          dashed: true,
        }
      : undefined,
    takeProfit
      ? { id: 'take_profit', price: takeProfit, label: t('chart.take_profit'), tone: 'green', dashed: true }
      : undefined,
    trailing
      ? { id: 'trailing', price: trailing, label: t('chart.trailing'), tone: 'orange', dashed: true }
      : undefined,
    activation
      ? {
          id: 'trailing_activation',
          price: activation,
          label: t('chart.trailing_activation'),
          tone: 'orange',
          dashed: true,
        }
      : undefined,
    trade.trade_liquidation_price
      ? {
          id: 'liquidation',
          price: trade.trade_liquidation_price,
          label: t('chart.liquidation'),
          tone: 'violet',
          keepInView: false,
        }
      : undefined,
  ];
  return lines.filter((line): line is CandleLine => line !== undefined);
}

/** Markers where trades opened, and closed ones closed, oldest first. */
export function tradeMarkers(trades: readonly Trade[], t: Translate): CandleMarker[] {
  const markers: CandleMarker[] = [];
  for (const trade of trades) {
    const tone = trade.trade_direction === 'BUY' ? 'green' : 'red';
    markers.push({
      id: `${trade.trade_uuid}-open`,
      time: Date.parse(trade.trade_create_timestamp),
      kind: 'open',
      label: t(`chart.opened_${trade.trade_direction.toLowerCase()}`),
      tone,
    });
    if (trade.trade_close_timestamp) {
      markers.push({
        id: `${trade.trade_uuid}-close`,
        time: Date.parse(trade.trade_close_timestamp),
        kind: 'close',
        label: t('chart.closed'),
        tone: 'muted',
      });
    }
  }
  return markers.sort((a, b) => a.time - b.time);
}
