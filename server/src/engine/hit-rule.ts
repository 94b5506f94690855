// When a signal is a hit (docs/server.md "Market and signals"). A signal made at the close of a candle
// enters at that close. Over the next HORIZON_MINUTES closed candles:
// - a hit when the price reaches entry ± HIT_THRESHOLD_PERCENT in the signal's direction before it reaches
//   the same distance against it;
// - a miss when it reaches the distance against it first, or both within one candle (the order inside a
//   minute is unknown, so the doubt goes against the signal);
// - when neither is reached, the close of the last candle decides: a hit when it is beyond the entry in the
//   signal's direction, otherwise a miss.
// A random direction then scores about 50 % on every symbol, whatever its volatility.
import type { SignalDirection, SignalOutcome } from '../../../contracts';
import { candleEnd, decimalsOf, type Candle } from './candles';

export const HIT_THRESHOLD_PERCENT = 0.3;
export const HORIZON_MINUTES = 30;

export interface OpenSignal {
  direction: SignalDirection;
  /** Entry price as the exchange wrote it. */
  priceEnter: string;
  /** Closed candles judged so far. */
  age: number;
}

export interface Verdict {
  outcome: SignalOutcome;
  /** Price at resolution: the threshold price reached, or the last close (entry's decimals). */
  priceExit: string;
  /** candleEnd of the deciding candle, ms. */
  resolvedAt: number;
}

/** The target (hit) and stop (miss) prices of a signal. */
export function thresholdPrices(
  direction: SignalDirection,
  priceEnter: number,
): { target: number; stop: number } {
  const up = priceEnter * (1 + HIT_THRESHOLD_PERCENT / 100);
  const down = priceEnter * (1 - HIT_THRESHOLD_PERCENT / 100);
  return direction === 'BUY' ? { target: up, stop: down } : { target: down, stop: up };
}

/** A signal's entry and its two threshold prices, parsed once. */
export interface Levels {
  entry: number;
  /** entry × (1 + threshold): a BUY's target, a SELL's stop. */
  up: number;
  /** entry × (1 − threshold): a BUY's stop, a SELL's target. */
  down: number;
}

export function levelsOf(priceEnter: string): Levels {
  const entry = Number(priceEnter);
  const { target, stop } = thresholdPrices('BUY', entry);
  return { entry, up: target, down: stop };
}

/** A closed candle's prices as numbers. */
export interface CandleNumbers {
  high: number;
  low: number;
  close: number;
}

/**
 * How a candle ends a signal of `age` judged candles (counting this one): 'stop' or 'target' when a threshold
 * was reached (the stop first: the order inside a minute is unknown), 'close' at the horizon with the outcome
 * from the close, undefined while it stays open. The one rule judge() and the learning neuron's labels share.
 */
export function reachOn(
  direction: SignalDirection,
  levels: Levels,
  age: number,
  candle: CandleNumbers,
): { outcome: SignalOutcome; by: 'stop' | 'target' | 'close' } | undefined {
  const buy = direction === 'BUY';
  if (buy ? candle.low <= levels.down : candle.high >= levels.up) return { outcome: 'miss', by: 'stop' };
  if (buy ? candle.high >= levels.up : candle.low <= levels.down) return { outcome: 'hit', by: 'target' };
  if (age < HORIZON_MINUTES) return undefined;
  const right = buy ? candle.close > levels.entry : candle.close < levels.entry;
  return { outcome: right ? 'hit' : 'miss', by: 'close' };
}

export function candleNumbers(candle: Candle): CandleNumbers {
  return { high: Number(candle.high), low: Number(candle.low), close: Number(candle.close) };
}

/** Judges one more closed candle after the signal's; undefined while the signal is still open. */
export function judge(signal: OpenSignal, candle: Candle): Verdict | undefined {
  signal.age += 1;
  const levels = levelsOf(signal.priceEnter);
  const reach = reachOn(signal.direction, levels, signal.age, candleNumbers(candle));
  if (!reach) return undefined;
  const resolvedAt = candleEnd(candle);
  if (reach.by === 'close') return { outcome: reach.outcome, priceExit: candle.close, resolvedAt };
  const buy = signal.direction === 'BUY';
  const reached = (reach.by === 'target') === buy ? levels.up : levels.down;
  return { outcome: reach.outcome, priceExit: reached.toFixed(decimalsOf(signal.priceEnter)), resolvedAt };
}
