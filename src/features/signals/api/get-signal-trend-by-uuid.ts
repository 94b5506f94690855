import { getSignalTrendAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/signal/get_signal_trend_by_uuid/{signal_uuid}/ (SPEC.md §7): the price around a signal. */
export async function getSignalTrendByUuid(signalUuid: string) {
  const answer = await apiGet(
    `signal/get_signal_trend_by_uuid/${encodeURIComponent(signalUuid)}/`,
    getSignalTrendAnswer,
  );
  return answer.result;
}
