import { signupAnswer, type SignupBody } from '../../../contracts/auth';
import { apiPost } from '../../lib/api-client';

/** POST /api/user/ (SPEC.md §7 signup). */
export async function signup(body: SignupBody) {
  const answer = await apiPost('user/', body, signupAnswer);
  return answer.result;
}
