// The neurons the signal engine runs (docs/server.md "Market and signals"). Their uuids are fixed so a
// stored signal keeps its neuron across restarts and databases.
import { logisticNeuron } from './logistic';
import { momentumNeuron } from './momentum';
import type { Neuron } from './neuron';

export type { Neuron, NeuronInput, NeuronState } from './neuron';
export const NEURONS: readonly Neuron[] = [momentumNeuron, logisticNeuron];
