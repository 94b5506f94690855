// The trade monitor (DESIGN.md "How data flows"): keeps every open trade in memory, recalculates it on each
// mark price of its symbol and marks the temporary UI statuses of SPEC.md §4 "Trade status and UI status".
// - Each price: trade_current_price, trade_last_update_price (1 / -1 / 0 against the previous price), PNL and
//   ROE (trade-math.ts, trade-core decimals), the best ROE and the trailing level
//   max(previous level, best ROE − trade_treiling_stop_percent), starting at −trade_stop_loss_percent. The best
//   ROE is the best gain (ROE above 0): at the open and while the trade only lost, the level stays at −SL %.
// - UI statuses fire on an edge: only when their condition becomes true (the conditions of the last price are
//   kept, also across a reset to open and a restart). TAKE_PROFIT: ROE ≥ take profit %. STOP_LOSS: ROE ≤
//   −stop loss %. TREILING_STOP: the level has risen above −stop loss % and ROE ≤ the level. When several become
//   true on one price the protective one wins: STOP_LOSS, then TREILING_STOP, then TAKE_PROFIT.
// - A live signal on the symbol of an open trade of its platform, whose accuracy reaches the owner's
//   minimal_accuracy (the signals the owner is sent): DIRECTION_SIGNAL in the trade's direction, else
//   REVERSE_SIGNAL.
// - A UI status never replaces another one, except STOP_LOSS and TREILING_STOP replacing DIRECTION_SIGNAL.
// A UI status change is stored at once and sent to the owner (trade_updated_response_from_core); the price
// fields are stored in batches every PERSIST_INTERVAL_MS, so a restart loses at most that much of them.
import { and, eq, isNotNull } from 'drizzle-orm';
import { TradeStatus, TradeUiStatus, type TradeCalculated } from '../../../contracts';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { trades, type TradeRow } from '../db/schema-trades';
import type { SocketHub } from '../plugins/websocket';
import { DEFAULT_TRADE_PREFERENCES } from '../services/preferences';
import { compareDecimals } from '../lib/trade-core';
import {
  positionMargin,
  pnlAndRoe,
  priceDirection,
  raiseTrailingLevel,
  percentText,
  type TradePosition,
} from '../services/trade-math';
import { calculatedOf } from '../services/trades';
import type { MarketFeed, MarkPriceTick } from './market-feed';
import { minimalAccuracies } from './signal-store';

/** Price fields of open trades are written at most this often. */
export const PERSIST_INTERVAL_MS = 5000;
/** minimal_accuracy is a percent with two decimals; this absorbs binary rounding only (as live-core does). */
const ACCURACY_TOLERANCE = 1e-9;

const Condition = { TAKE_PROFIT: 1, STOP_LOSS: 2, TREILING_STOP: 4 } as const;

/** What the monitor needs of a trade row and its symbol. */
export type WatchableTrade = TradeRow & { symbol_pair: string };

interface LiveTrade {
  trade_uuid: string;
  user_uuid: string;
  platform_uuid: string;
  symbol_uuid: string;
  symbol_pair: string;
  position: TradePosition;
  margin: string;
  stopLossPercent: number;
  takeProfitPercent: number;
  trailingPercent: number;
  calc: TradeCalculated;
  bestRoe: string | null;
  conditions: number;
  dirty: boolean;
}

/** A stored live signal, as live-core hands it over. */
export interface MonitoredSignal {
  platform_uuid: string;
  symbol_uuid: string;
  /** 'BUY' or 'SELL'. */
  direction: string;
  /** Hit rate 0..1; a signal without one is never sent, so it marks nothing. */
  accuracy: number | null;
}

export interface TradeMonitorOptions {
  db: Database;
  hub: SocketHub;
  /** The mark prices; absent in tests that drive onPrice directly. */
  feed?: MarketFeed;
  log: { warn(obj: object, msg: string): void };
  clock?: () => number;
  persistIntervalMs?: number;
}

export class TradeMonitor {
  private readonly trades = new Map<string, LiveTrade>();
  private readonly byPair = new Map<string, Set<string>>();
  private readonly prices = new Map<string, string>();
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** Writes run one after the other, in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();
  private readonly onTick = (tick: MarkPriceTick) => this.onPrice(tick.symbol, tick.price);

