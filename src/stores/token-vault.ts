// The trade token vault as this feature uses it: trade-core's envelope (DESIGN.md "Token vault"), keyed by the
// PIN, the platform_uuid and the user's user_trade_token_key. Opening one is platform-exchange.ts's job (it
// keeps the signing key while the PIN is known); plaintext credentials are never put into a store.
import { TradeTokenMessage, type TradeTokenContent } from '../../contracts/trade-tokens';
import { rekeyToken, sealToken } from '../../shared-core/trade-core';

export interface VaultKey {
  pinCode: string;
  platformUuid: string;
  userTradeTokenKey: string;
}

/** Seals a new token (SPEC.md §4 "Create": uuid, created time, message 'created new token', key, secret). */
export function sealNewTradeToken(apiKey: string, apiSecret: string, key: VaultKey): string {
  const content: TradeTokenContent = {
    trade_token_uuid: crypto.randomUUID(),
    created_at: new Date().toISOString(),
    updated_at: null,
    message: TradeTokenMessage.CREATED,
    api_key: apiKey,
    api_secret: apiSecret,
  };
  return sealToken(JSON.stringify(content), key.pinCode, key.platformUuid, key.userTradeTokenKey);
}

/** Re-encrypts an envelope under a new PIN (DESIGN.md: changing the PIN never strands the token). */
export function rekeyTradeToken(
  envelope: string,
  oldPinCode: string,
  newPinCode: string,
  key: Omit<VaultKey, 'pinCode'>,
) {
  return rekeyToken(envelope, oldPinCode, newPinCode, key.platformUuid, key.userTradeTokenKey);
}
