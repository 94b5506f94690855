import { meAnswer } from '../../../contracts/auth';
import { apiGet } from '../../lib/api-client';

/** GET /api/auth/me/ → the current user with user_trade_token_key (SPEC.md §7). */
export async function getCurrentUser() {
  const answer = await apiGet('auth/me/', meAnswer);
  return answer.result;
}
