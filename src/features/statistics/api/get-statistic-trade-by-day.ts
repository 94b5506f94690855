import { statisticTradeByDayAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/public/get_statistic_trade_by_day/ (SPEC.md §7): the house's points of the last 24 hours, one
 * every 5 minutes, oldest first.
 */
export async function getStatisticTradeByDay() {
  const answer = await apiGet('public/get_statistic_trade_by_day/', statisticTradeByDayAnswer);
  return answer.result.statistic_trade_by_day_list;
}
