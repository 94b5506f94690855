// The trade monitor (DESIGN.md "How data flows"): keeps every open trade in memory, recalculates it on each
// mark price of its symbol and marks the temporary UI statuses of SPEC.md §4 "Trade status and UI status" with
// the per-trade rules of trade-rules.ts (price fields, trailing level, edge-triggered TAKE_PROFIT / STOP_LOSS /
// TREILING_STOP, DIRECTION_SIGNAL / REVERSE_SIGNAL, which status may replace which). The edge state (the
// conditions of the last price) is kept, also across a reset to open and a restart.
// - A live signal on the symbol of an open trade of its platform, whose accuracy reaches the owner's
//   minimal_accuracy (the signals the owner is sent), marks DIRECTION_SIGNAL or REVERSE_SIGNAL.
// A UI status change is stored at once, sent to the owner (trade_updated_response_from_core) and handed to the
// UI status listeners (the house follower acts on its own trades' statuses); the price fields are stored in
// batches every PERSIST_INTERVAL_MS, so a restart loses at most that much of them.
// Several instances (docs/server.md "Several instances"): every instance watches every open trade on its own
// feed's prices, and tells the others (trade-monitor-sync.ts) when it starts or stops watching one or resets its
// UI status. Only the leader marks UI statuses (and tells the others which) and stores the price fields.
import { TradeError, TradeStatus, type TradeCalculated, type TradeUiStatus } from '../../../contracts';
import type { Database } from '../db';
import { ChangeClock } from '../lib/change-clock';
import { Listeners } from '../lib/listeners';
import type { SocketHub } from '../services/socket-hub';
import { LocalEventBus, type EventBus } from '../services/event-bus';
import { DEFAULT_TRADE_PREFERENCES } from '../services/preferences';
import { tradeFees, type TradeFees, type TradePosition } from '../services/trade-math';
import { netColumnsAt } from '../services/trade-costs';
import type { LiveTrades, WatchableTrade } from '../services/live-trades';
import { calculatedOf, updateTrade, writeLiveFields } from '../services/trades';
import type { MarketFeed, MarkPriceTick } from './market-feed';
import { minimalAccuracies } from './signal-store';
import { MonitorSync, openTradeRows } from './trade-monitor-sync';
import {
  applyPrice,
  mayMark,
  reachesMinimalAccuracy,
  signalUiStatus,
  tradeTerms,
  type TradeTerms,
} from './trade-rules';

/** Price fields of open trades are written at most this often. */
const PERSIST_INTERVAL_MS = 5000;
/** Users whose live revision is tracked; one pushed out costs its readers a rebuild (lib/change-clock.ts). */
const REVISION_USERS = 50_000;

interface LiveTrade {
  trade_uuid: string;
  user_uuid: string;
  platform_uuid: string;
  symbol_uuid: string;
  symbol_pair: string;
  terms: TradeTerms;
  /** The opening commission and the taker rate × quantity (issue 18); undefined when not known. */
  fees: TradeFees | undefined;
  calc: TradeCalculated;
  bestRoe: string | null;
  conditions: number;
  dirty: boolean;
}

/** A UI status the monitor marked on a trade (after storing was queued and the owner was told). */
export interface UiStatusMark {
  trade_uuid: string;
  user_uuid: string;
  platform_uuid: string;
  symbol_uuid: string;
  trade_ui_status: TradeUiStatus;
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
  /** The other instances' monitors; none: this process is alone. */
  bus?: EventBus;
  /** Whether this instance marks UI statuses and stores price fields (the leader); default true. */
  leading?: boolean;
}

export class TradeMonitor implements LiveTrades {
  private readonly trades = new Map<string, LiveTrade>();
  private readonly byPair = new Map<string, Set<string>>();
  private readonly prices = new Map<string, string>();
  /** Trades left out because trade-core cannot price them (leaveOut), logged once each. */
  private readonly unpriceable = new Set<string>();
  private readonly listeners = new Listeners<UiStatusMark>();
  /** Per user: a number that changes whenever a watched trade of theirs changes (see liveRevision). */
  private readonly revisions = new ChangeClock(REVISION_USERS);
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** Writes run one after the other, in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();
  private readonly onTick = (tick: MarkPriceTick) => this.onPrice(tick.symbol, tick.price);
  private readonly sync: MonitorSync;
  private leading: boolean;

  constructor(private readonly options: TradeMonitorOptions) {
    this.clock = options.clock ?? Date.now;
    this.leading = options.leading ?? true;
    this.sync = new MonitorSync({
      db: options.db,
      bus: options.bus ?? new LocalEventBus(),
      log: options.log,
      here: {
        watched: () => this.trades.keys(),
        track: (row) => this.track(row),
        forget: (tradeUuid) => this.forgetHere(tradeUuid),
        setUiStatus: (tradeUuid, status) => {
          const trade = this.trades.get(tradeUuid);
          if (!trade) return;
          trade.calc = { ...trade.calc, trade_ui_status: status };
          this.touch(trade.user_uuid);
        },
      },
    });
  }

