// Access tokens: JWTs (HS256, jose) with the 'bearer' token_type of SPEC.md §7. Nothing that signs or verifies
// them is stored: the key of each period is derived from the master key (services/secret-box.ts), so a
// database dump cannot mint one, and every instance sharing the master key derives the same keys. The key
// rotates every ACCESS_KEY_PERIOD_S; the token's `kid` names the period it was signed in. A token carries
// `sid`, the login (refresh token family) it belongs to, so it stops working when that login is revoked.
import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTHeaderParameters } from 'jose';
import { LRUCache } from 'lru-cache';
import type { SecretBox } from './secret-box';

/** Access token lifetime: short, because a refresh (SPEC.md §7) renews it silently. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
/** A signing key is used for one day; tokens of the previous period (and the next, for clock skew) verify. */
export const ACCESS_KEY_PERIOD_S = 24 * 60 * 60;
const KID_PREFIX = 'at1-';

/**
 * OpenAPI security requirement of every route that takes an access token (plugins/openapi.ts declares the
 * scheme; plugins/auth.ts checks the token).
 */
export const bearerSecurity = [{ bearerAuth: [] }];
const ALGORITHM = 'HS256';

/** Verified tokens kept (a few hundred bytes each). */
const VERIFIED_TOKENS = 20_000;

export interface AccessClaims {
  /** user_uuid */
  sub: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
  /** Unique id: two tokens issued in the same second differ. */
  jti: string;
  /** The login (refresh token family) it was issued for; absent for the server's own in-process callers. */
  sid?: string;
}

export class AccessTokens {
  private readonly keys = new Map<number, Uint8Array>();
  /** Tokens verified, by their text, until they expire (verify). */
  private readonly verified = new LRUCache<string, AccessClaims>({ max: VERIFIED_TOKENS });

  constructor(
    private readonly box: SecretBox,
    private readonly clock: () => number = Date.now,
  ) {}

  private periodOf(seconds: number): number {
    return Math.floor(seconds / ACCESS_KEY_PERIOD_S);
  }

  private keyOf(period: number): Uint8Array {
    let key = this.keys.get(period);
    if (!key) {
      key = new Uint8Array(this.box.deriveKey(`access-token/${period}`));
      // Three periods are ever in use (previous, current, next): older keys are dropped.
      for (const known of this.keys.keys()) if (known < period - 2) this.keys.delete(known);
      this.keys.set(period, key);
    }
    return key;
  }

  async issue(userUuid: string, sessionUuid?: string): Promise<string> {
    const iat = Math.floor(this.clock() / 1000);
    const period = this.periodOf(iat);
    return new SignJWT(sessionUuid ? { sid: sessionUuid } : {})
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: `${KID_PREFIX}${period}` })
      .setSubject(userUuid)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
      .setJti(randomBytes(9).toString('base64url'))
      .sign(this.keyOf(period));
  }

  /**
   * The claims of a valid, unexpired token; undefined for anything else. A token verified once is kept until
   * its expiry (its signature cannot change): a trader's requests in a loop cost one HMAC, not one each — the
   * HMAC was a tenth of the event loop under one account's request flood (issue 52, bench/api/shared-resources).
   * Revocation is the session check's (services/session-check.ts), asked on every request as before.
   */
  async verify(token: string): Promise<AccessClaims | undefined> {
    const known = this.verified.get(token);
    if (known && known.exp * 1000 > this.clock()) return known;
    const claims = await this.verifySigned(token);
    if (claims) this.verified.set(token, claims);
    return claims;
  }

  private async verifySigned(token: string): Promise<AccessClaims | undefined> {
    const now = this.clock();
    const current = this.periodOf(Math.floor(now / 1000));
    const keyFor = (header: JWTHeaderParameters) => {
      const kid = header.kid ?? '';
      const period = kid.startsWith(KID_PREFIX) ? Number(kid.slice(KID_PREFIX.length)) : NaN;
      if (!Number.isInteger(period) || Math.abs(period - current) > 1) throw new Error('unknown kid');
      return this.keyOf(period);
    };
    try {
      const { payload } = await jwtVerify(token, keyFor, {
        algorithms: [ALGORITHM],
        typ: 'JWT',
        currentDate: new Date(now),
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      });
      if (payload.sid !== undefined && typeof payload.sid !== 'string') return undefined;
      return payload as unknown as AccessClaims;
    } catch {
      return undefined;
    }
  }
}
