// trend_moment of SPEC.md §3 (-1 bear, 0 flat, 1 bull): its label BULL / BEAR / FLET (§9); and the one colour
// rule of every trend on screen (§9: four tiers around TREND_COLOUR_THRESHOLD_PERCENT).
import { TREND_COLOUR_THRESHOLD_PERCENT } from '../../config/constants';
import { Palette } from './palette';

const TrendLabel = { BULL: 'BULL', BEAR: 'BEAR', FLET: 'FLET' } as const;
type TrendLabel = (typeof TrendLabel)[keyof typeof TrendLabel];

export function trendLabel(trendMoment: number): TrendLabel {
  if (trendMoment > 0) return TrendLabel.BULL;
  if (trendMoment < 0) return TrendLabel.BEAR;
  return TrendLabel.FLET;
}

/**
 * The colour of a trend (SPEC.md §9): above the threshold green, below its negative red, otherwise above 0
 * yellow, below 0 orange; exactly 0 (flat, which SPEC.md leaves out) gray. `trend` is a trend_prediction in
 * percent or a trend_moment (-1, 0, 1), which lies beyond the threshold whenever it is not 0.
 */
export function trendPalette(trend: number, thresholdPercent = TREND_COLOUR_THRESHOLD_PERCENT): Palette {
  if (trend > thresholdPercent) return Palette.GREEN;
  if (trend < -thresholdPercent) return Palette.RED;
  if (trend > 0) return Palette.YELLOW;
  if (trend < 0) return Palette.ORANGE;
  return Palette.GRAY;
}
