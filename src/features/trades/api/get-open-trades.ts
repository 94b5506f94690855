import { tradeListAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/trade/get_trades/open/ (SPEC.md §7): the trader's open trades. */
export async function getOpenTrades() {
  const answer = await apiGet('trade/get_trades/open/', tradeListAnswer);
  return answer.result.trade_list;
}
