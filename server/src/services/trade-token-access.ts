// Opening a server-mode trade token for a request (SPEC.md §4): the platform and the token must exist, and
// wrong PINs are limited per user and platform, because with the envelope and the user key both on the
// server a 5-character PIN is all that stands between a stolen access token and the exchange key.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TradeTokenContent } from '../../../contracts';
import type { Database } from '../db';
import { HttpError } from '../http-error';
import { findPlatform, type PlatformRecord } from './platforms';
import { RateLimiter } from './rate-limiter';
import { WrongPinError, findTradeToken, openTradeToken, type TradeTokenRow } from './trade-tokens';
import type { SecretBox } from './secret-box';
import { sealUnattendedKey } from './unattended-keys';
import { findUser, userTradeTokenKey } from './users';

export const PIN_LIMIT = { maxFailures: 10, windowMs: 15 * 60 * 1000 };
export const TRADE_TOKEN_NOT_FOUND = 'Trade token not found';

/**
 * Opened server-mode tokens, so that a trade's open does not wait for a key derivation (Argon2id, tens of ms)
 * on every call: a token opened with the right PIN is kept in this process's memory (never stored) while it
 * is in use, keyed by its owner, platform and envelope (a new or revoked token has another envelope, a changed
 * PIN another digest). The PIN is kept as an HMAC under a per-process key, compared in constant time.
 */
const OPENED_IDLE_MS = 10 * 60 * 1000;
const openedTokens = new LRUCache<string, { pinDigest: Buffer; content: TradeTokenContent }>({
  max: 10_000,
  ttl: OPENED_IDLE_MS,
  updateAgeOnGet: true,
});
const pinDigestKey = randomBytes(32);
const pinDigest = (pinCode: string) => createHmac('sha256', pinDigestKey).update(pinCode).digest();
const openedKey = (row: TradeTokenRow) =>
  `${row.user_uuid}:${row.platform_uuid}:${createHash('sha256').update(row.envelope).digest('base64url')}`;

export interface OpenedToken {
  platform: PlatformRecord;
  row: TradeTokenRow;
  content: TradeTokenContent;
}

export class TradeTokenAccess {
  private readonly limiter: RateLimiter;

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    clock: () => number,
  ) {
    this.limiter = new RateLimiter(db, 'pin', PIN_LIMIT, clock);
  }

  async platformOr404(platformUuid: string): Promise<PlatformRecord> {
    const platform = await findPlatform(this.db, platformUuid);
    if (!platform) throw new HttpError(404, `platform_uuid: unknown platform ${platformUuid}`);
    return platform;
  }

  async userKey(userUuid: string): Promise<string> {
    const user = await findUser(this.db, userUuid);
    if (!user) throw new HttpError(401, 'User not found');
    return userTradeTokenKey(this.box, user);
  }

  /**
   * With the PIN given, the second seal the server acts with while the trader is away (issue 54), when the option
   * is on and none is kept yet: in the background, one UPDATE that matches nothing once it is kept.
   */
  private keepUnattended(userUuid: string, platformUuid: string, content: TradeTokenContent): void {
    sealUnattendedKey(this.db, this.box, { user_uuid: userUuid, platform_uuid: platformUuid, content }).catch(
      () => undefined, // tried again at the next call with the PIN
    );
  }

  /**
   * The decrypted token. 404 without a platform or token, 429 after too many wrong PINs; a wrong PIN
   * throws WrongPinError (carrying the row) for the caller to answer as its call requires.
   */
  async open(userUuid: string, platformUuid: string, pinCode: string): Promise<OpenedToken> {
    const platform = await this.platformOr404(platformUuid);
    const row = await findTradeToken(this.db, userUuid, platformUuid);
    if (!row) throw new HttpError(404, TRADE_TOKEN_NOT_FOUND);
    const cached = openedTokens.get(openedKey(row));
    if (cached && timingSafeEqual(cached.pinDigest, pinDigest(pinCode))) {
      this.keepUnattended(userUuid, platformUuid, cached.content);
      return { platform, row, content: cached.content };
    }
    const subject = `${userUuid}:${platformUuid}`;
    if (await this.limiter.isBlocked(subject)) {
      throw new HttpError(429, 'Too many wrong PIN codes for this trade token. Try again in 15 minutes');
    }
    try {
      const content = openTradeToken(this.box, row, pinCode, await this.userKey(userUuid));
      await this.limiter.reset(subject);
      openedTokens.set(openedKey(row), { pinDigest: pinDigest(pinCode), content });
      this.keepUnattended(userUuid, platformUuid, content);
      return { platform, row, content };
    } catch (error) {
      if (error instanceof WrongPinError) await this.limiter.recordFailure(subject);
      throw error;
    }
  }
}
