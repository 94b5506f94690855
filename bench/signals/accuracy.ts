// Signal accuracy on the seeded paper market: generates DAYS days for a few seeds exactly as generateHistory
// does (same model, origin and rounding), also recording the model's regime of every minute, replays the
// candles through the pure SignalEngine and prints each neuron's hit rate overall and by the regime the
// signal was made in, the share of signals whose rolling accuracy reaches the default minimal_accuracy (60),
// and an oracle that follows the true regime (the ceiling of trend-following with this hit rule), plus daily
// moves so the prices can be checked for realism. Run: npx tsx bench/signals/accuracy.ts [days] [seeds…]
import { SYMBOLS } from '../../paper-exchange/src/index';
import {
  candleFromPath,
  historyOrigin,
  MINUTE_MS,
  resolveSpecs,
  roundingFor,
} from '../../paper-exchange/src/market/history';
import { PriceModel, Regime } from '../../paper-exchange/src/market/price-model';
import { candleEnd, candleFromHistory, type Candle } from '../../server/src/engine/candles';
import { judge } from '../../server/src/engine/hit-rule';
import { NEURONS } from '../../server/src/engine/neurons';
import { SignalEngine } from '../../server/src/engine/signal-engine';

const args = process.argv.slice(2).map(Number);
const DAYS = args[0] ?? 30;
const SEEDS = args.length > 1 ? args.slice(1) : [1, 2, 3, 42];
const END_TIME = Date.UTC(2026, 0, 1);
const REGIME_NAMES = ['ranging', 'trend up', 'trend down'];

interface Tally {
  hits: number;
  total: number;
}
const tally = () => ({ hits: 0, total: 0 });
const pct = (t: Tally) => (t.total === 0 ? '   -  ' : `${((100 * t.hits) / t.total).toFixed(1)} %`);

/** Candles of every symbol and the regime of each minute (index = minute since the origin). */
function market(seed: number): { candles: Map<string, Candle[]>; regimes: Uint8Array } {
  const specs = resolveSpecs();
  const origin = historyOrigin(END_TIME, DAYS);
  const minutes = DAYS * 1440;
  const model = new PriceModel(seed, specs, origin / MINUTE_MS);
  const roundings = specs.map(roundingFor);
  const candles = new Map<string, Candle[]>(specs.map((spec) => [spec.symbol, []]));
  const regimes = new Uint8Array(minutes);
  for (let m = 0; m < minutes; m++) {
    const paths = model.step();
    regimes[m] = model.regime;
    paths.forEach((path, i) => {
      const spec = specs[i]!;
      const raw = candleFromPath(path, origin + m * MINUTE_MS, roundings[i]!);
      candles.get(spec.symbol)!.push(candleFromHistory(raw, spec.pricePrecision));
    });
  }
  return { candles, regimes };
}

const overall = new Map(NEURONS.map((n) => [n.neuron_uuid, tally()]));
const byRegime = new Map(NEURONS.map((n) => [n.neuron_uuid, [tally(), tally(), tally()]]));
const reaching = new Map(NEURONS.map((n) => [n.neuron_uuid, tally()]));
const oracle = [tally(), tally(), tally()];
const dailyMoves: number[] = [];
/** Realized annual volatility of daily returns ÷ the symbol's documented annualVol, per symbol and seed. */
const volRatios: number[] = [];
const regimeMinutes = [0, 0, 0];

for (const seed of SEEDS) {
  const { candles, regimes } = market(seed);
  const origin = historyOrigin(END_TIME, DAYS);
  const regimeAt = (time: number) => regimes[Math.floor((time - 1 - origin) / MINUTE_MS)] as Regime;
  regimes.forEach((r) => (regimeMinutes[r] = (regimeMinutes[r] ?? 0) + 1));
  const engine = new SignalEngine();
  for (const [symbol, list] of candles) {
    const made = new Map<string, Regime>();
    for (const candle of list) {
      const step = engine.onCandle(symbol, candle);
      if (!step) continue;
      for (const r of step.resolutions) {
        const hit = r.outcome === 'hit' ? 1 : 0;
        const t = overall.get(r.neuronUuid)!;
        t.hits += hit;
        t.total += 1;
        const byR = byRegime.get(r.neuronUuid)![made.get(`${r.neuronUuid}|${r.createdAt}`)!]!;
        byR.hits += hit;
        byR.total += 1;
      }
      for (const s of step.signals) {
        made.set(`${s.neuronUuid}|${s.createdAt}`, regimeAt(s.createdAt));
        const t = reaching.get(s.neuronUuid)!;
        t.total += 1;
        if (s.accuracy !== null && s.accuracy >= 0.6) t.hits += 1;
      }
    }
    // Oracle: every 10th minute, a signal in the direction of the true trend (none in ranges: a coin flip).
    for (let i = 0; i + 31 < list.length; i += 10) {
      const regime = regimeAt(candleEnd(list[i]!));
      const direction = regime === Regime.TRENDING_DOWN ? 'SELL' : 'BUY';
      const open = { direction, priceEnter: list[i]!.close, age: 0 } as const;
      for (let k = i + 1; k <= i + 30; k++) {
        const verdict = judge({ ...open, age: k - i - 1 }, list[k]!);
        if (verdict) {
          oracle[regime]!.hits += verdict.outcome === 'hit' ? 1 : 0;
          oracle[regime]!.total += 1;
          break;
        }
      }
    }
    let sumSquares = 0;
    let days = 0;
    for (let d = 1440; d < list.length; d += 1440) {
      const move = Math.log(Number(list[d]!.close) / Number(list[d - 1440]!.close));
      dailyMoves.push(Math.abs(move));
      sumSquares += move * move;
      days += 1;
    }
    const spec = SYMBOLS.find((item) => item.symbol === symbol)!;
    volRatios.push(Math.sqrt((sumSquares / days) * 365) / spec.annualVol);
  }
}

const total = regimeMinutes.reduce((a, b) => a + b, 0);
console.log(`${DAYS} days × ${SYMBOLS.length} symbols, seeds ${SEEDS.join(', ')}`);
console.log(
  `regime minutes: ${REGIME_NAMES.map((n, i) => `${n} ${((100 * regimeMinutes[i]!) / total).toFixed(0)} %`).join(', ')}`,
);
for (const neuron of NEURONS) {
  const [r, up, down] = byRegime.get(neuron.neuron_uuid)!;
  const o = overall.get(neuron.neuron_uuid)!;
  const trend = { hits: up!.hits + down!.hits, total: up!.total + down!.total };
  const reach = reaching.get(neuron.neuron_uuid)!;
  console.log(
    `${neuron.neuron_tag_name.padEnd(16)} overall ${pct(o)} (${o.total})  trends ${pct(trend)} (${trend.total})` +
      `  ranging ${pct(r!)} (${r!.total})  signals at ≥ 60 %: ${pct(reach)}`,
  );
}
const oTrend = { hits: oracle[1]!.hits + oracle[2]!.hits, total: oracle[1]!.total + oracle[2]!.total };
console.log(`oracle (true regime) trends ${pct(oTrend)}  ranging (BUY) ${pct(oracle[0]!)}`);
dailyMoves.sort((a, b) => a - b);
const q = (p: number) => (100 * dailyMoves[Math.floor(p * (dailyMoves.length - 1))]!).toFixed(2);
const ratio = volRatios.reduce((a, b) => a + b, 0) / volRatios.length;
console.log(
  `|daily move| median ${q(0.5)} %, 90th ${q(0.9)} %, max ${q(1)} %; ` +
    `realized ÷ documented annual volatility ${ratio.toFixed(2)}`,
);
