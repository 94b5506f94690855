import type { ReactNode } from 'react';
import { Palette } from './palette';

export interface ChipProps {
  palette?: Palette;
  children: ReactNode;
  title?: string;
  testId?: string;
}

/** A small coloured label using one of the seven palettes of SPEC.md §1. */
export function Chip({ palette = Palette.GRAY, children, title, testId }: ChipProps) {
  return (
    <span
      className={`chip-label palette-${palette}`}
      title={title}
      data-testid={testId}
      data-palette={palette}
    >
      {children}
    </span>
  );
}
