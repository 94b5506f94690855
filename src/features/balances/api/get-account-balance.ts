import { accountBalanceAnswer, type GetAccountBalanceBody } from '../../../../contracts/balances';
import { apiPost } from '../../../lib/api-client';

/** POST /api/account_balance/get_account_balance/ (server mode, SPEC.md §7). */
export async function getAccountBalance(body: GetAccountBalanceBody) {
  const answer = await apiPost('account_balance/get_account_balance/', body, accountBalanceAnswer);
  return answer.result;
}
