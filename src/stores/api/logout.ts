import { logoutAnswer } from '../../../contracts/auth';
import { apiPost } from '../../lib/api-client';

/** POST /api/auth/logout/: revokes the refresh cookie on the server (not in SPEC.md §7; best effort). */
export async function logout() {
  const answer = await apiPost('auth/logout/', {}, logoutAnswer);
  return answer.result;
}
