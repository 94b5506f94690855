import { tradeListAnswer } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/trade/claim_unannounced_closes/ (issue 53): the closes the server recorded on its own that no page
 * has told yet, each answered once (to this call: another tab's claim gets none of them).
 */
export async function claimUnannouncedCloses() {
  const answer = await apiPost('trade/claim_unannounced_closes/', {}, tradeListAnswer);
  return answer.result.trade_list;
}
