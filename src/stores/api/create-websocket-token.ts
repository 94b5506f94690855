import { websocketTokenAnswer } from '../../../contracts/auth';
import { apiGet } from '../../lib/api-client';

/** GET /api/auth/create_websocket_token/ → a token for /api/ws_core/{token} (SPEC.md §7). */
export async function createWebsocketToken() {
  const answer = await apiGet('auth/create_websocket_token/', websocketTokenAnswer);
  return answer.result;
}
