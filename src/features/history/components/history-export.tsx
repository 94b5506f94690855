// The export of /trade_history (issue 18 item 4): any range of local days as a CSV or JSON file, written by the
// server (GET /trade/export_trades_history/: every column of the table, fees and order ids, exact decimals). The
// range starts as the page's day; the file is saved through a download link of its text.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryExportFormat } from '../../../../contracts';
import { translateError } from '../../../lib/i18n';
import { addNotification, NotificationType } from '../../../stores/notifications-store';
import { exportTradesHistory } from '../api/export-trades-history';
import { dayRange } from '../history-store';

/** yyyy-mm-dd of a local date (what <input type="date"> holds). */
function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local day of a yyyy-mm-dd. */
function dateOf(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date!);
}

function save(text: string, fileName: string, format: HistoryExportFormat): void {
  const type = format === HistoryExportFormat.JSON ? 'application/json' : 'text/csv';
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function HistoryExport({ day }: { day: string }) {
  const { t } = useTranslation();
  const today = localDay(new Date(day));
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [format, setFormat] = useState<HistoryExportFormat>(HistoryExportFormat.CSV);
  const [isBusy, setIsBusy] = useState(false);
  const isValid = from !== '' && to !== '' && from <= to;

  const run = async () => {
    setIsBusy(true);
    try {
      const range = {
        start_date: dayRange(dateOf(from)).start_date,
        end_date: dayRange(dateOf(to)).end_date,
      };
      const text = await exportTradesHistory({ ...range, format });
      save(text, `signaldesk-trades-${from}-${to}.${format}`, format);
    } catch (error) {
      console.error(error);
      addNotification(NotificationType.ERROR, ['history.export.failed', translateError(error)]);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <div className="history-export" role="group" aria-label={t('history.export.label')}>
      <label>
        <span className="muted">{t('history.export.from')}</span>
        <input
          type="date"
          className="input is-small"
          value={from}
          max={to || undefined}
          onChange={(event) => setFrom(event.target.value)}
          data-testid="history-export-from"
        />
      </label>
      <label>
        <span className="muted">{t('history.export.to')}</span>
        <input
          type="date"
          className="input is-small"
          value={to}
          min={from || undefined}
          onChange={(event) => setTo(event.target.value)}
          data-testid="history-export-to"
        />
      </label>
      <select
        className="input is-small"
        aria-label={t('history.export.format')}
        value={format}
        onChange={(event) => setFormat(event.target.value as HistoryExportFormat)}
        data-testid="history-export-format"
      >
        <option value={HistoryExportFormat.CSV}>CSV</option>
        <option value={HistoryExportFormat.JSON}>JSON</option>
      </select>
      <button
        type="button"
        className="button is-small"
        disabled={!isValid || isBusy}
        onClick={() => void run()}
        data-testid="history-export"
      >
        {t('history.export.button')}
      </button>
    </div>
  );
}
