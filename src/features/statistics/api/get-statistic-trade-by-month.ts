import { statisticTradeByMonthAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/public/get_statistic_trade_by_month/ (SPEC.md §7): one item per complete UTC day of the last 30,
 * oldest first; the last one is yesterday's.
 */
export async function getStatisticTradeByMonth() {
  const answer = await apiGet('public/get_statistic_trade_by_month/', statisticTradeByMonthAnswer);
  return answer.result.statistic_trade_by_month_list;
}
