// One replay of signals as trades (issue 42; docs/server.md "The what-if replay"): the stored or replayed signals
// of a range traded minute by minute with a trader's settings, through the live rules (trade-rules.ts) and
// trade-core's exact money math (trade-math.ts). The house's backfill (house-replay.ts) is this replay with the
// house's settings, and the what-if replay of a trader (what-if.ts) is this replay with his — one truth, so the
// replay of the house's settings over a backfilled range is the house's stored record, trade for trade.
//
// Each minute, in the order things happen live:
// 1. Prices. For every open trade, its symbol's candle of the minute, the adverse extreme first:
//    a. the exchange-side stop: the candle's low (BUY) or high (SELL) reaching the stop price closes the trade at
//       the stop price as stop_loss; a candle wholly beyond the stop (a gap) closes it at its close, as the
//       stop-limit or its market backstop (issue 54) fill after a gap;
//    b. the exits the exchange holds (trade_exits_on_exchange, issue 35), filled at their own prices:
//       the take profit (TAKE_PROFIT_MARKET at trade-core's takeProfitPrice) when the high (BUY) / low (SELL)
//       reaches it; the trailing stop (TRAILING_STOP_MARKET from trailingActivationPrice with
//       trailingCallbackRate, as the exchange runs it: active once the price reached the activation price, it
//       fires when the price falls the callback rate below the best price since) — first against the best price
//       before this candle with the candle's adverse extreme, then against the best including this candle's
//       favourable extreme with its close; it fills at the trigger price, rounded to the symbol's tick;
//    c. the rules of the monitor on the close (applyPrice): a UI status that rises for an exit Signaldesk holds
//       closes the trade at that close with its status (acting at once, as the house does and auto-close does).
//    Price closes carry the candle's close time (the last millisecond of its minute).
// 2. Signals (made at the minute's end, time T). On a symbol with an open trade, the first signal reaching the
//    minimal accuracy marks it: REVERSE_SIGNAL closes it at the signal's entry price (the minute's close) at T;
//    DIRECTION_SIGNAL changes nothing. Otherwise the first such signal opens a trade at its entry price, with
//    trade-core's quantity and stop price — unless the exchange would refuse the order (quantity 0 or below the
//    symbol's minimum, notional below its minimum) or a risk limit refuses it (risk-limits.ts: open trades ≥
//    trade_max_open_trades, or the realized loss net of fees of the trades closed in the UTC day ≥
//    trade_daily_loss_limit). One open trade per symbol (one-way mode).
// Fees: both fills as taker at the settings' rate (the trader's last charged rate, else DEFAULT_TAKER_RATE),
// rounded to 8 decimals as the exchange rounds them; the net PNL and ROE as TradeDesk.recordClose books them.
import {
  CLOSING_STATUS_OF_UI_STATUS,
  TradeStatus,
  TradeUiStatus,
  type ClosingTradeStatus,
  type PlatformPreferences,
  type SignalDirection,
} from '../../../contracts';
// The symbols' table alone: the worker thread loads this module, not the exchange's server.
import { SYMBOLS } from '../../../paper-exchange/src/market/symbols';
import type { NewTradeRow } from '../db/schema-trades';
import {
  compareDecimals,
  divDecimals,
  mulDecimals,
  orderQuantity,
  roundDecimal,
  stopPrice,
  subDecimals,
  addDecimals,
  takeProfitPrice,
  trailingActivationPrice,
  trailingCallbackRate,
} from '../../../shared-core/trade-core-node';
import { callbackRateFits } from '../../../shared-core/trade-flow';
import {
  closeCommissionAt,
  COMMISSION_DECIMALS,
  initialTrailingLevel,
  netPnlAndRoe,
  pnlAndRoe,
  priceDirection,
  type TradeFees,
} from '../services/trade-math';
import {
  applyPrice,
  reachesMinimalAccuracy,
  signalUiStatus,
  tradeTerms,
  type TradeRuleState,
  type TradeTerms,
} from './trade-rules';

