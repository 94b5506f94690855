import { useTranslation } from 'react-i18next';
import { Palette } from './palette';

export interface StatusBadgeLook {
  /** The badge letters: O, TP, SL, TS, MC, DS, RS. */
  text: string;
  palette: Palette;
}

/** Trade statuses of SPEC.md §4 with their badge letters and colours (SPEC.md §2 "Trade history"). */
const BADGES: Readonly<Record<string, StatusBadgeLook>> = {
  open: { text: 'O', palette: Palette.GREEN },
  take_profit: { text: 'TP', palette: Palette.GREEN },
  stop_loss: { text: 'SL', palette: Palette.RED },
  treiling_stop: { text: 'TS', palette: Palette.VIOLET },
  manual_close: { text: 'MC', palette: Palette.BLUE },
  direction_signal: { text: 'DS', palette: Palette.BLUE },
  reverse_signal: { text: 'RS', palette: Palette.ORANGE },
};

/**
 * The letters and colour of a trade status, undefined for an unknown one. The pulsing UI-status button of an
 * open trade uses the look of the status it leads to (TP green, SL red, TS violet, DS blue, RS orange).
 */
export function statusBadgeLook(status: string): StatusBadgeLook | undefined {
  return Object.hasOwn(BADGES, status) ? BADGES[status] : undefined;
}

/** A trade status badge; an unknown status shows a dots icon. The title names the status. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const { t } = useTranslation();
  const badge = statusBadgeLook(status);
  const title = t(`trade_status.${status}`, { defaultValue: status });
  if (!badge) {
    return (
      <span
        className="status-badge palette-gray"
        title={title}
        aria-label={title}
        role="img"
        data-testid={testId}
        data-status="unknown"
      >
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <circle cx="3" cy="8" r="1.5" fill="currentColor" />
          <circle cx="8" cy="8" r="1.5" fill="currentColor" />
          <circle cx="13" cy="8" r="1.5" fill="currentColor" />
        </svg>
      </span>
    );
  }
  return (
    <span
      className={`status-badge palette-${badge.palette}`}
      title={title}
      data-palette={badge.palette}
      data-testid={testId}
      data-status={status}
    >
      {badge.text}
    </span>
  );
}

/**
 * What the badge letters of a table mean (issue 53: "MC" explained nothing without a pointer to hover): each
 * status the table shows once, its badge beside its name, in the order of the statuses above.
 */
export function StatusLegend({ statuses, testId }: { statuses: readonly string[]; testId?: string }) {
  const { t } = useTranslation();
  const shown = Object.keys(BADGES).filter((status) => statuses.includes(status));
  if (shown.length === 0) return null;
  return (
    <ul className="status-legend muted" aria-label={t('history.status_legend')} data-testid={testId}>
      {shown.map((status) => (
        <li key={status}>
          <StatusBadge status={status} /> {t(`trade_status.${status}`)}
        </li>
      ))}
    </ul>
  );
}
