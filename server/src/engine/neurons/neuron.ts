// A neuron proposes a direction for a symbol at each closed candle (SPEC.md §3 Neuron: neuron_uuid,
// neuron_tag_name). Its state is per symbol and changes only through observe(), so a replay of the same
// candles gives the same proposals.
import type { SignalDirection, TrendMoment } from '../../../../contracts';
import type { Candle } from '../candles';
import type { SymbolSeries } from '../series';

export interface NeuronInput {
  candle: Candle;
  series: SymbolSeries;
  trendMoment: TrendMoment;
}

export interface NeuronState {
  /** Learns from the candle just closed (called on every candle, before propose). */
  observe(input: NeuronInput): void;
  /** The direction it would signal now, or undefined. */
  propose(input: NeuronInput): SignalDirection | undefined;
}

export interface Neuron {
  neuron_uuid: string;
  neuron_tag_name: string;
  /** One sentence for docs and logs. */
  description: string;
  /** A fresh state for one symbol. */
  createState(): NeuronState;
}