const DAY_MS = 86_400_000;

/** A signal as the replay takes it (an engine signal of the backfill, or a stored one). */
export interface ReplaySignal {
  signalUuid: string;
  neuronUuid: string;
  /** The exchange symbol. */
  symbol: string;
  direction: SignalDirection;
  /** The minute's close, as the exchange wrote it. */
  priceEnter: string;
  /** Fraction 0..1, null while the neuron had too few resolved signals (never sent). */
  accuracy: number | null;
}

/** A symbol's signals of one minute, in the engine's neuron order. */
export interface ReplayStep {
  symbol: string;
  signals: readonly ReplaySignal[];
}

/** What a minute's candle tells the replay. */
export interface ReplayCandle {
  high: string;
  low: string;
  close: string;
  /** The last millisecond of the minute. */
  closeTime: number;
}

export interface ReplaySymbol {
  symbol_uuid: string;
  symbol_price_precision: number;
  symbol_quantity_precision: number;
}

/** A trader's settings as the replay uses them (the preferences of one platform and the global ones). */
export interface ReplaySettings {
  preferences: PlatformPreferences;
  /** Percent. */
  minimalAccuracy: number;
  /** trade_exits_on_exchange: the exchange holds the take profit and the trailing stop. */
  exitsOnExchange: boolean;
  /** 0 = OFF. */
  maxOpenTrades: number;
  /** USDT, 0 = OFF. */
  dailyLossLimit: number;
  /** The taker rate of both fills (a fraction: '0.0005'). */
  takerRate: string;
}

export interface OrderFilter {
  minQty: string;
  minNotional: string;
}

/**
 * The exchange's minimum quantity and notional by symbol, as every replay applies them: the paper exchange's
 * exchangeInfo filters, which copy Binance's for the symbols it lists (a symbol it does not list is replayed
 * without them).
 */
export const EXCHANGE_ORDER_FILTERS: Readonly<Record<string, OrderFilter>> = Object.fromEntries(
  SYMBOLS.map((spec) => [spec.symbol, { minQty: spec.minQty, minNotional: spec.minNotional }]),
);

export interface TradeReplayOptions {
  userUuid: string;
  platformUuid: string;
  /** By exchange symbol. */
  symbolMap: ReadonlyMap<string, ReplaySymbol>;
  settings: ReplaySettings;
  /** The exchange's order filters by symbol (exchangeInfo LOT_SIZE minQty, MIN_NOTIONAL notional). */
  orderFilters?: Readonly<Record<string, OrderFilter>>;
  /** The trade uuid of the trade opened on a signal (name-based where rows are stored). */
  tradeUuidOf: (signalUuid: string) => string;
}

/** An exit the exchange holds for one trade. */
interface HeldExits {
  takeProfit?: string;
  trailing?: {
    activate: string;
    rate: string;
    /** 1 − rate % (BUY) or 1 + rate % (SELL): the trigger is the best price times this. */
    keep: string;
    best?: string;
    /** The trigger of `best` (unrounded), figured when `best` moves. */
    trigger?: string;
  };
}

/** A replayed trade: its row (filled in as it goes) and the rule state behind it. */
export interface ReplayedTrade {
  row: NewTradeRow & {
    trade_open_price: string;
    trade_quantity: string;
    trade_stop_price: string;
    trade_open_commission: string;
  };
  pair: string;
  neuronUuid: string;
  terms: TradeTerms;
  state: TradeRuleState;
  fees: TradeFees;
  held: HeldExits;
  /** The position's PNL and ROE by price, as trade-core figured them (the same price, the same figures). */
  figures: Map<string, { pnl: string; roe: string }>;
  /** ms. */
  openedAt: number;
  /** ms; undefined while open. */
  closedAt?: number;
}

