import { getBitcoinPublicTrendDataAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/public/get_bitcoin_public_trend_data/ (SPEC.md §7): the series of the bitcoin chart. */
export async function getBitcoinPublicTrendData() {
  const answer = await apiGet('public/get_bitcoin_public_trend_data/', getBitcoinPublicTrendDataAnswer);
  return answer.result;
}
