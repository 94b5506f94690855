// When a signal is a hit (docs/decisions.md "Market and signals"). A signal made at the close of a candle
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

/** Judges one more closed candle after the signal's; undefined while the signal is still open. */
export function judge(signal: OpenSignal, candle: Candle): Verdict | undefined {
  signal.age += 1;
  const entry = Number(signal.priceEnter);
  const { target, stop } = thresholdPrices(signal.direction, entry);
  const high = Number(candle.high);
  const low = Number(candle.low);
  const buy = signal.direction === 'BUY';
  const reachedTarget = buy ? high >= target : low <= target;
  const reachedStop = buy ? low <= stop : high >= stop;
  const decimals = decimalsOf(signal.priceEnter);
  const resolvedAt = candleEnd(candle);
  if (reachedStop) return { outcome: 'miss', priceExit: stop.toFixed(decimals), resolvedAt };
  if (reachedTarget) return { outcome: 'hit', priceExit: target.toFixed(decimals), resolvedAt };
  if (signal.age < HORIZON_MINUTES) return undefined;
  const close = Number(candle.close);
  const right = buy ? close > entry : close < entry;
  return { outcome: right ? 'hit' : 'miss', priceExit: candle.close, resolvedAt };
}