/** Why a signal that reached the minimal accuracy opened nothing. */
export interface ReplaySkips {
  /** The symbol had an open trade (one-way mode). */
  symbol_busy: number;
  /** The exchange would refuse the order (quantity or notional below its minimum). */
  exchange_minimum: number;
  max_open_trades: number;
  daily_loss_limit: number;
}

/** Whether `price` is at or beyond `level` on a trade's adverse (stop) side: at or below for a BUY. */
function beyondAdverse(buy: boolean, price: string, level: string): boolean {
  const order = compareDecimals(price, level);
  return buy ? order <= 0 : order >= 0;
}

/** Whether `price` is at or beyond `level` on a trade's favourable (profit) side: at or above for a BUY. */
function beyondFavourable(buy: boolean, price: string, level: string): boolean {
  const order = compareDecimals(price, level);
  return buy ? order >= 0 : order <= 0;
}

export class TradeReplay {
  /** Every trade, in the order they were opened. */
  readonly trades: ReplayedTrade[] = [];
  /** Closed trades, in the order they were closed. */
  readonly closed: ReplayedTrade[] = [];
  readonly skips: ReplaySkips = {
    symbol_busy: 0,
    exchange_minimum: 0,
    max_open_trades: 0,
    daily_loss_limit: 0,
  };
  private readonly open = new Map<string, ReplayedTrade>();
  /** The UTC day of the realized PNL below (ms of its start) and that PNL, net of fees. */
  private day = -1;
  private dayPnl = '0';
  lastTime = 0;

  constructor(readonly options: TradeReplayOptions) {}

  /** The open trades (by symbol). */
  get openTrades(): readonly ReplayedTrade[] {
    return [...this.open.values()];
  }

  /** How many trades are open. */
  get openCount(): number {
    return this.open.size;
  }

  /** Symbols with an open trade. */
  heldSymbols(): IterableIterator<string> {
    return this.open.keys();
  }

  /** Step 1 of a minute: the candle of an open trade's symbol. */
  onCandle(pair: string, candle: ReplayCandle): void {
    const trade = this.open.get(pair);
    if (!trade) return;
    this.lastTime = Math.max(this.lastTime, candle.closeTime + 1);
    // No closure is made per candle here: under tsx each costs a __name call (without them a 30-day replay of the
    // defaults went from 1440 to 976 ms; docs/server.md "The what-if replay").
    const buy = trade.terms.position.trade_direction === 'BUY';
    const adverse = buy ? candle.low : candle.high;
    const favourable = buy ? candle.high : candle.low;

    const stop = trade.row.trade_stop_price;
    if (beyondAdverse(buy, adverse, stop)) {
      // The whole minute beyond the stop: the price gapped past it between two minutes, and nothing traded at
      // the stop price. Its limit order (when the gap stopped short of the limit) or its market backstop (when it
      // went past: issue 54) fills at the minute's first price; the candles hold no first price, so the replay
      // fills at the minute's close — never at the stop price the market skipped.
      const gapped = beyondAdverse(buy, favourable, stop) && compareDecimals(favourable, stop) !== 0;
      this.close(trade, TradeStatus.STOP_LOSS, gapped ? candle.close : stop, candle.closeTime);
      return;
    }
    const { takeProfit, trailing } = trade.held;
    if (takeProfit !== undefined && beyondFavourable(buy, favourable, takeProfit)) {
      this.close(trade, TradeStatus.TAKE_PROFIT, takeProfit, candle.closeTime);
      return;
    }
    if (trailing) {
      if (trailing.trigger !== undefined && beyondAdverse(buy, adverse, trailing.trigger)) {
        this.fireTrailing(trade, trailing.trigger, candle.closeTime);
        return;
      }
      if (trailing.best !== undefined || beyondFavourable(buy, favourable, trailing.activate)) {
        if (trailing.best === undefined || beyondFavourable(buy, favourable, trailing.best)) {
          trailing.best = favourable;
          // Where the exchange fires: the callback rate below (BUY) / above (SELL) the best price.
          trailing.trigger = mulDecimals(favourable, trailing.keep);
        }
        if (beyondAdverse(buy, candle.close, trailing.trigger as string)) {
          this.fireTrailing(trade, trailing.trigger as string, candle.closeTime);
          return;
        }
      }
    }
    let figures = trade.figures.get(candle.close);
    if (!figures) {
      figures = pnlAndRoe(trade.terms.position, candle.close, trade.terms.margin);
      trade.figures.set(candle.close, figures);
    }
    const { state, rises } = applyPrice(trade.terms, trade.state, candle.close, figures);
    trade.state = state;
    // Exits the exchange holds fire there (above); the monitor's rules close the others at once.
    const heldByExchange =
      (rises === TradeUiStatus.TAKE_PROFIT && takeProfit !== undefined) ||
      (rises === TradeUiStatus.TREILING_STOP && trailing !== undefined);
    if (rises && !heldByExchange) {
      this.close(trade, CLOSING_STATUS_OF_UI_STATUS[rises], candle.close, candle.closeTime);
    }
  }

