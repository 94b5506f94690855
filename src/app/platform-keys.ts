// A platform's PIN, trade token and balance together (SPEC.md §4 "PIN", "Trade token level", "Balance retrieval
// per platform"): rules across the session's stores (src/stores) and the balances and trades features, so the
// app's. A balance follows the token: read once trading is available, removed otherwise; a client-mode read
// also reconciles the trades the exchange closed (trades/trade-reconcile.ts). The trade-preferences page hands
// these to the PIN and token panels; the session's clock reads the balances (app/use-session.ts).
import {
  loadAllBalances,
  loadPlatformBalance,
  removePlatformBalance,
} from '../features/balances/balances-store';
import { reconcilePlatformAfterBalance } from '../features/trades/trade-reconcile';
import type { ExchangeClient } from '../../shared-core/exchange-client';
import { loadBracketTable } from '../stores/brackets-store';
import { TradeTokenLevel } from '../stores/token-level';
import {
  addTradeToken,
  getTradeTokenLevel,
  removePinCode,
  revokePlatformTradeToken,
  setPinCode,
} from '../stores/trade-tokens-store';

/**
 * After a client-mode balance read: the platform's open client-mode trades are reconciled, and its leverage
 * brackets read once a session (the cards' cap, issue 53).
 */
async function afterClientRead(platformUuid: string, client: ExchangeClient): Promise<void> {
  await Promise.all([
    reconcilePlatformAfterBalance(platformUuid, client),
    loadBracketTable(platformUuid, client),
  ]);
}

/** Reads one platform's balance; a client-mode read reconciles the platform's open client-mode trades. */
export function loadBalance(platformUuid: string): Promise<void> {
  return loadPlatformBalance(platformUuid, afterClientRead);
}

/** Reads the balance of every platform with a PIN, reconciling as loadBalance does. */
export function loadBalances(): Promise<void> {
  return loadAllBalances(afterClientRead);
}

/**
 * Saves a platform's PIN (an empty value forgets it): with trading available its balance is read, else it
 * goes. Throws the store's TradeTokenError for the form.
 */
export async function savePinCode(platformUuid: string, pinCode: string): Promise<void> {
  if (pinCode === '') {
    await forgetPinCode(platformUuid);
    return;
  }
  await setPinCode(platformUuid, pinCode);
  if (getTradeTokenLevel(platformUuid) === TradeTokenLevel.TRADE_AVAILABLE) void loadBalance(platformUuid);
  else removePlatformBalance(platformUuid);
}

/** Forgets a platform's PIN; its balance goes too (SPEC.md §4 "PIN"). */
export async function forgetPinCode(platformUuid: string): Promise<void> {
  removePlatformBalance(platformUuid);
  await removePinCode(platformUuid);
}

/** Adds a token in the current mode, then reads the platform's balance; throws for the form. */
export async function addToken(platformUuid: string, apiKey: string, apiSecret: string): Promise<void> {
  await addTradeToken(platformUuid, apiKey, apiSecret);
  void loadBalance(platformUuid);
}

/** Revokes a platform's token (and its PIN); its balance goes. Throws when the revoke call fails. */
export async function revokeToken(platformUuid: string): Promise<void> {
  await revokePlatformTradeToken(platformUuid);
  removePlatformBalance(platformUuid);
}
