import { tradePreferencesAnswer } from '../../../contracts/preferences';
import { apiGet } from '../../lib/api-client';

/** GET /api/trade_preferences/get_preferences/ → the four global preferences (SPEC.md §7). */
export async function getTradePreferences() {
  const answer = await apiGet('trade_preferences/get_preferences/', tradePreferencesAnswer);
  return answer.result;
}
