// The house account in the backfill (docs/server.md "House account", "Backfill"): the replay consumer that
// trades the replayed signals as the live house follower trades the live ones, with the same rules
// (trade-rules.ts) and the same money math (trade-core through trade-math), so the stored history, the
// statistics and the live track record are one record.
// Each replayed minute, in the order things happen live:
// 1. Prices. For every open trade, its symbol's candle: when the candle's low (BUY) or high (SELL) reached the
//    exchange-side stop price, the stop fired and the trade closes at the stop price as stop_loss, as the exchange
//    does; otherwise the per-trade rule runs on the close, and a UI status that rises closes the trade at once at
//    that close with its status (the house acts at once). Closes caused by prices carry the candle's close time
//    (the last millisecond of the minute they happened in).
// 2. Signals (made at the minute's end, time T). On a symbol with an open trade, the first signal reaching the
//    house's minimal_accuracy marks it: REVERSE_SIGNAL closes it at the entry price (the close) at T;
//    DIRECTION_SIGNAL is reset to open at once, which changes nothing. Otherwise the first such signal opens a
//    trade at its entry price: quantity and stop price with trade-core (orderQuantity, stopPrice), the default
//    platform preferences — unless the exchange would refuse the order (a quantity below the symbol's minimum,
//    or a notional below its minimum: BTCUSDT's 100 USDT is more than 10 USDT × 10 buys at 3 decimals). One
//    open trade per symbol: a signal on a symbol that had a trade is not opened.
// The replayed trades are stored as client-mode rows (trade_in_server_side 0, no order ids): no exchange ever
// held their positions. The ones still open at the end stay open and are followed live (house-follower.ts).
import {
  CLOSING_STATUS_OF_UI_STATUS,
  TradeStatus,
  TradeUiStatus,
  type ClosingTradeStatus,
  type PlatformPreferences,
  type SignalDirection,
} from '../../../contracts';
import type { Database } from '../db';
import { trades, type NewTradeRow } from '../db/schema-trades';
import { compareDecimals, mulDecimals, orderQuantity, stopPrice } from '../../../shared-core/trade-core-node';
import { initialTrailingLevel, pnlAndRoe, priceDirection } from '../services/trade-math';
import { insertInBulk, type ReplayConsumer } from './backfill';
import type { Candle } from './candles';
import type { EngineSignal, EngineStep } from './signal-engine';
import { nameUuid, signalUuidOf, type SymbolRow } from './signal-store';
import type { StatisticTrade } from './statistics';
import {
  applyPrice,
  reachesMinimalAccuracy,
  signalUiStatus,
  tradeTerms,
  type TradeRuleState,
  type TradeTerms,
} from './trade-rules';

/** A replayed house trade: its row (filled in as it goes) and the rule state behind it. */
export interface ReplayedTrade {
  row: NewTradeRow & { trade_open_price: string; trade_quantity: string; trade_stop_price: string };
  pair: string;
  terms: TradeTerms;
  state: TradeRuleState;
  /** ms; undefined while open. */
  closedAt?: number;
}

export interface HouseReplayOptions {
  houseUserUuid: string;
  /** The platform the house trades on (the paper platform). */
  platformUuid: string;
  symbolMap: ReadonlyMap<string, SymbolRow>;
  /** The house's platform preferences (the defaults). */
  preferences: PlatformPreferences;
  /** The house's minimal_accuracy, percent (the default). */
  minimalAccuracy: number;
  /** The exchange's order filters by symbol (exchangeInfo LOT_SIZE minQty, MIN_NOTIONAL notional). */
  orderFilters?: ReadonlyMap<string, OrderFilter>;
}

export interface OrderFilter {
  minQty: string;
  minNotional: string;
}

/** The trade uuid of the house's replayed trade on a signal: name-based, so a replay is reproducible. */
const replayedTradeUuid = (signalUuid: string): string => nameUuid(`house-replay|${signalUuid}`);

export class HouseReplay implements ReplayConsumer {
  /** Every trade, in the order they were opened. */
  readonly trades: ReplayedTrade[] = [];
  /** Closed trades, in the order they were closed. */
  readonly closed: ReplayedTrade[] = [];
  private readonly open = new Map<string, ReplayedTrade>();
  private pricedOpen: readonly ReplayedTrade[] = [];
  private lastTime = 0;

  constructor(private readonly options: HouseReplayOptions) {}

  onMinute(time: number, steps: readonly EngineStep[], closes: ReadonlyMap<string, Candle>): void {
    this.lastTime = time;
    for (const trade of this.open.values()) {
      const candle = closes.get(trade.pair);
      if (candle) this.onCandle(trade, candle);
    }
    this.pricedOpen = [...this.open.values()];
    for (const step of steps) this.onStep(time, step);
  }

  /** The open trades after the prices of the last replayed minute, before its signals (a statistic point). */
  openAfterPrices(): StatisticTrade[] {
    return this.pricedOpen.map((trade) => ({
      direction: trade.terms.position.trade_direction,
      pnl: trade.state.trade_pnl_current,
      margin: trade.terms.margin,
    }));
  }

  /** The rows to store: closed trades with their realized PNL, open ones with their last calculated fields. */
  rows(): NewTradeRow[] {
    return this.trades.map((trade) => {
      if (trade.closedAt !== undefined) return trade.row;
      const at = new Date(this.lastTime);
      return { ...trade.row, ...trade.state, trade_update_timestamp: at };
    });
  }

  /** Stores the trades in bulk (in the backfill's transaction). */
  async store(tx: Database): Promise<void> {
    await insertInBulk(tx, trades, this.rows());
  }

