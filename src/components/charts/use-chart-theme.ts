import type { LineSvgProps } from '@nivo/line';
import { useEffect, useMemo, useState } from 'react';

type ChartTheme = NonNullable<LineSvgProps<{ id: string; data: { x: number; y: number }[] }>['theme']>;

/** Colours a chart takes from the app theme (SPEC.md §2: charts follow the light or dark theme). */
export interface ChartColours {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  border: string;
  accent: string;
  green: string;
  red: string;
  orange: string;
  violet: string;
}

function cssVariable(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/**
 * nivo draws SVG attributes, which cannot read CSS variables: the theme's values are read here instead, and
 * read again whenever <html data-theme> changes (the theme toggle), so charts follow the theme.
 */
export function useChartTheme(): { theme: ChartTheme; colours: ChartColours } {
  const [themeVersion, setThemeVersion] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setThemeVersion((version) => version + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return useMemo(() => {
    void themeVersion;
    const colours: ChartColours = {
      text: cssVariable('--text', '#e6edf3'),
      muted: cssVariable('--muted', '#9ba6b2'),
      grid: cssVariable('--border', '#2b3440'),
      surface: cssVariable('--surface-raised', '#1b222c'),
      border: cssVariable('--border-strong', '#3b4654'),
      accent: cssVariable('--accent', '#4c8dff'),
      green: cssVariable('--palette-green-fg', '#4fce6a'),
      red: cssVariable('--palette-red-fg', '#ff8078'),
      orange: cssVariable('--palette-orange-fg', '#f59a52'),
      violet: cssVariable('--palette-violet-fg', '#c8a2ff'),
    };
    const theme: ChartTheme = {
      background: 'transparent',
      text: { fill: colours.muted, fontSize: 11 },
      axis: {
        domain: { line: { stroke: colours.grid, strokeWidth: 1 } },
        ticks: {
          line: { stroke: colours.grid, strokeWidth: 1 },
          text: { fill: colours.muted, fontSize: 11 },
        },
        legend: { text: { fill: colours.muted, fontSize: 11 } },
      },
      grid: { line: { stroke: colours.grid, strokeWidth: 1, strokeDasharray: '2 4' } },
      crosshair: { line: { stroke: colours.muted, strokeWidth: 1, strokeOpacity: 0.6 } },
      tooltip: {
        container: {
          background: colours.surface,
          color: colours.text,
          border: `1px solid ${colours.border}`,
          borderRadius: 6,
          fontSize: 12,
          boxShadow: 'none',
        },
      },
    };
    return { theme, colours };
  }, [themeVersion]);
}
