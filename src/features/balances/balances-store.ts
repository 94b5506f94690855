// Account balance per platform_uuid (SPEC.md §3, §4 "Balance retrieval per platform"). Client mode (0) reads
// the exchange account with the decrypted token; server mode (1) asks the API. Any failure removes the
// platform's stored balance. The total sums total_margin_balance in exact decimals (trade-core). What else a
// client-mode read is good for (reconciling the trades the exchange closed) is the app's rule: the caller hands
// it in as `afterClientRead` (app/platform-keys.ts).
import { proxy } from 'valtio';
import type { AccountBalance } from '../../../contracts/balances';
import { TradeSide } from '../../../contracts/preferences';
import { TradeTokenLevel } from '../../../contracts/trade-tokens';
import { ExchangeError, type ExchangeClient } from '../../../shared-core/exchange-client';
import { translateError, translateExchangeText } from '../../lib/i18n';
import { sumDecimals } from '../../../shared-core/trade-core';
import { authStore } from '../../stores/auth-store';
import { addNotification, NotificationType } from '../../stores/notifications-store';
import { platformsStore } from '../../stores/platforms-store';
import { tradeSide } from '../../stores/preferences-store';
import { getPinCode, pinCodeStore } from '../../stores/pin-code-store';
import { withPlatformExchange } from '../../stores/platform-exchange';
import { readTokenEnvelope } from '../../stores/token-storage';
import { getAccountBalance } from './api/get-account-balance';
import { ApiError } from '../../lib/api-client';
import { serverRefusedToken, tradeTokensStore } from '../../stores/trade-tokens-store';

interface BalancesState {
  balance_by_platform_uuid: Record<string, AccountBalance>;
  /**
   * Why a platform's last balance read failed, as the trader reads it (issue 36): shown instead of a 0.00 $
   * that looks like an empty account. Cleared by the next good read, or when the PIN goes.
   */
  error_by_platform_uuid: Record<string, string>;
}

export const balancesStore = proxy<BalancesState>({
  balance_by_platform_uuid: {},
  error_by_platform_uuid: {},
});

/**
 * Runs after a client-mode read, with the platform's open exchange client; not awaited, so a slow follow-up
 * never holds the balance back.
 */
export type AfterClientBalanceRead = (platformUuid: string, client: ExchangeClient) => Promise<void>;

export function removePlatformBalance(platformUuid: string): void {
  delete balancesStore.balance_by_platform_uuid[platformUuid];
  delete balancesStore.error_by_platform_uuid[platformUuid];
}

/** The failure of a balance read in the trader's language: the exchange's reason, or our server's. */
function failureText(error: unknown): string {
  if (error instanceof ExchangeError) return translateExchangeText(error.text) ?? error.text;
  return translateError(error);
}

async function readBalance(
  platformUuid: string,
  afterClientRead: AfterClientBalanceRead | undefined,
): Promise<AccountBalance | undefined> {
  const pinCode = getPinCode(platformUuid);
  if (!pinCode) return undefined;
  if (tradeSide() === TradeSide.SERVER) {
    // The server said the token is gone or the PIN wrong (serverRefusedToken): no read until that changes.
    const level = tradeTokensStore.token_by_platform_uuid[platformUuid]?.level;
    if (level === TradeTokenLevel.NO_TRADE_TOKEN || level === TradeTokenLevel.WRONG_PIN_CODE)
      return undefined;
    try {
      return await getAccountBalance({ pin_code: pinCode, platform_uuid: platformUuid });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
        serverRefusedToken(platformUuid, error.status);
      }
      throw error;
    }
  }
  const platform = platformsStore.platform_dict[platformUuid];
  // The client-side method runs only on a platform where trading is available, with a PIN and a user.
  if (!platform || platform.level !== TradeTokenLevel.TRADE_AVAILABLE) return undefined;
  const user = authStore.user;
  if (!user) {
    addNotification(NotificationType.ERROR, 'notification.current_user_not_found');
    return undefined;
  }
  if (!readTokenEnvelope(platformUuid)) return undefined;
  return withPlatformExchange(platformUuid, async (client) => {
    const balance = await client.getAccount();
    // The token is open and the exchange answers: the app learns which client-mode trades the exchange
    // closed. Best effort and not awaited, so a slow check never holds the balance back.
    if (afterClientRead) void afterClientRead(platformUuid, client);
    return balance;
  });
}

/** Reads one platform's balance; on any failure (or a missing PIN or token) its stored balance is removed. */
export async function loadPlatformBalance(
  platformUuid: string,
  afterClientRead?: AfterClientBalanceRead,
): Promise<void> {
  const pinCode = getPinCode(platformUuid);
  try {
    const balance = await readBalance(platformUuid, afterClientRead);
    // The PIN was removed or changed (or the token revoked) while the call ran: this answer is stale.
    if (getPinCode(platformUuid) !== pinCode) return;
    if (balance) balancesStore.balance_by_platform_uuid[platformUuid] = balance;
    else removePlatformBalance(platformUuid);
  } catch (error) {
    console.error(error);
    if (getPinCode(platformUuid) !== pinCode) return;
    removePlatformBalance(platformUuid);
    balancesStore.error_by_platform_uuid[platformUuid] = failureText(error);
  }
}

/** Refreshes every platform that has a PIN (the others cannot have a balance). */
export async function loadAllBalances(afterClientRead?: AfterClientBalanceRead): Promise<void> {
  const withPin = Object.keys(pinCodeStore.pin_code_by_platform_uuid);
  for (const uuid of Object.keys(balancesStore.balance_by_platform_uuid)) {
    if (!withPin.includes(uuid)) removePlatformBalance(uuid);
  }
  await Promise.all(withPin.map((uuid) => loadPlatformBalance(uuid, afterClientRead)));
}

/** Sum of total_margin_balance over the platforms, as an exact decimal string (SPEC.md §2 balance widget). */
export function totalMarginBalance(balances: Readonly<Record<string, AccountBalance>>): string {
  return sumDecimals(Object.values(balances).map((balance) => balance.total_margin_balance));
}

export function resetBalancesStore(): void {
  balancesStore.balance_by_platform_uuid = {};
  balancesStore.error_by_platform_uuid = {};
}
