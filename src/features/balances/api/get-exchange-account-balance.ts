import type { AccountBalance } from '../../../../contracts/balances';
import { getAccount, type ExchangeCredentials } from '../../../../shared-core/exchange-client';

/** Signed GET /fapi/v2/account on the platform's exchange, straight from the browser (client mode, SPEC.md §7). */
export function getExchangeAccountBalance(
  platformUrl: string,
  credentials: ExchangeCredentials,
): Promise<AccountBalance> {
  return getAccount({ baseUrl: platformUrl, credentials });
}
