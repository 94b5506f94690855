import { loginAnswer, type LoginBody } from '../../../contracts/auth';
import { apiPost } from '../../lib/api-client';

/** POST /api/auth/login/ → result.token_type, result.access_token (SPEC.md §7). */
export async function login(body: LoginBody) {
  const answer = await apiPost('auth/login/', body, loginAnswer);
  return answer.result;
}
