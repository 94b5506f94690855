// Rule-based neuron "trend-momentum": follows the symbol's trend_moment (trend.ts) when the last 15 minutes
// agree with it — BUY when the trend is 1 and the 15-minute return is positive, SELL when the trend is -1
// and it is negative, nothing otherwise. It learns nothing; its accuracy is what the market makes of it.
import type { Neuron, NeuronInput, NeuronState } from './neuron';

const MOMENTUM_NEURON_UUID = '0d8a9f5e-6a43-4c52-9d1e-5b7f3c2a1e01';
const CONFIRM_MINUTES = 15;

class MomentumState implements NeuronState {
  observe(): void {}

  propose({ series, trendMoment }: NeuronInput) {
    if (series.count <= CONFIRM_MINUTES) return undefined;
    const recent = series.logReturn(CONFIRM_MINUTES);
    if (trendMoment === 1 && recent > 0) return 'BUY' as const;
    if (trendMoment === -1 && recent < 0) return 'SELL' as const;
    return undefined;
  }
}

export const momentumNeuron: Neuron = {
  neuron_uuid: MOMENTUM_NEURON_UUID,
  neuron_tag_name: 'trend-momentum',
  description: 'Follows trend_moment when the last 15 minutes move the same way.',
  createState: () => new MomentumState(),
};
