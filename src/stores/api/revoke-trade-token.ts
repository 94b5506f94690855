import { revokeTradeTokenAnswer, type RevokeTradeTokenBody } from '../../../contracts/trade-tokens';
import { apiPost } from '../../lib/api-client';

/** POST /api/trade_token/revoke_trade_token/ (server mode, SPEC.md §7). */
export async function revokeTradeToken(body: RevokeTradeTokenBody) {
  const answer = await apiPost('trade_token/revoke_trade_token/', body, revokeTradeTokenAnswer);
  return answer.result;
}
