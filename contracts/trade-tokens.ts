// Trade tokens (SPEC.md §3, §4 "Trade token level", §7 /trade_token/*): exchange API credentials kept as a
// trade-core envelope under the PIN, the platform_uuid and the user's user_trade_token_key.
import { z } from 'zod';
import { resultOf } from './common';

/** SPEC.md §4. The platform `level` uses the same scale: TRADE_AVAILABLE marks platforms that can trade. */
export const TradeTokenLevel = {
  NO_TRADE_TOKEN: 0,
  NO_PIN_CODE: 1,
  WRONG_PIN_CODE: 2,
  TRADE_AVAILABLE: 3,
} as const;
export type TradeTokenLevel = (typeof TradeTokenLevel)[keyof typeof TradeTokenLevel];

export const tradeTokenLevel = z.union([
  z.literal(TradeTokenLevel.NO_TRADE_TOKEN),
  z.literal(TradeTokenLevel.NO_PIN_CODE),
  z.literal(TradeTokenLevel.WRONG_PIN_CODE),
  z.literal(TradeTokenLevel.TRADE_AVAILABLE),
]);

/** Messages of SPEC.md §4 and the one the create flow writes into the token (SPEC.md §4 "Create"). */
export const TradeTokenMessage = {
  NO_PIN_CODE: 'Please send PIN-Code for receive data about Trade Token',
  WRONG_PIN_CODE: 'Wrong PIN Code for reading Trade Token data',
  CREATED: 'created new token',
} as const;

/** PIN length of SPEC.md §5, §9. */
export const PIN_CODE_LENGTH = 5;
export const pinCode = z
  .string()
  .length(PIN_CODE_LENGTH, `PIN code must be exactly ${PIN_CODE_LENGTH} characters`)
  .meta({ description: 'The 5-character PIN that unlocks the trade token; never stored.' });

/** Credentials have no form rules (SPEC.md §5); the bound only keeps a request small. */
const CREDENTIAL_MAX_LENGTH = 4096;
const credential = z.string().min(1).max(CREDENTIAL_MAX_LENGTH);
export const API_KEY_CHARACTERS = 'Must be printable ASCII without spaces';
/**
 * An API key travels as the X-MBX-APIKEY header of every exchange request, so it must be a header value (issue
 * 52): printable ASCII without spaces, at most 256 characters (Binance's are 64). A key with a line break or
 * Cyrillic letters could never be sent; it is refused as the field it is, not answered "could not be reached".
 * The secret only signs (HMAC or an Ed25519 PEM key), so it keeps the free form.
 */
export const apiKey = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, API_KEY_CHARACTERS);

/** The record (SPEC.md §3): never the credentials. Times are ISO-8601 strings; updated_at = last use. */
export const tradeTokenRecord = z
  .object({
    trade_token_uuid: z.uuid(),
    platform_uuid: z.uuid(),
    created_at: z.string(),
    updated_at: z.string().nullable(),
    message: z.string().nullable(),
    level: tradeTokenLevel,
  })
  .meta({ id: 'TradeTokenRecord' });
export type TradeTokenRecord = z.infer<typeof tradeTokenRecord>;

/**
 * What the envelope holds once decrypted (SPEC.md §3 "Decrypted local content"). Client mode (browser
 * storage) and server mode (database) seal the same JSON, so one code path reads both.
 */
export const tradeTokenContent = z.object({
  trade_token_uuid: z.uuid(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  message: z.string().nullable(),
  api_key: z.string(),
  api_secret: z.string(),
});
export type TradeTokenContent = z.infer<typeof tradeTokenContent>;

export const getTradeTokenBody = z
  .object({ pin_code: pinCode, platform_uuid: z.uuid() })
  .meta({ id: 'GetTradeTokenBody' });
export type GetTradeTokenBody = z.infer<typeof getTradeTokenBody>;

export const createTradeTokenBody = z
  .object({ api_key: apiKey, api_secret: credential, platform_uuid: z.uuid(), pin_code: pinCode })
  .meta({ id: 'CreateTradeTokenBody' });
export type CreateTradeTokenBody = z.infer<typeof createTradeTokenBody>;

export const revokeTradeTokenBody = z
  .object({ platform_uuid: z.uuid() })
  .meta({ id: 'RevokeTradeTokenBody' });
export type RevokeTradeTokenBody = z.infer<typeof revokeTradeTokenBody>;

/** Not in SPEC.md §7: re-encrypts the server-mode token under a new PIN (the client mode does it locally). */
export const changeTradeTokenPinBody = z
  .object({ platform_uuid: z.uuid(), pin_code: pinCode, new_pin_code: pinCode })
  .meta({ id: 'ChangeTradeTokenPinBody' });
export type ChangeTradeTokenPinBody = z.infer<typeof changeTradeTokenPinBody>;

export const tradeTokenAnswer = resultOf(tradeTokenRecord);
/** revoked is false when the platform had no token (the call is idempotent). */
/**
 * POST /trade_token/follow_account/ (issue 37, not in SPEC.md §7): a client-mode page hands over the API key of
 * its token — never the secret — so the server can follow the account on the exchange's user data stream while
 * no page is open. Taken only for a key the exchange accepted from this trader through our relay (bound to
 * them), and only while trade_follow_when_away is on.
 */
export const followAccountBody = z
  .object({ platform_uuid: z.uuid(), api_key: apiKey })
  .meta({ id: 'FollowAccountBody' });
export type FollowAccountBody = z.infer<typeof followAccountBody>;
export const followAccountAnswer = resultOf(z.object({ platform_uuid: z.uuid(), followed: z.literal(true) }));

export const revokeTradeTokenAnswer = resultOf(z.object({ platform_uuid: z.uuid(), revoked: z.boolean() }));
