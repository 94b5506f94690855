// Leverage brackets (reference §7 leverageBracket, §12 maintenance): notional floor and cap, initial
// leverage and maintenance margin ratio, with the maintenance amount `cum` derived exactly.
import { D } from '../num.js';

export interface LeverageBracket {
  bracket: number;
  initialLeverage: number;
  notionalCap: number;
  notionalFloor: number;
  maintMarginRatio: number;
  cum: number;
}

export type BracketRow = [floor: number, cap: number, leverage: number, mmr: number];

export const BRACKETS_125: BracketRow[] = [
  [0, 50_000, 125, 0.004],
  [50_000, 600_000, 100, 0.005],
  [600_000, 3_000_000, 75, 0.0065],
  [3_000_000, 12_000_000, 50, 0.01],
  [12_000_000, 70_000_000, 25, 0.02],
  [70_000_000, 100_000_000, 20, 0.025],
  [100_000_000, 230_000_000, 10, 0.05],
  [230_000_000, 480_000_000, 5, 0.1],
  [480_000_000, 600_000_000, 4, 0.125],
  [600_000_000, 800_000_000, 3, 0.15],
  [800_000_000, 1_200_000_000, 2, 0.25],
  [1_200_000_000, 1_800_000_000, 1, 0.5],
];

export const BRACKETS_100: BracketRow[] = [
  [0, 10_000, 100, 0.005],
  [10_000, 100_000, 75, 0.0065],
  [100_000, 500_000, 50, 0.01],
  [500_000, 2_000_000, 25, 0.02],
  [2_000_000, 5_000_000, 20, 0.025],
  [5_000_000, 10_000_000, 10, 0.05],
  [10_000_000, 25_000_000, 5, 0.1],
  [25_000_000, 50_000_000, 4, 0.125],
  [50_000_000, 100_000_000, 2, 0.25],
  [100_000_000, 200_000_000, 1, 0.5],
];

export const BRACKETS_75: BracketRow[] = [
  [0, 5_000, 75, 0.0065],
  [5_000, 50_000, 50, 0.01],
  [50_000, 250_000, 25, 0.02],
  [250_000, 1_000_000, 20, 0.025],
  [1_000_000, 5_000_000, 10, 0.05],
  [5_000_000, 10_000_000, 5, 0.1],
  [10_000_000, 20_000_000, 4, 0.125],
  [20_000_000, 50_000_000, 2, 0.25],
  [50_000_000, 100_000_000, 1, 0.5],
];

/**
 * Maintenance amount per bracket: cum_n = floor_n × (MMR_n − MMR_{n−1}) + cum_{n−1} (reference §12, LIQ),
 * computed exactly so the brackets are continuous at every floor.
 */
export function buildBrackets(rows: BracketRow[], scale = 1): LeverageBracket[] {
  let cum = new D(0);
  let previousMmr = new D(0);
  return rows.map(([floor, cap, leverage, mmr], index) => {
    const mmrDec = new D(mmr);
    cum = new D(floor * scale).times(mmrDec.minus(previousMmr)).plus(cum);
    previousMmr = mmrDec;
    return {
      bracket: index + 1,
      initialLeverage: leverage,
      notionalCap: cap * scale,
      notionalFloor: floor * scale,
      maintMarginRatio: mmr,
      cum: cum.toNumber(),
    };
  });
}
