import { tradeTrendAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/trade/get_trade_trend_by_uuid/{uuid}/ (SPEC.md §7): the price around a trade. */
export async function getTradeTrendByUuid(tradeUuid: string) {
  const answer = await apiGet(
    `trade/get_trade_trend_by_uuid/${encodeURIComponent(tradeUuid)}/`,
    tradeTrendAnswer,
  );
  return answer.result;
}
