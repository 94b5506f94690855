import type { HistoryExportFormat } from '../../../../contracts';
import { apiGetText } from '../../../lib/api-client';

/**
 * GET /api/trade/export_trades_history/ (issue 18): the trades created in the range as the file's text, CSV or
 * JSON, exactly as the server wrote it (contracts/history-export.ts).
 */
export function exportTradesHistory(range: {
  start_date: string;
  end_date: string;
  format: HistoryExportFormat;
}): Promise<string> {
  return apiGetText('trade/export_trades_history/', range);
}
