// The seven palettes of SPEC.md §1. Each maps to CSS variables --palette-{name}-fg / -bg / -border per theme.
export const Palette = {
  GRAY: 'gray',
  RED: 'red',
  GREEN: 'green',
  ORANGE: 'orange',
  BLUE: 'blue',
  VIOLET: 'violet',
  YELLOW: 'yellow',
} as const;
export type Palette = (typeof Palette)[keyof typeof Palette];
