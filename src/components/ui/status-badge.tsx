import { useTranslation } from 'react-i18next';
import { Palette } from './palette';

/** Trade statuses of SPEC.md §4 with their badge letters and colours (SPEC.md §2 "Trade history"). */
const BADGES: Readonly<Record<string, { text: string; palette: Palette }>> = {
  open: { text: 'O', palette: Palette.GREEN },
  take_profit: { text: 'TP', palette: Palette.GREEN },
  stop_loss: { text: 'SL', palette: Palette.RED },
  treiling_stop: { text: 'TS', palette: Palette.VIOLET },
  manual_close: { text: 'MC', palette: Palette.BLUE },
  direction_signal: { text: 'DS', palette: Palette.BLUE },
  reverse_signal: { text: 'RS', palette: Palette.ORANGE },
};

/** A trade status badge; an unknown status shows a dots icon. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const badge = BADGES[status];
  const title = t(`trade_status.${status}`, { defaultValue: status });
  if (!badge) {
    return (
      <span className="status-badge palette-gray" title={title} aria-label={title}>
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <circle cx="3" cy="8" r="1.5" fill="currentColor" />
          <circle cx="8" cy="8" r="1.5" fill="currentColor" />
          <circle cx="13" cy="8" r="1.5" fill="currentColor" />
        </svg>
      </span>
    );
  }
  return (
    <span className={`status-badge palette-${badge.palette}`} title={title} data-palette={badge.palette}>
      {badge.text}
    </span>
  );
}
