// The house account (DESIGN.md "Public statistics"; docs/server.md "House account"): a user that follows
// every signal with the default preferences on a funded paper-exchange account, so the public statistics are
// the signals' own track record.
// - The house user is an ordinary users row with a fixed uuid and nickname 'house' that cannot log in: its
//   password hash is not a scrypt hash, so verifyPassword never accepts any password for it.
// - Its paper account's API key and secret are an ordinary server-mode trade token (trade-tokens.ts: the
//   trade-core envelope under a PIN, the platform_uuid and the house's sealed user_trade_token_key). The PIN
//   is random, made once, and stored only sealed with the server's SecretBox (server_secrets); it is opened in
//   memory at start and never logged.
// - When the stored key no longer opens an account on the exchange (the paper exchange's data was reset), a new
//   funded account replaces it.
import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PIN_CODE_LENGTH } from '../../../contracts';
import { ExchangeError, ExchangeFailure } from '../../../shared-core/exchange-client';
import { bindRelayKey, relayKeyDigest } from './exchange-relay';
import { serverExchangeClient } from './exchange-transport';
import type { Database } from '../db';
import { serverSecrets, users } from '../db/schema';
import { findPlatform, type PlatformRecord } from './platforms';
import type { SecretBox } from './secret-box';
import { WrongPinError, createTradeToken, findTradeToken, openTradeToken } from './trade-tokens';
import { userTradeTokenKey, type UserRecord } from './users';

export const HOUSE_USER_UUID = '0b5e0000-4000-4000-8000-00000000b05e';
export const HOUSE_NICKNAME = 'house';
/** `.invalid` is reserved (RFC 2606): no one receives mail there, and sign-up finds the address taken. */
export const HOUSE_EMAIL = 'house@signaldesk.invalid';
/** Not a scrypt$… hash: no password verifies against it. */
const NO_LOGIN_HASH = '!house-account-no-login';
/** USDT on a new house paper account: 10 USDT margin per trade, at most one trade per symbol. */
const HOUSE_BALANCE = '100000';
/** -2015: Invalid API-key, IP, or Permissions (SPEC.md §8): the exchange does not know the key. */
const INVALID_API_KEY = -2015;
const PIN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** What the house follower needs to act: who, where, and the PIN (memory only). */
export interface HouseAccount {
  user_uuid: string;
  platform: PlatformRecord;
  pin_code: string;
}

/** Creates the house user unless it exists; answers it. */
export async function ensureHouseUser(db: Database, box: SecretBox): Promise<UserRecord> {
  await db
    .insert(users)
    .values({
      user_uuid: HOUSE_USER_UUID,
      user_email: HOUSE_EMAIL,
      user_nickname: HOUSE_NICKNAME,
      password_hash: NO_LOGIN_HASH,
      user_trade_token_key: box.seal(randomBytes(32).toString('hex')),
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(users).where(eq(users.user_uuid, HOUSE_USER_UUID));
  if (!row) throw new Error('the house user could not be stored');
  return row;
}

const pinSecretName = (platformUuid: string) => `house_pin:${platformUuid}`;

/** The house's PIN for a platform: made once (random), stored sealed, answered opened. */
async function housePin(db: Database, box: SecretBox, platformUuid: string): Promise<string> {
  const name = pinSecretName(platformUuid);
  const fresh = Array.from({ length: PIN_CODE_LENGTH }, () => PIN_ALPHABET[randomInt(PIN_ALPHABET.length)]);
  await db
    .insert(serverSecrets)
    .values({ name, value: box.seal(fresh.join('')) })
    .onConflictDoNothing();
  // Read back: another instance may have stored its PIN first.
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error('the house PIN could not be stored');
  return box.open(row.value);
}

export interface EnsureHouseAccountOptions {
  db: Database;
  box: SecretBox;
  /** The paper platform (enabled, on the running paper exchange). */
  platformUuid: string;
  /** Makes a funded account on the paper exchange (its in-process admin, or its loopback admin API). */
  createAccount: (
    balance: string,
  ) => { apiKey: string; apiSecret: string } | Promise<{ apiKey: string; apiSecret: string }>;
  clock?: () => number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * The house user and its funded paper account, ready to trade. A stored token is kept when it opens and the
 * exchange knows its key (or cannot be asked now); otherwise a new account is made and stored.
 */
export async function ensureHouseAccount(options: EnsureHouseAccountOptions): Promise<HouseAccount> {
  const { db, box, platformUuid, log } = options;
  const clock = options.clock ?? Date.now;
  const user = await ensureHouseUser(db, box);
  const platform = await findPlatform(db, platformUuid);
  if (!platform) throw new Error('the house platform is not enabled');
  const pin = await housePin(db, box, platformUuid);
  const userKey = userTradeTokenKey(box, user);

  const stored = await findTradeToken(db, user.user_uuid, platformUuid);
  const usableKey = stored && (await usableApiKey(box, stored, pin, userKey, platform.base_url, log));
  if (usableKey) {
    // The house's key is the house's: the relay refuses it to every trader (docs/relay.md).
    await bindRelayKey(db, relayKeyDigest(box, platformUuid, usableKey), user.user_uuid);
    log.info({ platform_uuid: platformUuid }, 'house: paper account ready');
    return { user_uuid: user.user_uuid, platform, pin_code: pin };
  }
  const account = await options.createAccount(HOUSE_BALANCE);
  await createTradeToken(
    db,
    box,
    { user_uuid: user.user_uuid, user_trade_token_key: userKey },
    { platform_uuid: platformUuid, pin_code: pin, api_key: account.apiKey, api_secret: account.apiSecret },
    clock(),
  );
  await bindRelayKey(db, relayKeyDigest(box, platformUuid, account.apiKey), user.user_uuid);
  log.info({ platform_uuid: platformUuid, balance: HOUSE_BALANCE }, 'house: new paper account funded');
  return { user_uuid: user.user_uuid, platform, pin_code: pin };
}

async function usableApiKey(
  box: SecretBox,
  row: NonNullable<Awaited<ReturnType<typeof findTradeToken>>>,
  pin: string,
  userKey: string,
  baseUrl: string,
  log: EnsureHouseAccountOptions['log'],
): Promise<string | undefined> {
  let credentials;
  try {
    credentials = openTradeToken(box, row, pin, userKey);
  } catch (error) {
    if (error instanceof WrongPinError) return undefined;
    throw error;
  }
  try {
    await serverExchangeClient(baseUrl, credentials).getAccount();
    return credentials.api_key;
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    const unknownKey = error.failure === ExchangeFailure.EXCHANGE && error.code === INVALID_API_KEY;
    if (!unknownKey) log.warn({ message: error.message }, 'house: the paper account could not be checked');
    return unknownKey ? undefined : credentials.api_key;
  }
}
