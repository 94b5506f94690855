// The signal engine on a seeded paper market (paper-exchange generateHistory): every signal's reported
// accuracy is the measured hit rate of its neuron's last resolved signals on that symbol, every outcome
// follows the documented hit rule, and the same candles give the same signals.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateHistory, SYMBOLS } from '../../../paper-exchange/src/index';
import { candleFromHistory, candleEnd, type Candle } from './candles';
import { HIT_THRESHOLD_PERCENT, HORIZON_MINUTES } from './hit-rule';
import { NEURONS } from './neurons';
import {
  ACCURACY_WINDOW,
  MIN_RESOLVED,
  SignalEngine,
  type EngineResolution,
  type EngineSignal,
} from './signal-engine';

const SEED = 11;
const END_TIME = Date.UTC(2026, 0, 5);
const MARKET_SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'DOGEUSDT'];

function seededMarket(days: number): Map<string, Candle[]> {
  const history = generateHistory({ seed: SEED, days, symbols: MARKET_SYMBOLS, endTime: END_TIME });
  return new Map(
    [...history].map(([symbol, candles]) => {
      const precision = SYMBOLS.find((spec) => spec.symbol === symbol)!.pricePrecision;
      return [symbol, candles.map((candle) => candleFromHistory(candle, precision))];
    }),
  );
}

function run(market: Map<string, Candle[]>, engine = new SignalEngine()) {
  const signals: EngineSignal[] = [];
  const resolutions: EngineResolution[] = [];
  for (const [symbol, candles] of market) {
    for (const candle of candles) {
      const step = engine.onCandle(symbol, candle)!;
      resolutions.push(...step.resolutions);
      signals.push(...step.signals);
    }
  }
  return { signals, resolutions, engine };
}

/** The hit rule of docs/server.md, written out independently of hit-rule.ts. */
function expectedOutcome(signal: EngineSignal, candles: Candle[]): { outcome: string; resolvedAt: number } {
  const start = candles.findIndex((candle) => candleEnd(candle) === signal.createdAt);
  const entry = Number(signal.priceEnter);
  const up = entry * (1 + HIT_THRESHOLD_PERCENT / 100);
  const down = entry * (1 - HIT_THRESHOLD_PERCENT / 100);
  for (let k = 1; k <= HORIZON_MINUTES; k++) {
    const candle = candles[start + k]!;
    const high = Number(candle.high);
    const low = Number(candle.low);
    const good = signal.direction === 'BUY' ? high >= up : low <= down;
    const bad = signal.direction === 'BUY' ? low <= down : high >= up;
    if (bad) return { outcome: 'miss', resolvedAt: candleEnd(candle) };
    if (good) return { outcome: 'hit', resolvedAt: candleEnd(candle) };
  }
  const last = candles[start + HORIZON_MINUTES]!;
  const close = Number(last.close);
  const right = signal.direction === 'BUY' ? close > entry : close < entry;
  return { outcome: right ? 'hit' : 'miss', resolvedAt: candleEnd(last) };
}

describe('SignalEngine on a seeded market', () => {
  let market: Map<string, Candle[]>;
  let result: ReturnType<typeof run>;
  beforeAll(() => {
    market = seededMarket(4);
    result = run(market);
  });

  it('makes signals with both neurons on every symbol', () => {
    for (const neuron of NEURONS) {
      for (const symbol of MARKET_SYMBOLS) {
        const made = result.signals.filter((s) => s.neuronUuid === neuron.neuron_uuid && s.symbol === symbol);
        expect(made.length, `${neuron.neuron_tag_name} on ${symbol}`).toBeGreaterThan(MIN_RESOLVED);
      }
    }
  });

  it('reports as accuracy the measured hit rate of the last resolved signals, null before enough', () => {
    let checked = 0;
    for (const signal of result.signals) {
      const resolvedBefore = result.resolutions.filter(
        (r) =>
          r.neuronUuid === signal.neuronUuid &&
          r.symbol === signal.symbol &&
          r.resolvedAt <= signal.createdAt,
      );
      const window = resolvedBefore.slice(-ACCURACY_WINDOW);
      if (window.length < MIN_RESOLVED) {
        expect(signal.accuracy).toBeNull();
        continue;
      }
      const hits = window.filter((r) => r.outcome === 'hit').length;
      expect(signal.accuracy).toBe(hits / window.length);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(100);
    // Measured, not constant: the reported accuracies vary.
    expect(new Set(result.signals.map((s) => s.accuracy)).size).toBeGreaterThan(5);
  });

  it('resolves every signal by the documented hit rule, one open signal per neuron and symbol', () => {
    for (const resolution of result.resolutions) {
      const signal = result.signals.find(
        (s) =>
          s.neuronUuid === resolution.neuronUuid &&
          s.symbol === resolution.symbol &&
          s.createdAt === resolution.createdAt,
      )!;
      expect(signal).toBeDefined();
      const expected = expectedOutcome(signal, market.get(signal.symbol)!);
      expect({ outcome: resolution.outcome, resolvedAt: resolution.resolvedAt }).toEqual(expected);
      const overlapping = result.signals.filter(
        (s) =>
          s.neuronUuid === signal.neuronUuid &&
          s.symbol === signal.symbol &&
          s.createdAt > signal.createdAt &&
          s.createdAt < resolution.resolvedAt,
      );
      expect(overlapping).toEqual([]);
    }
    // All but the signals still open at the end are resolved.
    expect(result.signals.length - result.resolutions.length).toBeLessThanOrEqual(
      NEURONS.length * MARKET_SYMBOLS.length,
    );
  });

  it('gives the same signals for the same candles', () => {
    const again = run(market);
    expect(again.signals).toEqual(result.signals);
    expect(again.resolutions).toEqual(result.resolutions);
  });

  it('continues a restored track record without new signals on minutes already judged', () => {
    const [symbol] = MARKET_SYMBOLS as [string];
    const candles = market.get(symbol)!;
    const neuron = NEURONS[0]!;
    const cut = candles[candles.length - 200]!;
    const before = result.resolutions.filter(
      (r) => r.neuronUuid === neuron.neuron_uuid && r.symbol === symbol && r.resolvedAt <= candleEnd(cut),
    );
    const engine = new SignalEngine();
    engine.restore(neuron.neuron_uuid, symbol, { outcomes: before.map((r) => r.outcome) }, candleEnd(cut));
    const later = run(new Map([[symbol, candles]]), engine).signals.filter(
      (s) => s.neuronUuid === neuron.neuron_uuid,
    );
    expect(later.every((s) => s.createdAt > candleEnd(cut))).toBe(true);
    const window = before.slice(-ACCURACY_WINDOW);
    if (later[0] && window.length >= MIN_RESOLVED) {
      expect(later[0].accuracy).toBe(window.filter((r) => r.outcome === 'hit').length / window.length);
    }
  });
});
