// The trader's risk limits (issue 18 item 3; contracts/risk-limits.ts): where they stand, as the server computes
// them from the records of both modes. The signal-info bar shows it, the auto-open clock stops on it, and an open
// (auto or manual, both modes) reads it afresh first (app/signal-trading.ts).
import { proxy } from 'valtio';
import { riskLimitRefusal, type RiskLimitRefusal, type RiskLimitState } from '../../contracts/risk-limits';
import { getRiskLimitState } from './api/get-risk-limit-state';

interface RiskLimitsState {
  state: RiskLimitState | undefined;
}

export const riskLimitsStore = proxy<RiskLimitsState>({ state: undefined });

let generation = 0;

/** Reads the state again; a failure is logged and leaves the last known state. Answers the state read. */
export async function loadRiskLimitState(): Promise<RiskLimitState | undefined> {
  generation += 1;
  const mine = generation;
  try {
    const state = await getRiskLimitState();
    if (mine === generation) riskLimitsStore.state = state;
    return state;
  } catch (error) {
    console.error(error);
    return undefined;
  }
}

/** Which limit refuses a new trade by the last known state, if any. */
export function knownRiskLimitRefusal(): RiskLimitRefusal | undefined {
  const state = riskLimitsStore.state;
  return state ? riskLimitRefusal(state) : undefined;
}

export function resetRiskLimitsStore(): void {
  generation += 1;
  riskLimitsStore.state = undefined;
}
