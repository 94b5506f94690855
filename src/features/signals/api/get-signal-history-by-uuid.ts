import { getSignalHistoryAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/signal/get_signal_history_by_uuid/{signal_uuid}/ (SPEC.md §7): the record behind its accuracy. */
export async function getSignalHistoryByUuid(signalUuid: string) {
  const answer = await apiGet(
    `signal/get_signal_history_by_uuid/${encodeURIComponent(signalUuid)}/`,
    getSignalHistoryAnswer,
  );
  return answer.result;
}