  constructor(private readonly options: TradeMonitorOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Loads every open trade and follows the feed's mark prices. */
  async start(): Promise<void> {
    const rows = await this.options.db
      .select({ trade: trades, symbol_pair: symbols.symbol_pair })
      .from(trades)
      .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
      .where(
        and(
          eq(trades.trade_status, TradeStatus.OPEN),
          eq(trades.trade_phase, 'ready'),
          isNotNull(trades.trade_open_price),
          isNotNull(trades.trade_quantity),
        ),
      );
    for (const { trade, symbol_pair } of rows) this.watch({ ...trade, symbol_pair });
    this.options.feed?.on('tick', this.onTick);
    const every = this.options.persistIntervalMs ?? PERSIST_INTERVAL_MS;
    this.timer = setInterval(() => void this.flush(), every).unref();
  }

  /** Stops following prices and stores what is pending. */
  async close(): Promise<void> {
    this.options.feed?.off('tick', this.onTick);
    clearInterval(this.timer);
    await this.flush();
  }

  /** Starts (or restarts) watching an open trade whose price and quantity are known. */
  watch(row: WatchableTrade): void {
    if (row.trade_status !== TradeStatus.OPEN || !row.trade_open_price || !row.trade_quantity) return;
    this.forget(row.trade_uuid);
    const position: TradePosition = {
      trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
      trade_open_price: row.trade_open_price,
      trade_quantity: row.trade_quantity,
      trade_leverage: row.trade_leverage,
    };
    const trade: LiveTrade = {
      trade_uuid: row.trade_uuid,
      user_uuid: row.user_uuid,
      platform_uuid: row.platform_uuid,
      symbol_uuid: row.symbol_uuid,
      symbol_pair: row.symbol_pair,
      position,
      margin: positionMargin(position),
      stopLossPercent: row.trade_stop_loss_percent,
      takeProfitPercent: row.trade_take_profit_percent,
      trailingPercent: row.trade_treiling_stop_percent,
      calc: calculatedOf(row),
      bestRoe: row.trade_best_roe,
      conditions: row.monitor_conditions,
      dirty: false,
    };
    this.trades.set(trade.trade_uuid, trade);
    const own = this.byPair.get(trade.symbol_pair) ?? new Set<string>();
    own.add(trade.trade_uuid);
    this.byPair.set(trade.symbol_pair, own);
    const price = this.currentPrice(trade.symbol_pair);
    if (price) this.recalculate(trade, price);
  }

  /** Stops watching a trade (it was closed or removed); its pending price fields are dropped. */
  forget(tradeUuid: string): void {
    const trade = this.trades.get(tradeUuid);
    if (!trade) return;
    this.trades.delete(tradeUuid);
    const own = this.byPair.get(trade.symbol_pair);
    own?.delete(tradeUuid);
    if (own?.size === 0) this.byPair.delete(trade.symbol_pair);
  }

  /** The latest mark price of a symbol pair the monitor has seen (or the feed holds). */
  currentPrice(symbolPair: string): string | undefined {
    return this.prices.get(symbolPair) ?? this.options.feed?.price(symbolPair)?.price;
  }

  /** The live calculated fields of a watched trade. */
  calculated(tradeUuid: string): TradeCalculated | undefined {
    const trade = this.trades.get(tradeUuid);
    return trade && { ...trade.calc };
  }

  /** The live calculated fields, only when the trade belongs to `userUuid`. */
  calculatedFor(userUuid: string, tradeUuid: string): TradeCalculated | undefined {
    const trade = this.trades.get(tradeUuid);
    return trade?.user_uuid === userUuid ? { ...trade.calc } : undefined;
  }

  get size(): number {
    return this.trades.size;
  }

  /** One mark price of a symbol pair: every open trade on it is recalculated. */
  onPrice(symbolPair: string, price: string): void {
    this.prices.set(symbolPair, price);
    const own = this.byPair.get(symbolPair);
    if (!own) return;
    for (const tradeUuid of own) {
      const trade = this.trades.get(tradeUuid);
      if (trade) this.recalculate(trade, price);
    }
  }

  /** Stored live signals (live-core): DIRECTION_SIGNAL / REVERSE_SIGNAL on the open trades they concern. */
  async onSignals(signals: readonly MonitoredSignal[]): Promise<void> {
    for (const signal of signals) {
      if (signal.accuracy === null) continue;
      const concerned = [...this.trades.values()].filter(
        (trade) => trade.platform_uuid === signal.platform_uuid && trade.symbol_uuid === signal.symbol_uuid,
      );
      if (concerned.length === 0) continue;
      const owners = [...new Set(concerned.map((trade) => trade.user_uuid))];
      const thresholds = await minimalAccuracies(this.options.db, owners);
      for (const trade of concerned) {
        const minimal = thresholds.get(trade.user_uuid) ?? DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
        if (signal.accuracy * 100 + ACCURACY_TOLERANCE < minimal) continue;
        const same = signal.direction === trade.position.trade_direction;
        this.mark(trade, same ? TradeUiStatus.DIRECTION_SIGNAL : TradeUiStatus.REVERSE_SIGNAL);
      }
    }
  }

  /**
   * Resets a watched trade to open with no UI status (POST /trade/update_trade_status/) and stores it. The
   * edge state is kept: a condition that still holds fires again only after it became false.
   */
  async resetUiStatus(tradeUuid: string): Promise<TradeCalculated | undefined> {
    const trade = this.trades.get(tradeUuid);
    if (!trade) return undefined;
    trade.calc = { ...trade.calc, trade_ui_status: null };
    await this.persistNow(trade);
    return { ...trade.calc };
  }

  /** Stores the price fields that changed since the last batch. */
  flush(): Promise<void> {
    const due = [...this.trades.values()].filter((trade) => trade.dirty);
    for (const trade of due) trade.dirty = false;
    if (due.length === 0) return this.queue;
    return this.enqueue(async () => {
      for (const trade of due) await this.write(trade, false);
    });
  }

  /** Resolves when every write asked for so far is done. */
  idle(): Promise<void> {
    return this.queue;
  }

  private recalculate(trade: LiveTrade, price: string): void {
    const { pnl, roe } = pnlAndRoe(trade.position, price, trade.margin);
    // The best ROE counts gains only: at the open (ROE 0) or while losing, the level stays −stop loss %.
    const gain = compareDecimals(roe, 0) > 0 ? roe : null;
    const best =
      gain !== null && (trade.bestRoe === null || compareDecimals(gain, trade.bestRoe) > 0)
        ? gain
        : trade.bestRoe;
    const level =
      best === null
        ? trade.calc.trade_treiling_stop_percent_current
        : raiseTrailingLevel(trade.calc.trade_treiling_stop_percent_current, best, trade.trailingPercent);
    trade.calc = {
      ...trade.calc,
      trade_last_update_price: priceDirection(trade.calc.trade_current_price, price),
      trade_current_price: price,
      trade_pnl_current: pnl,
      trade_roe_current: roe,
      trade_treiling_stop_percent_current: level,
      trade_update_timestamp: new Date(this.clock()).toISOString(),
    };
    trade.bestRoe = best;
    trade.dirty = true;

    const stopLevel = percentText(-trade.stopLossPercent);
    let conditions = 0;
    if (compareDecimals(roe, percentText(trade.takeProfitPercent)) >= 0) conditions |= Condition.TAKE_PROFIT;
    if (compareDecimals(roe, stopLevel) <= 0) conditions |= Condition.STOP_LOSS;
    if (compareDecimals(level, stopLevel) > 0 && compareDecimals(roe, level) <= 0) {
      conditions |= Condition.TREILING_STOP;
    }
    const rising = conditions & ~trade.conditions;
    trade.conditions = conditions;
    if (rising & Condition.STOP_LOSS) this.mark(trade, TradeUiStatus.STOP_LOSS);
    else if (rising & Condition.TREILING_STOP) this.mark(trade, TradeUiStatus.TREILING_STOP);
    else if (rising & Condition.TAKE_PROFIT) this.mark(trade, TradeUiStatus.TAKE_PROFIT);
  }

  /** Sets a UI status when the precedence rule allows it; stores it and tells the owner. */
  private mark(trade: LiveTrade, status: TradeUiStatus): void {
    const current = trade.calc.trade_ui_status;
    const overrides =
      current === TradeUiStatus.DIRECTION_SIGNAL &&
      (status === TradeUiStatus.STOP_LOSS || status === TradeUiStatus.TREILING_STOP);
    if (current !== null && !overrides) return;
    trade.calc = { ...trade.calc, trade_ui_status: status };
    void this.persistNow(trade);
    this.options.hub.sendToUser(trade.user_uuid, {
      event: 'trade_updated_response_from_core',
      message: { trade_uuid: trade.trade_uuid, trade_update_calculated: { ...trade.calc } },
    });
  }

  private persistNow(trade: LiveTrade): Promise<void> {
    trade.dirty = false;
    return this.enqueue(() => this.write(trade, true));
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'trade monitor: storing a trade failed');
    });
    return this.queue;
  }

  /** Writes the trade's live fields while it is open (a close in between wins). */
  private async write(trade: LiveTrade, withUiStatus: boolean): Promise<void> {
    const calc = trade.calc;
    await this.options.db
      .update(trades)
      .set({
        trade_current_price: calc.trade_current_price,
        trade_last_update_price: calc.trade_last_update_price,
        trade_pnl_current: calc.trade_pnl_current,
        trade_roe_current: calc.trade_roe_current,
        trade_treiling_stop_percent_current: calc.trade_treiling_stop_percent_current,
        trade_best_roe: trade.bestRoe,
        monitor_conditions: trade.conditions,
        trade_update_timestamp: new Date(calc.trade_update_timestamp),
        ...(withUiStatus ? { trade_ui_status: calc.trade_ui_status } : {}),
      })
      .where(and(eq(trades.trade_uuid, trade.trade_uuid), eq(trades.trade_status, TradeStatus.OPEN)));
  }
}
