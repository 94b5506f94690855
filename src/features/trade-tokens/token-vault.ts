// The trade token vault as this feature uses it: trade-core's envelope (DESIGN.md "Token vault"), keyed by the
// PIN, the platform_uuid and the user's user_trade_token_key. Plaintext credentials leave this module only
// inside the callback of withTradeTokenContent and are never put into a store.
import {
  tradeTokenContent,
  TradeTokenMessage,
  type TradeTokenContent,
} from '../../../contracts/trade-tokens';
import { openToken, rekeyToken, sealToken } from '../../../shared-core/trade-core';

export interface VaultKey {
  pinCode: string;
  platformUuid: string;
  userTradeTokenKey: string;
}

/** Decrypts and validates an envelope; throws when the PIN (or user key) does not open it. */
export function openTradeTokenContent(envelope: string, key: VaultKey): TradeTokenContent {
  const plaintext = openToken(envelope, key.pinCode, key.platformUuid, key.userTradeTokenKey);
  return tradeTokenContent.parse(JSON.parse(plaintext));
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

/** Runs `action` with the decrypted credentials; they go out of scope when it returns. */
export async function withTradeTokenContent<T>(
  envelope: string,
  key: VaultKey,
  action: (credentials: Pick<TradeTokenContent, 'api_key' | 'api_secret'>) => Promise<T>,
): Promise<T> {
  const { api_key, api_secret } = openTradeTokenContent(envelope, key);
  return action({ api_key, api_secret });
}
