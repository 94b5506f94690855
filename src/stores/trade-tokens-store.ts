// Trade tokens per platform and their level (SPEC.md §3, §4). trade_in_server_side picks the mode: client mode
// keeps a trade-core envelope in local storage under the platform_uuid; server mode goes through the API. The
// balance that follows a PIN or a token is the app's rule (app/platform-keys.ts).
import { proxy } from 'valtio';
import { TradeSide } from '../../contracts/preferences';
import { TradeTokenMessage } from '../../contracts/trade-tokens';
import { PIN_CODE_LENGTH } from '../config/constants';
import { ApiError } from '../lib/api-client';
import { authStore } from './auth-store';
import { tradeSide } from './preferences-store';
import { createPaperAccount } from './api/create-paper-account';
import { changeTradeTokenPin } from './api/change-trade-token-pin';
import { createTradeToken } from './api/create-trade-token';
import { getEgressIp } from './api/get-egress-ip';
import { getTradeToken } from './api/get-trade-token';
import { revokeTradeToken } from './api/revoke-trade-token';
import { deletePinCode, getPinCode, putPinCode } from './pin-code-store';
import {
  forgetExchangeKey,
  forgetExchangeKeys,
  unlockTradeToken,
  withPlatformExchange,
} from './platform-exchange';
import { ExchangeError, ExchangeFailure } from '../../shared-core/exchange-client';
import { clientTokenState, serverTokenState, TradeTokenLevel, type TradeTokenState } from './token-level';
import { readTokenEnvelope, removeTokenEnvelope, writeTokenEnvelope } from './token-storage';
import { rekeyTradeToken, sealNewTradeToken } from './token-vault';

interface TradeTokensState {
  token_by_platform_uuid: Record<string, TradeTokenState>;
  is_loading_by_platform_uuid: Record<string, boolean>;
  /** The address each platform's exchange sees our server's requests come from; null while unknown. */
  egress_ip_by_platform_uuid: Record<string, string | null>;
}

export const tradeTokensStore = proxy<TradeTokensState>({
  token_by_platform_uuid: {},
  is_loading_by_platform_uuid: {},
  egress_ip_by_platform_uuid: {},
});

export class TradeTokenError extends Error {
  constructor(
    readonly key: string,
    /** The exchange's own text, when the exchange refused the key (issue 36); the form translates it. */
    readonly exchangeText?: string,
  ) {
    super(key);
    this.name = 'TradeTokenError';
  }
}

/**
 * Why a new key's account read failed, for the form (issue 53): refused only when the exchange answered so; an
 * exchange not reached (time-out, no connection, an answer that is not one) proves nothing about the key.
 */
export function keyReadFailure(error: unknown): unknown {
  if (!(error instanceof ExchangeError)) return error;
  return new TradeTokenError(
    error.failure === ExchangeFailure.EXCHANGE ? 'trade_token.key_refused' : 'trade_token.key_unreached',
    error.text,
  );
}

/** The level of a platform's token; NO_TRADE_TOKEN until known. */
export function getTradeTokenLevel(platformUuid: string): TradeTokenLevel {
  return tradeTokensStore.token_by_platform_uuid[platformUuid]?.level ?? TradeTokenLevel.NO_TRADE_TOKEN;
}

function userKey(): string | undefined {
  return authStore.user?.user_trade_token_key;
}

function setState(platformUuid: string, state: TradeTokenState): void {
  tradeTokensStore.token_by_platform_uuid[platformUuid] = state;
}

/** Recomputes one platform's token state in the current mode (SPEC.md §4 "Trade token level"). */
export async function loadTradeToken(platformUuid: string): Promise<void> {
  const pinCode = getPinCode(platformUuid);
  if (tradeSide() === TradeSide.SERVER) {
    if (!pinCode) {
      // The server reads the token only with the PIN; without one the trader is asked for it first.
      setState(platformUuid, { level: TradeTokenLevel.NO_PIN_CODE });
      return;
    }
    tradeTokensStore.is_loading_by_platform_uuid[platformUuid] = true;
    try {
      setState(
        platformUuid,
        serverTokenState(await getTradeToken({ pin_code: pinCode, platform_uuid: platformUuid })),
      );
    } catch (error) {
      console.error(error);
      setState(platformUuid, serverTokenState(undefined));
    } finally {
      tradeTokensStore.is_loading_by_platform_uuid[platformUuid] = false;
    }
    return;
  }
  const key = userKey();
  const envelope = readTokenEnvelope(platformUuid);
  if (!key) {
    setState(
      platformUuid,
      envelope ? { level: TradeTokenLevel.NO_PIN_CODE } : { level: TradeTokenLevel.NO_TRADE_TOKEN },
    );
    return;
  }
  // The envelope is unlocked here, once, when the PIN is given: the signing key is kept for the trades
  // (platform-exchange.ts); a missing or wrong PIN keeps none.
  forgetExchangeKey(platformUuid);
  setState(
    platformUuid,
    clientTokenState(envelope, pinCode, (sealed, pin) => unlockTradeToken(platformUuid, sealed, pin, key)),
  );
}

export async function loadAllTradeTokens(platformUuids: readonly string[]): Promise<void> {
  await Promise.all(platformUuids.map((uuid) => loadTradeToken(uuid)));
}

/**
 * Saves the PIN of a platform (exactly PIN_CODE_LENGTH characters; an empty value clears it). In client mode a
 * token sealed under the previous PIN is re-encrypted under the new one, so changing the PIN keeps the token.
 */
