import { createPaperAccountAnswer } from '../../../contracts/paper';
import { apiPost } from '../../lib/api-client';

/** POST /api/paper_exchange/create_account/ → a funded paper-exchange account's {api_key, api_secret}. */
export async function createPaperAccount() {
  const answer = await apiPost('paper_exchange/create_account/', {}, createPaperAccountAnswer);
  return answer.result;
}
