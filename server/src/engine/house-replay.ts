// The house account in the backfill (docs/server.md "House account", "Backfill"): the replay consumer that
// trades the replayed signals as the live house follower trades the live ones — the one replay of signals as
// trades (trade-replay.ts) with the house's settings (its preferences, the exits on the exchange, the fees at the
// house's rate), so the stored history, the statistics, the live track record and a trader's what-if replay of
// the house's settings are one record.
// Each replayed minute: the prices of the minute for the open trades (their symbols' candles), then the signals
// made at its end (trade-replay.ts has the rules).
// The replayed trades are stored as client-mode rows (trade_in_server_side 0, no order ids, no trade_exits): no
// exchange ever held their positions. The ones still open at the end stay open and are followed live
// (house-follower.ts) by Signaldesk's monitor.
import type { Database } from '../db';
import { trades, type NewTradeRow } from '../db/schema-trades';
import { insertInBulk, type ReplayConsumer } from './backfill';
import type { Candle } from './candles';
import type { EngineStep } from './signal-engine';
import { nameUuid, signalUuidOf, type SymbolRow } from './signal-store';
import type { StatisticTrade } from './statistics';
import { TradeReplay, type OrderFilter, type ReplayedTrade, type ReplaySettings } from './trade-replay';

export type { OrderFilter, ReplayedTrade };

export interface HouseReplayOptions {
  houseUserUuid: string;
  /** The platform the house trades on (the paper platform). */
  platformUuid: string;
  symbolMap: ReadonlyMap<string, SymbolRow>;
  /** The house's settings (the defaults; replaySettingsOf). */
  settings: ReplaySettings;
  /** The exchange's order filters by symbol (exchangeInfo LOT_SIZE minQty, MIN_NOTIONAL notional). */
  orderFilters?: Readonly<Record<string, OrderFilter>>;
}

/** The trade uuid of a replayed trade on a signal: name-based, so a replay is reproducible. */
export const replayedTradeUuid = (signalUuid: string): string => nameUuid(`house-replay|${signalUuid}`);

export class HouseReplay implements ReplayConsumer {
  readonly replay: TradeReplay;
  private pricedOpen: readonly ReplayedTrade[] = [];

  constructor(private readonly options: HouseReplayOptions) {
    this.replay = new TradeReplay({
      userUuid: options.houseUserUuid,
      platformUuid: options.platformUuid,
      symbolMap: options.symbolMap,
      settings: options.settings,
      orderFilters: options.orderFilters,
      tradeUuidOf: replayedTradeUuid,
    });
  }

  /** Every trade, in the order they were opened. */
  get trades(): readonly ReplayedTrade[] {
    return this.replay.trades;
  }

  /** Closed trades, in the order they were closed. */
  get closed(): readonly ReplayedTrade[] {
    return this.replay.closed;
  }

  onMinute(time: number, steps: readonly EngineStep[], closes: ReadonlyMap<string, Candle>): void {
    for (const pair of [...this.replay.heldSymbols()]) {
      const candle = closes.get(pair);
      if (candle) this.replay.onCandle(pair, candle);
    }
    this.pricedOpen = this.replay.openTrades;
    for (const step of steps) {
      this.replay.onStep(time, {
        symbol: step.symbol,
        signals: step.signals.map((signal) => ({
          signalUuid: signalUuidOf(this.options.platformUuid, signal),
          neuronUuid: signal.neuronUuid,
          symbol: signal.symbol,
          direction: signal.direction,
          priceEnter: signal.priceEnter,
          accuracy: signal.accuracy,
        })),
      });
    }
    this.replay.lastTime = time;
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
    return this.replay.trades.map((trade) => {
      if (trade.closedAt !== undefined) return trade.row;
      const at = new Date(this.replay.lastTime);
      return { ...trade.row, ...trade.state, trade_update_timestamp: at };
    });
  }

  /** Stores the trades in bulk (in the backfill's transaction). */
  async store(tx: Database): Promise<void> {
    await insertInBulk(tx, trades, this.rows());
  }
}
