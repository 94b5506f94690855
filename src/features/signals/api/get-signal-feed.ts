import { signalFeedAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/signal/get_signal_feed/ (issue 18): the last hour's filtered signals with their outcomes. */
export async function getSignalFeed() {
  const answer = await apiGet('signal/get_signal_feed/', signalFeedAnswer);
  return answer.result;
}