  /** Step 2 of a minute: a symbol's signals made at `time` (the minute's end). */
  onStep(time: number, step: ReplayStep): void {
    this.lastTime = Math.max(this.lastTime, time);
    const signal = step.signals.find((item) =>
      reachesMinimalAccuracy(item.accuracy, this.options.settings.minimalAccuracy),
    );
    if (!signal) return;
    const trade = this.open.get(step.symbol);
    if (trade) {
      // The first signal marks the trade; a second one in the same step finds the mark there (mayMark).
      const mark = signalUiStatus(trade.terms.position.trade_direction, signal.direction);
      if (mark === TradeUiStatus.REVERSE_SIGNAL) {
        this.close(trade, TradeStatus.REVERSE_SIGNAL, signal.priceEnter, time);
      } else {
        this.skips.symbol_busy += 1;
      }
      return;
    }
    this.openTrade(signal, time);
  }

  /** The exchange's trailing stop fills at its trigger, rounded to the symbol's tick. */
  private fireTrailing(trade: ReplayedTrade, trigger: string, at: number): void {
    const precision = this.symbolOf(trade.pair).symbol_price_precision;
    this.close(trade, TradeStatus.TREILING_STOP, roundDecimal(trigger, precision), at);
  }

  private symbolOf(pair: string): ReplaySymbol {
    return this.options.symbolMap.get(pair) as ReplaySymbol;
  }

  /** The realized PNL (net) of the trades closed in the UTC day of `time`. */
  private dayPnlAt(time: number): string {
    const day = Math.floor(time / DAY_MS) * DAY_MS;
    return day === this.day ? this.dayPnl : '0';
  }

  private refusedByRisk(time: number): keyof ReplaySkips | undefined {
    const { maxOpenTrades, dailyLossLimit } = this.options.settings;
    if (maxOpenTrades > 0 && this.open.size >= maxOpenTrades) return 'max_open_trades';
    if (dailyLossLimit > 0) {
      const pnl = this.dayPnlAt(time);
      const loss = compareDecimals(pnl, 0) < 0 ? subDecimals(0, pnl) : '0';
      if (compareDecimals(loss, dailyLossLimit) >= 0) return 'daily_loss_limit';
    }
    return undefined;
  }