  private onCandle(trade: ReplayedTrade, candle: Candle): void {
    const direction = trade.terms.position.trade_direction;
    const stop = trade.row.trade_stop_price;
    const stopHit =
      direction === 'BUY' ? compareDecimals(candle.low, stop) <= 0 : compareDecimals(candle.high, stop) >= 0;
    if (stopHit) {
      this.close(trade, TradeStatus.STOP_LOSS, stop, candle.closeTime);
      return;
    }
    const { state, rises } = applyPrice(trade.terms, trade.state, candle.close);
    trade.state = state;
    // The trade shows no UI status here (the house acts on each at once), so any rising one is marked.
    if (rises) this.close(trade, CLOSING_STATUS_OF_UI_STATUS[rises], candle.close, candle.closeTime);
  }

  private onStep(time: number, step: EngineStep): void {
    const signal = step.signals.find((item) =>
      reachesMinimalAccuracy(item.accuracy, this.options.minimalAccuracy),
    );
    if (!signal) return;
    const trade = this.open.get(step.symbol);
    if (trade) {
      // The first signal marks the trade; a second one in the same step finds the mark there (mayMark).
      const mark = signalUiStatus(trade.terms.position.trade_direction, signal.direction);
      if (mark === TradeUiStatus.REVERSE_SIGNAL) {
        this.close(trade, TradeStatus.REVERSE_SIGNAL, step.candle.close, time);
      }
      return;
    }
    this.openTrade(signal, time);
  }

  private openTrade(signal: EngineSignal, time: number): void {
    const { preferences: prefs, symbolMap } = this.options;
    const symbol = symbolMap.get(signal.symbol);
    if (!symbol) return;
    const direction: SignalDirection = signal.direction;
    const entry = signal.priceEnter;
    const quantity = orderQuantity({
      margin: prefs.trade_margin,
      leverage: prefs.trade_leverage,
      entryPrice: entry,
      quantityPrecision: symbol.symbol_quantity_precision,
    });
    // The exchange refuses a quantity of 0 (-4003), below its minimum, or a notional below its minimum (-4164).
    if (compareDecimals(quantity, 0) <= 0) return;
    const filter = this.options.orderFilters?.get(signal.symbol);
    if (filter) {
      if (compareDecimals(quantity, filter.minQty) < 0) return;
      if (compareDecimals(mulDecimals(quantity, entry), filter.minNotional) < 0) return;
    }
    const stop = stopPrice({
      direction,
      entryPrice: entry,
      stopLossPercent: prefs.trade_stop_loss_percent,
      leverage: prefs.trade_leverage,
      pricePrecision: symbol.symbol_price_precision,
    });
    const signalUuid = signalUuidOf(this.options.platformUuid, signal);
    const at = new Date(time);
    const level = initialTrailingLevel(prefs.trade_stop_loss_percent);
    const position = {
      trade_direction: direction,
      trade_open_price: entry,
      trade_quantity: quantity,
      trade_leverage: prefs.trade_leverage,
    };
    const state: TradeRuleState = {
      trade_current_price: entry,
      trade_last_update_price: 0,
      trade_pnl_current: '0',
      trade_roe_current: '0',
      trade_treiling_stop_percent_current: level,
      trade_best_roe: null,
      monitor_conditions: 0,
    };
    const trade: ReplayedTrade = {
      pair: signal.symbol,
      terms: tradeTerms({
        position,
        stopLossPercent: prefs.trade_stop_loss_percent,
        takeProfitPercent: prefs.trade_take_profit_percent,
        trailingPercent: prefs.trade_treiling_stop_percent,
      }),
      state,
      row: {
        trade_uuid: replayedTradeUuid(signalUuid),
        user_uuid: this.options.houseUserUuid,
        platform_uuid: this.options.platformUuid,
        signal_uuid: signalUuid,
        symbol_uuid: symbol.symbol_uuid,
        trade_direction: direction,
        trade_in_server_side: 0,
        trade_phase: 'ready',
        trade_open_price: entry,
        trade_quantity: quantity,
        trade_margin: String(prefs.trade_margin),
        trade_leverage: prefs.trade_leverage,
        trade_stop_loss_percent: prefs.trade_stop_loss_percent,
        trade_take_profit_percent: prefs.trade_take_profit_percent,
        trade_treiling_stop_percent: prefs.trade_treiling_stop_percent,
        trade_stop_price: stop,
        trade_order_id: null,
        trade_stop_order_id: null,
        trade_error: null,
        trade_status: TradeStatus.OPEN,
        trade_ui_status: null,
        ...state,
        trade_close_price: null,
        trade_create_timestamp: at,
        trade_update_timestamp: at,
        trade_close_timestamp: null,
      },
    };
    this.trades.push(trade);
    this.open.set(signal.symbol, trade);
  }

  /** Closes at `price` with the realized PNL and ROE computed as TradeDesk.recordClose does. */
  private close(trade: ReplayedTrade, status: ClosingTradeStatus, price: string, at: number): void {
    const realized = pnlAndRoe(trade.terms.position, price, trade.terms.margin);
    const when = new Date(at);
    trade.state = {
      ...trade.state,
      trade_last_update_price: priceDirection(trade.state.trade_current_price, price),
      trade_current_price: price,
      trade_pnl_current: realized.pnl,
      trade_roe_current: realized.roe,
    };
    trade.row = {
      ...trade.row,
      ...trade.state,
      trade_status: status,
      trade_ui_status: null,
      trade_close_price: price,
      trade_close_timestamp: when,
      trade_update_timestamp: when,
    };
    trade.closedAt = at;
    this.open.delete(trade.pair);
    this.closed.push(trade);
  }
}
