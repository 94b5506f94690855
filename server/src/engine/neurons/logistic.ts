// Learning neuron "logistic-online": a logistic regression per symbol over the series features (series.ts:
// distance from the 60/240/720-minute means and the 15/60/240-minute returns, in volatility units), trained
// online by stochastic gradient descent on every closed candle. Its label is the hit rule itself (hit-rule.ts)
// applied to a BUY made at each past candle: 1 when that BUY would have been a hit, 0 when a SELL would
// have been; candles where both would miss are skipped. It proposes BUY when the modelled chance of an up-hit
// is at least 0.5 + MARGIN, SELL when it is at most 0.5 - MARGIN, after MIN_SAMPLES labels.
import type { SignalDirection } from '../../../../contracts';
import { candleNumbers, levelsOf, reachOn, type Levels } from '../hit-rule';
import type { Neuron, NeuronInput, NeuronState } from './neuron';

const LOGISTIC_NEURON_UUID = '6f1c2b7e-3d94-4e8a-a5b0-9c4d8e2f7a02';
const LEARNING_RATE = 0.005;
const L2 = 1e-4;
const MARGIN = 0.1;
const MIN_SAMPLES = 240;

interface Pending {
  features: number[];
  levels: Levels;
  /** Candles judged so far. */
  age: number;
  buyHit?: boolean;
  sellHit?: boolean;
}

class LogisticState implements NeuronState {
  private weights: number[] = [];
  private readonly pending: Pending[] = [];
  private samples = 0;

  observe({ candle, series }: NeuronInput): void {
    // Every pending label is judged on this candle: parse its prices once (a 30-day replay judges ~20 M).
    const prices = candleNumbers(candle);
    for (const item of this.pending) {
      item.age += 1;
      if (item.buyHit === undefined) {
        const reach = reachOn('BUY', item.levels, item.age, prices);
        if (reach) item.buyHit = reach.outcome === 'hit';
      }
      if (item.sellHit === undefined) {
        const reach = reachOn('SELL', item.levels, item.age, prices);
        if (reach) item.sellHit = reach.outcome === 'hit';
      }
    }
    while (this.pending[0]?.buyHit !== undefined && this.pending[0].sellHit !== undefined) {
      const done = this.pending.shift() as Pending;
      if (done.buyHit) this.learn(done.features, 1);
      else if (done.sellHit) this.learn(done.features, 0);
    }
    if (!series.ready) return;
    const features = series.features();
    if (this.weights.length === 0) this.weights = new Array<number>(features.length).fill(0);
    this.pending.push({ features, levels: levelsOf(candle.close), age: 0 });
  }

  propose({ series }: NeuronInput): SignalDirection | undefined {
    if (this.samples < MIN_SAMPLES || !series.ready) return undefined;
    const chanceUp = this.probability(series.features());
    if (chanceUp >= 0.5 + MARGIN) return 'BUY';
    if (chanceUp <= 0.5 - MARGIN) return 'SELL';
    return undefined;
  }

  private probability(features: number[]): number {
    const z = features.reduce((sum, value, i) => sum + value * (this.weights[i] as number), 0);
    return 1 / (1 + Math.exp(-z));
  }

  private learn(features: number[], label: 0 | 1): void {
    const error = label - this.probability(features);
    this.weights = this.weights.map(
      (weight, i) => weight + LEARNING_RATE * (error * (features[i] as number) - L2 * weight),
    );
    this.samples += 1;
  }
}

export const logisticNeuron: Neuron = {
  neuron_uuid: LOGISTIC_NEURON_UUID,
  neuron_tag_name: 'logistic-online',
  description: 'Online logistic regression over return and mean-distance features, trained on the hit rule.',
  createState: () => new LogisticState(),
};
