import { tradeListAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';
import { TRADE_HISTORY_LIMIT_ROWS, TRADE_HISTORY_OFFSET_DEFAULT } from '../../../config/constants';

/**
 * GET /api/trade/get_trades_history/ (SPEC.md §7): the trades created between start_date and end_date (ISO
 * strings), one page of up to TRADE_HISTORY_LIMIT_ROWS rows.
 */
export async function getTradesHistory(range: { start_date: string; end_date: string }) {
  const answer = await apiGet('trade/get_trades_history/', tradeListAnswer, {
    offset: TRADE_HISTORY_OFFSET_DEFAULT,
    limit: TRADE_HISTORY_LIMIT_ROWS,
    start_date: range.start_date,
    end_date: range.end_date,
  });
  return answer.result.trade_list;
}
