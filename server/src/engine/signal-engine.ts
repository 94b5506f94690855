// The signal engine: a pure function of the closed 1-minute candles it is given (symbol by symbol, in time
// order). For every neuron and symbol it keeps at most one open signal, judges it with the hit rule
// (hit-rule.ts) on each later candle, and keeps the outcomes of its last ACCURACY_WINDOW resolved signals.
// A new signal's signal_accuracy is hits ÷ resolved over that window at the moment it is made; with fewer
// than MIN_RESOLVED resolved signals the accuracy is null and the signal only builds the track record (it is
// stored, never sent to traders). The live feed (live-core.ts) and a replay of history run this same code.
import type { SignalDirection, SignalOutcome, TrendMoment } from '../../../contracts';
import { candleEnd, MINUTE_MS, type Candle } from './candles';
import { judge, type OpenSignal } from './hit-rule';
import { MarketAnalytics } from './market-analytics';
import { NEURONS, type Neuron, type NeuronState } from './neurons';

export const ACCURACY_WINDOW = 50;
export const MIN_RESOLVED = 10;

export interface EngineSignal {
  neuronUuid: string;
  symbol: string;
  direction: SignalDirection;
  /** The candle's close, as the exchange wrote it. */
  priceEnter: string;
  /** Fraction 0..1, or null while the neuron has fewer than MIN_RESOLVED resolved signals on the symbol. */
  accuracy: number | null;
  trendMoment: TrendMoment;
  /** candleEnd of the candle it was made on, ms. */
  createdAt: number;
}

export interface EngineResolution {
  neuronUuid: string;
  symbol: string;
  /** createdAt of the signal it resolves. */
  createdAt: number;
  outcome: SignalOutcome;
  priceExit: string;
  resolvedAt: number;
}

export interface EngineStep {
  symbol: string;
  candle: Candle;
  trendMoment: TrendMoment;
  /** Resolutions come first: a signal resolved on this candle counts for a signal made on it. */
  resolutions: EngineResolution[];
  signals: EngineSignal[];
}

/** What a store remembers of one neuron on one symbol, to continue after a restart. */
export interface TrackRecord {
  /** Outcomes of the last resolved signals, oldest first (only the last ACCURACY_WINDOW count). */
  outcomes: SignalOutcome[];
  /** The unresolved signal, if any. */
  open?: { direction: SignalDirection; priceEnter: string; createdAt: number };
}

interface Slot {
  state: NeuronState;
  outcomes: SignalOutcome[];
  open?: OpenSignal & { createdAt: number };
  /** No new signal on candles ending at or before this time: they were judged by an earlier run. */
  resumeAfter: number;
}

export interface SignalEngineOptions {
  neurons?: readonly Neuron[];
  /**
   * Analytics that someone else updates with each candle before handing it to the engine (the live feed);
   * by default the engine keeps its own.
   */
  analytics?: MarketAnalytics;
}

export class SignalEngine {
  readonly neurons: readonly Neuron[];
  readonly analytics: MarketAnalytics;
  private readonly ownsAnalytics: boolean;
  private readonly slots = new Map<string, Slot>();

  constructor(options: SignalEngineOptions = {}) {
    this.neurons = options.neurons ?? NEURONS;
    this.ownsAnalytics = !options.analytics;
    this.analytics = options.analytics ?? new MarketAnalytics();
  }

  /**
   * Continues a track record kept by a store: outcomes and the open signal as they were stored, and no new
   * signals on candles ending at or before resumeAfter (those minutes already had their chance). Call before
   * the first candle of that symbol.
   */
  restore(neuronUuid: string, symbol: string, record: TrackRecord, resumeAfter: number): void {
    const slot = this.slot(neuronUuid, symbol);
    slot.outcomes = record.outcomes.slice(-ACCURACY_WINDOW);
    slot.open = record.open ? { ...record.open, age: 0 } : undefined;
    slot.resumeAfter = resumeAfter;
  }

  onCandle(symbol: string, candle: Candle): EngineStep | undefined {
    if (this.ownsAnalytics) {
      if (!this.analytics.push(symbol, candle)) return undefined;
    } else if (this.analytics.lastOpenTime(symbol) !== candle.openTime) {
      throw new Error(`analytics of ${symbol} not at candle ${candle.openTime}`);
    }
    const series = this.analytics.series(symbol);
    if (!series) return undefined;
    const trendMoment = this.analytics.trendMoment(symbol);
    const input = { candle, series, trendMoment };
    const end = candleEnd(candle);
    const step: EngineStep = { symbol, candle, trendMoment, resolutions: [], signals: [] };
    for (const neuron of this.neurons) {
      const slot = this.slot(neuron.neuron_uuid, symbol);
      if (slot.open && end > slot.open.createdAt) {
        // The age counts minutes since the signal, not candles seen: the same with contiguous candles, and a
        // signal restored from a store resolves at its horizon even when some of its candles are not replayed.
        slot.open.age = Math.round((end - slot.open.createdAt) / MINUTE_MS) - 1;
        const verdict = judge(slot.open, candle);
        if (verdict) {
          step.resolutions.push({
            neuronUuid: neuron.neuron_uuid,
            symbol,
            createdAt: slot.open.createdAt,
            ...verdict,
          });
          slot.outcomes.push(verdict.outcome);
          if (slot.outcomes.length > ACCURACY_WINDOW) slot.outcomes.shift();
          slot.open = undefined;
        }
      }
      slot.state.observe(input);
      if (slot.open || end <= slot.resumeAfter) continue;
      const direction = slot.state.propose(input);
      if (!direction) continue;
      slot.open = { direction, priceEnter: candle.close, age: 0, createdAt: end };
      step.signals.push({
        neuronUuid: neuron.neuron_uuid,
        symbol,
        direction,
        priceEnter: candle.close,
        accuracy: this.accuracy(slot),
        trendMoment,
        createdAt: end,
      });
    }
    return step;
  }

  /** The neuron's current accuracy on a symbol (fraction), or null with too few resolved signals. */
  accuracyOf(neuronUuid: string, symbol: string): number | null {
    const slot = this.slots.get(`${neuronUuid}|${symbol}`);
    return slot ? this.accuracy(slot) : null;
  }

  private accuracy(slot: Slot): number | null {
    if (slot.outcomes.length < MIN_RESOLVED) return null;
    return slot.outcomes.filter((outcome) => outcome === 'hit').length / slot.outcomes.length;
  }

  private slot(neuronUuid: string, symbol: string): Slot {
    const key = `${neuronUuid}|${symbol}`;
    let slot = this.slots.get(key);
    if (!slot) {
      const neuron = this.neurons.find((item) => item.neuron_uuid === neuronUuid);
      if (!neuron) throw new Error(`unknown neuron ${neuronUuid}`);
      slot = { state: neuron.createState(), outcomes: [], resumeAfter: -1 };
      this.slots.set(key, slot);
    }
    return slot;
  }
}
