import { useTranslation } from 'react-i18next';
export interface PlatformChipProps {
  name: string;
  /** The platform's platform_background, a CSS colour. */
  background: string;
  /** Filled: the whole chip in the platform colour (signal cards); otherwise a coloured dot before the name. */
  filled?: boolean;
}

const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Black or white, whichever reads better on a #rgb / #rrggbb background (WCAG relative luminance). */
function readableTextColour(background: string): string {
  if (!HEX_COLOUR.test(background)) return 'var(--text)';
  let hex = background.slice(1);
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05): equal at L ≈ 0.179.
  return luminance > 0.179 ? '#111418' : '#ffffff';
}

/** Platform name with its background colour (SPEC.md §2 "Platform chip"). */
export function PlatformChip({ name, background, filled = false }: PlatformChipProps) {
  // Issue 40: a platform's name in the trader's language where it has one (Paper Futures), else as it is.
  const { t } = useTranslation();
  const shown = t(`platform_name.${name}`, { defaultValue: name });
  if (filled) {
    return (
      <span
        className="platform-chip is-filled"
        style={{ background, color: readableTextColour(background) }}
        data-testid="platform-chip"
      >
        {shown}
      </span>
    );
  }
  return (
    <span
      className="platform-chip"
      style={{ ['--platform-bg' as string]: background }}
      data-testid="platform-chip"
    >
      <span className="platform-chip-dot" aria-hidden="true" />
      {shown}
    </span>
  );
}
