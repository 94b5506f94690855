import { useMemo } from 'react';
import { useChartTheme, type ChartColours } from '../../../components/charts/use-chart-theme';

/** The chart colours of the dashboard: the theme's, plus the blue of buy counts. */
export interface StatisticColours extends ChartColours {
  blue: string;
}

function cssVariable(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/**
 * useChartTheme plus the palette blue it does not carry, read again whenever the theme changes
 * (useChartTheme then returns new colours). Pairs of SPEC.md §9: ROE buy green / sell red, count buy blue /
 * sell orange.
 */
export function useStatisticColours() {
  const { theme, colours } = useChartTheme();
  const statisticColours = useMemo<StatisticColours>(
    () => ({
      ...colours,
      blue: cssVariable('--palette-blue-fg', colours.accent),
    }),
    [colours],
  );
  return { theme, colours: statisticColours };
}