  private openTrade(signal: ReplaySignal, time: number): void {
    const { settings, symbolMap } = this.options;
    const prefs = settings.preferences;
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
    const filter = this.options.orderFilters?.[signal.symbol];
    if (
      compareDecimals(quantity, 0) <= 0 ||
      (filter &&
        (compareDecimals(quantity, filter.minQty) < 0 ||
          compareDecimals(mulDecimals(quantity, entry), filter.minNotional) < 0))
    ) {
      this.skips.exchange_minimum += 1;
      return;
    }
    const refusal = this.refusedByRisk(time);
    if (refusal) {
      this.skips[refusal] += 1;
      return;
    }
    const precision = symbol.symbol_price_precision;
    const stop = stopPrice({
      direction,
      entryPrice: entry,
      stopLossPercent: prefs.trade_stop_loss_percent,
      leverage: prefs.trade_leverage,
      pricePrecision: precision,
    });
    const held: HeldExits = {};
    if (settings.exitsOnExchange) {
      held.takeProfit = takeProfitPrice({
        direction,
        entryPrice: entry,
        takeProfitPercent: prefs.trade_take_profit_percent,
        leverage: prefs.trade_leverage,
        pricePrecision: precision,
      });
      const rate = trailingCallbackRate(prefs.trade_treiling_stop_percent, prefs.trade_leverage);
      // A callback rate the exchange refuses leaves the trailing stop with Signaldesk's monitor (trade-flow.ts).
      if (callbackRateFits(rate)) {
        const activate = trailingActivationPrice({
          direction,
          entryPrice: entry,
          trailingPercent: prefs.trade_treiling_stop_percent,
          leverage: prefs.trade_leverage,
          pricePrecision: precision,
        });
        const factor = divDecimals(rate, 100, 8);
        const keep = direction === 'BUY' ? subDecimals(1, factor) : addDecimals(1, factor);
        held.trailing = { activate, rate, keep };
      }
    }
    const ratePerPrice = mulDecimals(settings.takerRate, quantity);
    const fees: TradeFees = {
      open: roundDecimal(mulDecimals(ratePerPrice, entry), COMMISSION_DECIMALS),
      ratePerPrice,
    };
    const at = new Date(time);
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
      trade_treiling_stop_percent_current: initialTrailingLevel(prefs.trade_stop_loss_percent),
      trade_best_roe: null,
      monitor_conditions: 0,
    };
    const trade: ReplayedTrade = {
      pair: signal.symbol,
      neuronUuid: signal.neuronUuid,
      terms: tradeTerms({
        position,
        stopLossPercent: prefs.trade_stop_loss_percent,
        takeProfitPercent: prefs.trade_take_profit_percent,
        trailingPercent: prefs.trade_treiling_stop_percent,
      }),
      state,
      fees,
      held,
      figures: new Map(),
      openedAt: time,
      row: {
        trade_uuid: this.options.tradeUuidOf(signal.signalUuid),
        user_uuid: this.options.userUuid,
        platform_uuid: this.options.platformUuid,
        signal_uuid: signal.signalUuid,
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
        trade_open_commission: fees.open,
        trade_create_timestamp: at,
        trade_update_timestamp: at,
        trade_close_timestamp: null,
      },
    };
    this.trades.push(trade);
    this.open.set(signal.symbol, trade);
  }

  /** Closes at `price` with the realized PNL, the closing fee and the net figures, as TradeDesk.recordClose does. */
  private close(trade: ReplayedTrade, status: ClosingTradeStatus, price: string, at: number): void {
    const realized = pnlAndRoe(trade.terms.position, price, trade.terms.margin);
    const closeCommission = closeCommissionAt(trade.fees, price);
    const net = netPnlAndRoe(realized.pnl, trade.fees.open, closeCommission, trade.terms.margin);
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
      trade_close_commission: closeCommission,
      trade_pnl_net: net.pnlNet,
      trade_roe_net: net.roeNet,
      trade_close_timestamp: when,
      trade_update_timestamp: when,
    };
    trade.closedAt = at;
    trade.figures.clear();
    this.open.delete(trade.pair);
    this.closed.push(trade);
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    if (day !== this.day) {
      this.day = day;
      this.dayPnl = '0';
    }
    this.dayPnl = addDecimals(this.dayPnl, net.pnlNet);
  }
}
