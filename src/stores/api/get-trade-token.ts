import { tradeTokenAnswer, type GetTradeTokenBody } from '../../../contracts/trade-tokens';
import { apiPost } from '../../lib/api-client';

/** POST /api/trade_token/get_trade_token/ → the token record (server mode, SPEC.md §7). */
export async function getTradeToken(body: GetTradeTokenBody) {
  const answer = await apiPost('trade_token/get_trade_token/', body, tradeTokenAnswer);
  return answer.result;
}
