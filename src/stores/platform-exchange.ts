// The exchange of a platform in client mode: "PIN + envelope + user key + platform → exchange client", written
// once. The envelope is unlocked (Argon2id, tens of ms on the main thread) when the PIN is given, and what
// signing needs (the API key and a signer of its secret, in trade-core's memory) is kept for as long as the
// PIN is (SPEC.md §2: the PIN lives in client memory), so a trade click signs at once. It is dropped with the
// PIN, the token or the session (forgetExchangeKeys), and never put in a store or in storage.
//
// Where the requests go: straight to the exchange when the platform allows browsers, else through our
// server's signed-request relay (docs/relay.md): Binance refuses browser origins.
import type { Platform } from '../../contracts/platforms';
import { tradeTokenContent, type TradeTokenContent } from '../../contracts/trade-tokens';
import { ExchangeClient, RELAY_HEADER, signerFor, type SigningKey } from '../../shared-core/exchange-client';
import { openToken } from '../../shared-core/trade-core';
import { API_PREFIX, createRelayFetch } from '../lib/api-client';
import { authStore } from './auth-store';
import { platformsStore } from './platforms-store';
import { getPinCode } from './pin-code-store';
import { readTokenEnvelope } from './token-storage';

interface UnlockedKey extends SigningKey {
  /** What it was unlocked with: a change of any of them makes it stale. */
  envelope: string;
  pinCode: string;
  userTradeTokenKey: string;
}

const unlocked = new Map<string, UnlockedKey>();
const relayFetch = createRelayFetch(RELAY_HEADER);

/** A check of client mode's conditions failed; `key` is the notification to show (SPEC.md §8). */
export class PlatformExchangeError extends Error {
  constructor(readonly key: string) {
    super(key);
    this.name = 'PlatformExchangeError';
  }
}

/**
 * Opens a platform's envelope with the PIN and the user's key (throws when they do not open it) and keeps its
 * signing key for the trades to come. Answers the token's content for the panel.
 */
export function unlockTradeToken(
  platformUuid: string,
  envelope: string,
  pinCode: string,
  userTradeTokenKey: string,
): TradeTokenContent {
  const content = tradeTokenContent.parse(
    JSON.parse(openToken(envelope, pinCode, platformUuid, userTradeTokenKey)),
  );
  forgetExchangeKey(platformUuid);
  unlocked.set(platformUuid, {
    api_key: content.api_key,
    signer: signerFor(content.api_secret),
    envelope,
    pinCode,
    userTradeTokenKey,
  });
  return content;
}

/**
 * The API key of a platform's unlocked token (never the secret), for the server to follow the account while the
 * trader is away (issue 37); undefined while the token is locked.
 */
export function unlockedApiKey(platformUuid: string): string | undefined {
  return unlocked.get(platformUuid)?.api_key;
}

/** Drops a platform's signing key (its PIN or token went). */
export function forgetExchangeKey(platformUuid: string): void {
  unlocked.get(platformUuid)?.signer.free();
  unlocked.delete(platformUuid);
}

/** Drops every signing key (logout). */
export function forgetExchangeKeys(): void {
  for (const platformUuid of [...unlocked.keys()]) forgetExchangeKey(platformUuid);
}

/** The exchange client of a platform for a signing key: direct when it allows browsers, else the relay. */
function platformExchangeClient(platform: Platform, key: SigningKey): ExchangeClient {
  if (platform.platform_allows_browser) {
    return new ExchangeClient({ baseUrl: platform.platform_url, credentials: key });
  }
  const baseUrl = `${API_PREFIX}/exchange_relay/${platform.platform_uuid}`;
  return new ExchangeClient({ baseUrl, credentials: key, fetch: relayFetch });
}

/** The signing key for the platform's current PIN, envelope and user key: kept, or unlocked now. */
function signingKeyOf(platformUuid: string): SigningKey {
  const user = authStore.user;
  if (!user) throw new PlatformExchangeError('notification.current_user_not_found');
  const envelope = readTokenEnvelope(platformUuid);
  if (!envelope) throw new PlatformExchangeError('notification.trade_token_not_found');
  const pinCode = getPinCode(platformUuid);
  if (!pinCode) throw new PlatformExchangeError('trades.notify.pin_not_set');
  const kept = unlocked.get(platformUuid);
  const fresh =
    kept?.envelope === envelope &&
    kept.pinCode === pinCode &&
    kept.userTradeTokenKey === user.user_trade_token_key;
  if (!fresh) unlockTradeToken(platformUuid, envelope, pinCode, user.user_trade_token_key);
  return unlocked.get(platformUuid)!;
}

/**
 * Runs `action` with the client-mode exchange client of a platform: the current user, the PIN and the stored
 * token are required (PlatformExchangeError names the one missing); a wrong PIN throws trade-core's WrongPin.
 */
export async function withPlatformExchange<T>(
  platformUuid: string,
  action: (client: ExchangeClient) => Promise<T>,
): Promise<T> {
  const platform = platformsStore.platform_dict[platformUuid];
  if (!platform) throw new PlatformExchangeError('trades.notify.platform_not_found');
  return action(platformExchangeClient(platform, signingKeyOf(platformUuid)));
}
