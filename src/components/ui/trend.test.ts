import { describe, expect, test } from 'vitest';
import { TREND_COLOUR_THRESHOLD_PERCENT } from '../../config/constants';
import { Palette } from './palette';
import { trendLabel, trendPalette } from './trend';

describe('trend colours (SPEC.md §9: four tiers around one threshold)', () => {
  const threshold = TREND_COLOUR_THRESHOLD_PERCENT;

  test('the threshold is 0.2 %', () => {
    expect(threshold).toBe(0.2);
  });

  test('above the threshold green, below its negative red, above 0 yellow, below 0 orange', () => {
    expect(trendPalette(0.5)).toBe(Palette.GREEN);
    expect(trendPalette(0.21)).toBe(Palette.GREEN);
    expect(trendPalette(0.19)).toBe(Palette.YELLOW);
    expect(trendPalette(0.01)).toBe(Palette.YELLOW);
    expect(trendPalette(-0.01)).toBe(Palette.ORANGE);
    expect(trendPalette(-0.19)).toBe(Palette.ORANGE);
    expect(trendPalette(-0.21)).toBe(Palette.RED);
    expect(trendPalette(-3)).toBe(Palette.RED);
  });

  test('at the threshold itself (not above it) yellow / orange; exactly 0 gray', () => {
    expect(trendPalette(threshold)).toBe(Palette.YELLOW);
    expect(trendPalette(-threshold)).toBe(Palette.ORANGE);
    expect(trendPalette(0)).toBe(Palette.GRAY);
  });

  test('trend_moment (-1, 0, 1) takes the outer tiers and gray', () => {
    expect(trendPalette(1)).toBe(Palette.GREEN);
    expect(trendPalette(0)).toBe(Palette.GRAY);
    expect(trendPalette(-1)).toBe(Palette.RED);
    expect([trendLabel(1), trendLabel(0), trendLabel(-1)]).toEqual(['BULL', 'FLET', 'BEAR']);
  });

  test('another threshold moves the tiers', () => {
    expect(trendPalette(0.5, 1)).toBe(Palette.YELLOW);
    expect(trendPalette(-1.5, 1)).toBe(Palette.RED);
  });
});