  /** Loads every open trade and follows the feed's mark prices and the other instances' news. */
  async start(): Promise<void> {
    for (const row of await openTradeRows(this.options.db)) this.track(row);
    this.options.feed?.on('tick', this.onTick);
    this.sync.start();
    const every = this.options.persistIntervalMs ?? PERSIST_INTERVAL_MS;
    this.timer = setInterval(() => void this.flush(), every).unref();
  }

  /** Stops following prices and stores what is pending. */
  async close(): Promise<void> {
    this.options.feed?.off('tick', this.onTick);
    clearInterval(this.timer);
    await this.sync.close();
    await this.flush();
  }

  /**
   * Leads (marks UI statuses, stores price fields) or follows. Taking the lead reads the open trades again,
   * in case news of the others was missed.
   */
  async setLeading(leading: boolean): Promise<void> {
    // Stepping down stores the pending price fields first, as the leader's last task.
    if (!leading) await this.flush();
    this.leading = leading;
    if (leading) await this.resync();
  }

  /** Reads the open trades again after the bus lost news (trade-monitor-sync.ts); live state is kept. */
  resync(): Promise<void> {
    return this.sync.resync();
  }

  /** Starts (or restarts) watching an open trade whose price and quantity are known, on every instance. */
  watch(row: WatchableTrade): void {
    if (row.trade_status !== TradeStatus.OPEN || !row.trade_open_price || !row.trade_quantity) return;
    this.track(row);
    this.sync.tell({ kind: 'watch', trade_uuid: row.trade_uuid });
  }

  /** Stops watching a trade (it was closed or removed) on every instance; its pending price fields are dropped. */
  forget(tradeUuid: string): void {
    this.forgetHere(tradeUuid);
    this.sync.tell({ kind: 'forget', trade_uuid: tradeUuid });
  }

  /** watch(), in this process only. */
  private track(row: WatchableTrade): void {
    if (row.trade_status !== TradeStatus.OPEN || !row.trade_open_price || !row.trade_quantity) return;
    this.forgetHere(row.trade_uuid);
    try {
      this.trackPriced(row, {
        ...row,
        trade_open_price: row.trade_open_price,
        trade_quantity: row.trade_quantity,
      });
    } catch (error) {
      this.leaveOut(row, error);
    }
  }

  /**
   * A stored row trade-core cannot price (issue 52: stored before the contracts bounded its numbers) is left
   * out, logged once and flagged for its trader (trade_error 'unpriceable'): one row never stops a start, a
   * resync or a price tick of the others.
   */
  private leaveOut(row: { trade_uuid: string; user_uuid: string }, error: unknown): void {
    this.forgetHere(row.trade_uuid);
    if (this.unpriceable.has(row.trade_uuid)) return;
    this.unpriceable.add(row.trade_uuid);
    this.options.log.warn(
      { trade_uuid: row.trade_uuid, err: error },
      'trade monitor: an open trade cannot be priced; it is left out and flagged',
    );
    void this.enqueue(async () => {
      await updateTrade(this.options.db, row.trade_uuid, { trade_error: TradeError.UNPRICEABLE });
    });
  }

  private trackPriced(
    row: WatchableTrade,
    known: { trade_open_price: string; trade_quantity: string },
  ): void {
    const position: TradePosition = {
      trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
      trade_open_price: known.trade_open_price,
      trade_quantity: known.trade_quantity,
      trade_leverage: row.trade_leverage,
    };
    const trade: LiveTrade = {
      trade_uuid: row.trade_uuid,
      user_uuid: row.user_uuid,
      platform_uuid: row.platform_uuid,
      symbol_uuid: row.symbol_uuid,
      symbol_pair: row.symbol_pair,
      terms: tradeTerms({
        position,
        stopLossPercent: row.trade_stop_loss_percent,
        takeProfitPercent: row.trade_take_profit_percent,
        trailingPercent: row.trade_treiling_stop_percent,
      }),
      fees: tradeFees(row.trade_open_commission, position),
      calc: calculatedOf(row),
      bestRoe: row.trade_best_roe,
      conditions: row.monitor_conditions,
      dirty: false,
    };
    this.trades.set(trade.trade_uuid, trade);
    this.touch(trade.user_uuid);
    const own = this.byPair.get(trade.symbol_pair) ?? new Set<string>();
    own.add(trade.trade_uuid);
    this.byPair.set(trade.symbol_pair, own);
    const price = this.currentPrice(trade.symbol_pair);
    if (price) this.recalculate(trade, price);
  }

