// Access tokens: compact JWS (JWT) with HS256 under a server secret (SPEC.md §7 'bearer' token_type).
// Only our own HS256 header is accepted; anything else, a bad signature or an expired token is rejected.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Access token lifetime: short, because a refresh (SPEC.md §7) renews it silently. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export interface AccessClaims {
  /** user_uuid */
  sub: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
  /** Unique id: two tokens issued in the same second differ. */
  jti: string;
}

function sign(payload: string, key: Buffer): string {
  return createHmac('sha256', key).update(`${HEADER}.${payload}`).digest('base64url');
}

export function issueAccessToken(userUuid: string, key: Buffer, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const claims: AccessClaims = {
    sub: userUuid,
    iat,
    exp: iat + ACCESS_TOKEN_TTL_S,
    jti: randomBytes(9).toString('base64url'),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${HEADER}.${payload}.${sign(payload, key)}`;
}

/** The claims of a valid, unexpired token; undefined for anything else. */
export function verifyAccessToken(token: string, key: Buffer, nowMs: number): AccessClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
  const [, payload = '', signature = ''] = parts;
  const expected = Buffer.from(sign(payload, key));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: Partial<AccessClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<AccessClaims>;
  } catch {
    return undefined;
  }
  if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
  if (claims.exp * 1000 <= nowMs) return undefined;
  return claims as AccessClaims;
}
