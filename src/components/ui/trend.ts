// trend_moment of SPEC.md §3 (-1 bear, 0 flat, 1 bull): its colour and its label BULL / BEAR / FLET (§9).
import { Palette } from './palette';

const TrendLabel = { BULL: 'BULL', BEAR: 'BEAR', FLET: 'FLET' } as const;
type TrendLabel = (typeof TrendLabel)[keyof typeof TrendLabel];

export function trendLabel(trendMoment: number): TrendLabel {
  if (trendMoment > 0) return TrendLabel.BULL;
  if (trendMoment < 0) return TrendLabel.BEAR;
  return TrendLabel.FLET;
}

/** Up is green, down is red, flat is gray. */
export function trendPalette(trendMoment: number): Palette {
  if (trendMoment > 0) return Palette.GREEN;
  if (trendMoment < 0) return Palette.RED;
  return Palette.GRAY;
}
