import { describe, expect, test } from 'vitest';
import { relationKind, strongestRelation } from './analysis-format';

const POINTS = [
  { lag: -2, corr_buy: 0.05, corr_sell: -0.12 },
  { lag: -1, corr_buy: 0.02, corr_sell: -0.33 },
  { lag: 0, corr_buy: -0.01, corr_sell: 0.01 },
  { lag: 3, corr_buy: 0.21, corr_sell: -0.017 },
];

describe('the strongest relation (issue 40)', () => {
  test('is the largest |r| of the series with its lag, not the greatest r', () => {
    expect(strongestRelation(POINTS, 'sell')).toEqual({ corr: -0.33, lag: -1 });
    expect(strongestRelation(POINTS, 'buy')).toEqual({ corr: 0.21, lag: 3 });
    expect(strongestRelation([], 'buy')).toBeUndefined();
  });

  test('reads as lead after, follow before, same at 0, none below 0.1', () => {
    expect(relationKind({ corr: 0.21, lag: 3 })).toBe('lead');
    expect(relationKind({ corr: -0.33, lag: -1 })).toBe('follow');
    expect(relationKind({ corr: 0.4, lag: 0 })).toBe('same');
    expect(relationKind({ corr: -0.09, lag: 5 })).toBe('none');
  });
});