  /** forget(), in this process only. */
  private forgetHere(tradeUuid: string): void {
    const trade = this.trades.get(tradeUuid);
    if (!trade) return;
    this.trades.delete(tradeUuid);
    this.touch(trade.user_uuid);
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

  /**
   * A number that changes whenever the live fields of one of the user's watched trades change, or a trade of
   * theirs is watched or forgotten: readers that cache what they built from calculated() compare it.
   */
  liveRevision(userUuid: string): number {
    return this.revisions.of(userUuid);
  }

  private touch(userUuid: string): void {
    this.revisions.change(userUuid);
  }

  /** Calls `listener` with every UI status marked from now on; answers the function that stops it. */
  onUiStatus(listener: (mark: UiStatusMark) => void): () => void {
    return this.listeners.add(listener);
  }

  /** One mark price of a symbol pair: every open trade on it is recalculated. */
  onPrice(symbolPair: string, price: string): void {
    this.prices.set(symbolPair, price);
    const own = this.byPair.get(symbolPair);
    if (!own) return;
    for (const tradeUuid of own) {
      const trade = this.trades.get(tradeUuid);
      if (!trade) continue;
      try {
        this.recalculate(trade, price);
      } catch (error) {
        this.leaveOut(trade, error);
      }
    }
  }

  /** Stored live signals (live-core): DIRECTION_SIGNAL / REVERSE_SIGNAL on the open trades they concern. */
  async onSignals(signals: readonly MonitoredSignal[]): Promise<void> {
    if (!this.leading) return;
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
        if (!reachesMinimalAccuracy(signal.accuracy, minimal)) continue;
        this.mark(trade, signalUiStatus(trade.terms.position.trade_direction, signal.direction));
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
    this.sync.tell({ kind: 'ui_status', trade_uuid: tradeUuid, trade_ui_status: null });
    this.touch(trade.user_uuid);
    await this.persistNow(trade);
    return { ...trade.calc };
  }

  /** Stores the price fields that changed since the last batch (the leader's task). */
  flush(): Promise<void> {
    if (!this.leading) return this.queue;
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
    const { state, rises } = applyPrice(
      trade.terms,
      {
        trade_current_price: trade.calc.trade_current_price,
        trade_last_update_price: trade.calc.trade_last_update_price,
        trade_pnl_current: trade.calc.trade_pnl_current,
        trade_roe_current: trade.calc.trade_roe_current,
        trade_treiling_stop_percent_current: trade.calc.trade_treiling_stop_percent_current,
        trade_best_roe: trade.bestRoe,
        monitor_conditions: trade.conditions,
      },
      price,
    );
    trade.calc = {
      ...trade.calc,
      trade_last_update_price: state.trade_last_update_price,
      trade_current_price: state.trade_current_price,
      trade_pnl_current: state.trade_pnl_current,
      trade_roe_current: state.trade_roe_current,
      trade_treiling_stop_percent_current: state.trade_treiling_stop_percent_current,
      trade_update_timestamp: new Date(this.clock()).toISOString(),
    };
    // The closing commission at this price and the net figures (issue 18; the liquidation price is fixed).
    if (trade.fees)
      Object.assign(trade.calc, netColumnsAt(trade.fees, price, state.trade_pnl_current, trade.terms.margin));
    trade.bestRoe = state.trade_best_roe;
    trade.conditions = state.monitor_conditions;
    trade.dirty = true;
    this.touch(trade.user_uuid);
    if (rises && this.leading) this.mark(trade, rises);
  }

  /** Sets a UI status when the precedence rule allows it; stores it and tells the owner. */
  private mark(trade: LiveTrade, status: TradeUiStatus): void {
    if (!mayMark(trade.calc.trade_ui_status, status)) return;
    trade.calc = { ...trade.calc, trade_ui_status: status };
    this.touch(trade.user_uuid);
    void this.persistNow(trade);
    this.sync.tell({ kind: 'ui_status', trade_uuid: trade.trade_uuid, trade_ui_status: status });
    this.options.hub.sendToUser(trade.user_uuid, {
      event: 'trade_updated_response_from_core',
      message: { trade_uuid: trade.trade_uuid, trade_update_calculated: { ...trade.calc } },
    });
    const mark: UiStatusMark = {
      trade_uuid: trade.trade_uuid,
      user_uuid: trade.user_uuid,
      platform_uuid: trade.platform_uuid,
      symbol_uuid: trade.symbol_uuid,
      trade_ui_status: status,
    };
    this.listeners.emit(mark, (error) => {
      this.options.log.warn({ err: error }, 'trade monitor: a UI status listener failed');
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
  private write(trade: LiveTrade, withUiStatus: boolean): Promise<void> {
    return writeLiveFields(this.options.db, trade.trade_uuid, trade.calc, {
      bestRoe: trade.bestRoe,
      conditions: trade.conditions,
      withUiStatus,
    });
  }
}
