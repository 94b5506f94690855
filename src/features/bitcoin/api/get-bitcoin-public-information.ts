import { getBitcoinPublicInformationAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/public/get_bitcoin_public_information/ (SPEC.md §7). */
export async function getBitcoinPublicInformation() {
  const answer = await apiGet('public/get_bitcoin_public_information/', getBitcoinPublicInformationAnswer);
  return answer.result;
}