export async function setPinCode(platformUuid: string, pinCode: string): Promise<void> {
  if (pinCode === '') {
    await removePinCode(platformUuid);
    return;
  }
  if (pinCode.length !== PIN_CODE_LENGTH) throw new TradeTokenError('pin.length_error');
  const previous = getPinCode(platformUuid);
  const key = userKey();
  const envelope = readTokenEnvelope(platformUuid);
  if (tradeSide() === TradeSide.CLIENT && envelope && previous && key && previous !== pinCode) {
    try {
      writeTokenEnvelope(
        platformUuid,
        rekeyTradeToken(envelope, previous, pinCode, { platformUuid, userTradeTokenKey: key }),
      );
    } catch {
      // The previous PIN did not open the token (WRONG_PIN_CODE): the new PIN may be the right one.
    }
  }
  // Server mode (issue 36): the server's copy is sealed under the new PIN with the old one. A 403 (the previous
  // PIN did not open it) leaves it as it is: the new PIN may be the right one, as in client mode.
  if (
    tradeSide() === TradeSide.SERVER &&
    previous &&
    previous !== pinCode &&
    getTradeTokenLevel(platformUuid) === TradeTokenLevel.TRADE_AVAILABLE
  ) {
    try {
      await changeTradeTokenPin({ platform_uuid: platformUuid, pin_code: previous, new_pin_code: pinCode });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 403)) throw error;
    }
  }
  putPinCode(platformUuid, pinCode);
  await loadTradeToken(platformUuid);
}

/** Forgets the PIN (SPEC.md §4 "PIN"). */
export async function removePinCode(platformUuid: string): Promise<void> {
  deletePinCode(platformUuid);
  forgetExchangeKey(platformUuid);
  await loadTradeToken(platformUuid);
}

/** Adds a token in the current mode (SPEC.md §4 "Create"); throws for the form on failure. */
export async function addTradeToken(platformUuid: string, apiKey: string, apiSecret: string): Promise<void> {
  const pinCode = getPinCode(platformUuid);
  if (!pinCode) throw new TradeTokenError('trade_token.set_pin_first');
  if (tradeSide() === TradeSide.SERVER) {
    await createTradeToken({
      api_key: apiKey,
      api_secret: apiSecret,
      platform_uuid: platformUuid,
      pin_code: pinCode,
    });
  } else {
    const key = userKey();
    if (!key) throw new TradeTokenError('notification.current_user_not_found');
    const previous = readTokenEnvelope(platformUuid);
    writeTokenEnvelope(
      platformUuid,
      sealNewTradeToken(apiKey, apiSecret, { pinCode, platformUuid, userTradeTokenKey: key }),
    );
    // Only success is success (issue 36): one account read with the new key, on the road this page trades on
    // (the relay, or the exchange itself where it allows browsers), before the key is kept. Refused, or the
    // exchange not reached, the earlier token (if any) is put back and the form says why.
    try {
      await withPlatformExchange(platformUuid, (client) => client.getAccount());
    } catch (error) {
      if (previous) writeTokenEnvelope(platformUuid, previous);
      else removeTokenEnvelope(platformUuid);
      forgetExchangeKey(platformUuid);
      throw keyReadFailure(error);
    }
  }
  await loadTradeToken(platformUuid);
}

/**
 * Revokes a token (SPEC.md §4 "Revoke"): client mode removes the local item; server mode posts the revoke call.
 * Both then forget the token and the PIN.
 */
export async function revokePlatformTradeToken(platformUuid: string): Promise<void> {
  if (tradeSide() === TradeSide.SERVER) {
    await revokeTradeToken({ platform_uuid: platformUuid });
  } else {
    removeTokenEnvelope(platformUuid);
    // The server forgets the API key it followed the account with (issue 37); the local token goes either way.
    await revokeTradeToken({ platform_uuid: platformUuid }).catch((error: unknown) => console.warn(error));
  }
  deletePinCode(platformUuid);
  forgetExchangeKey(platformUuid);
  setState(platformUuid, { level: TradeTokenLevel.NO_TRADE_TOKEN });
}

/**
 * The server answered a server-mode read of this platform that its token is gone (revoked in another tab or
 * device: 404) or that the PIN is wrong (403). The level says so, so nothing keeps reading with it (issue 39:
 * the balance poll stops) until the trader adds a token or enters the PIN again; a gone token's PIN goes too,
 * as a revoke here forgets it.
 */
export function serverRefusedToken(platformUuid: string, status: 403 | 404): void {
  if (status === 404) {
    deletePinCode(platformUuid);
    setState(platformUuid, { level: TradeTokenLevel.NO_TRADE_TOKEN });
  } else {
    setState(platformUuid, {
      level: TradeTokenLevel.WRONG_PIN_CODE,
      message: TradeTokenMessage.WRONG_PIN_CODE,
    });
  }
}

export function resetTradeTokensStore(): void {
  forgetExchangeKeys();
  tradeTokensStore.token_by_platform_uuid = {};
  tradeTokensStore.is_loading_by_platform_uuid = {};
  tradeTokensStore.egress_ip_by_platform_uuid = {};
}

/**
 * Reads once the address to allow on a platform's IP-restricted key (docs/relay.md "IP allow-list"); a failed
 * read leaves it unknown.
 */
export async function loadEgressIp(platformUuid: string): Promise<void> {
  if (platformUuid in tradeTokensStore.egress_ip_by_platform_uuid) return;
  tradeTokensStore.egress_ip_by_platform_uuid[platformUuid] = null;
  try {
    tradeTokensStore.egress_ip_by_platform_uuid[platformUuid] = await getEgressIp(platformUuid);
  } catch (error) {
    console.error(error);
  }
}

/** Provisions a funded paper-exchange account and returns its credentials for the token form. */
export async function createPaperAccountCredentials(): Promise<{ api_key: string; api_secret: string }> {
  return createPaperAccount();
}
