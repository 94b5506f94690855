import { getRecentSignalListAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/signal/get_recent_signal_list/: the newest signals this trader would have been sent and has not
 * traded, newest first, with the server's clock (their ages are measured on it).
 */
export async function getRecentSignalList(limit?: number) {
  const answer = await apiGet(
    'signal/get_recent_signal_list/',
    getRecentSignalListAnswer,
    limit === undefined ? undefined : { limit },
  );
  return answer.result;
}
