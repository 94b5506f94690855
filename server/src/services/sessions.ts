// Refresh tokens and websocket tokens (SPEC.md §7 /auth/refresh/, /auth/create_websocket_token/).
// Refresh tokens rotate on every use; presenting a rotated token again revokes its whole family (one login),
// except within a short grace period, so that two tabs or parallel requests refreshing at once do not log
// the trader out.
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db';
import { refreshTokens, websocketTokens } from '../db/schema';
import { hashOpaqueToken, newOpaqueToken } from './opaque-token';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A rotated token still refreshes for this long (concurrent refreshes of one browser). */
export const REFRESH_REUSE_GRACE_MS = 10_000;
export const WEBSOCKET_TOKEN_TTL_MS = 60_000;

/**
 * The successor of a refresh token: derived from it under a server-only key (issue 38 item 4), so that every
 * presentation of one token inside the grace window gets the same successor — two tabs refreshing at once stay
 * one chain — and nobody without the key can compute it.
 */
export type SuccessorOf = (token: string) => string;

export class SessionStore {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number = Date.now,
    private readonly successorOf: SuccessorOf = () => newOpaqueToken(),
  ) {}

  private now(): Date {
    return new Date(this.clock());
  }

  /** A refresh token for a new login, or the next one of an existing family (`token`: the successor's text). */
  async issueRefreshToken(
    userUuid: string,
    familyUuid: string = randomUUID(),
    token: string = newOpaqueToken(),
  ): Promise<string> {
    const now = this.clock();
    await this.db
      .insert(refreshTokens)
      .values({
        token_hash: hashOpaqueToken(token),
        user_uuid: userUuid,
        family_uuid: familyUuid,
        created_at: new Date(now),
        expires_at: new Date(now + REFRESH_TOKEN_TTL_MS),
      })
      // The successor of a token presented again inside the grace window exists already: it is the same one.
      .onConflictDoNothing();
    await this.db
      .delete(refreshTokens)
      .where(and(eq(refreshTokens.user_uuid, userUuid), lt(refreshTokens.expires_at, new Date(now))));
    return token;
  }

  /** Exchanges a refresh token for a new one; undefined when it is unknown, expired, revoked or reused. */
  async rotateRefreshToken(
    token: string,
  ): Promise<{ userUuid: string; token: string; familyUuid: string } | undefined> {
    const now = this.now();
    const tokenHash = hashOpaqueToken(token);
    const [claimed] = await this.db
      .update(refreshTokens)
      .set({ rotated_at: now })
      .where(
        and(
          eq(refreshTokens.token_hash, tokenHash),
          isNull(refreshTokens.rotated_at),
          isNull(refreshTokens.revoked_at),
          gt(refreshTokens.expires_at, now),
        ),
      )
      .returning();
    if (claimed) {
      return {
        userUuid: claimed.user_uuid,
        token: await this.issueRefreshToken(claimed.user_uuid, claimed.family_uuid, this.successorOf(token)),
        familyUuid: claimed.family_uuid,
      };
    }
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.token_hash, tokenHash));
    if (!row || row.revoked_at || row.expires_at <= now || !row.rotated_at) return undefined;
    if (now.getTime() - row.rotated_at.getTime() <= REFRESH_REUSE_GRACE_MS) {
      // The same successor as the first presentation got, never a second chain (issue 38 item 4).
      return {
        userUuid: row.user_uuid,
        token: await this.issueRefreshToken(row.user_uuid, row.family_uuid, this.successorOf(token)),
        familyUuid: row.family_uuid,
      };
    }
    await this.revokeFamily(row.family_uuid);
    return undefined;
  }

  /** Logout: revokes the login the token belongs to; answers that login (undefined for an unknown token). */
  async revokeRefreshToken(token: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ family_uuid: refreshTokens.family_uuid })
      .from(refreshTokens)
      .where(eq(refreshTokens.token_hash, hashOpaqueToken(token)));
    if (row) await this.revokeFamily(row.family_uuid);
    return row?.family_uuid;
  }

  /**
   * Whether a login (refresh token family; an access token's `sid`) is still active: some token of it is not
   * revoked. Logout and a detected reuse revoke every token of the family; an unknown family is not active.
   */
  async isLoginActive(familyUuid: string): Promise<boolean> {
    const [row] = await this.db
      .select({ token_hash: refreshTokens.token_hash })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.family_uuid, familyUuid), isNull(refreshTokens.revoked_at)))
      .limit(1);
    return row !== undefined;
  }

  async revokeFamily(familyUuid: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revoked_at: this.now() })
      .where(and(eq(refreshTokens.family_uuid, familyUuid), isNull(refreshTokens.revoked_at)));
  }

  /** A single-use websocket token of a user's login (`familyUuid`, the access token's sid). */
  async issueWebsocketToken(userUuid: string, familyUuid?: string): Promise<string> {
    const token = newOpaqueToken();
    const now = this.clock();
    await this.db.delete(websocketTokens).where(lt(websocketTokens.expires_at, new Date(now)));
    await this.db.insert(websocketTokens).values({
      token_hash: hashOpaqueToken(token),
      user_uuid: userUuid,
      expires_at: new Date(now + WEBSOCKET_TOKEN_TTL_MS),
      family_uuid: familyUuid ?? null,
    });
    return token;
  }

  /** Logout: the login's websocket tokens not spent yet open nothing any more (issue 38 item 4). */
  async revokeWebsocketTokens(familyUuid: string): Promise<void> {
    await this.db
      .delete(websocketTokens)
      .where(and(eq(websocketTokens.family_uuid, familyUuid), isNull(websocketTokens.used_at)));
  }

  /** The user (and login) of a valid, unused websocket token, marking it used in the same statement. */
  async consumeWebsocketToken(
    token: string,
  ): Promise<{ userUuid: string; familyUuid: string | undefined } | undefined> {
    const now = this.now();
    const [row] = await this.db
      .update(websocketTokens)
      .set({ used_at: now })
      .where(
        and(
          eq(websocketTokens.token_hash, hashOpaqueToken(token)),
          isNull(websocketTokens.used_at),
          gt(websocketTokens.expires_at, now),
        ),
      )
      .returning({ user_uuid: websocketTokens.user_uuid, family_uuid: websocketTokens.family_uuid });
    return row && { userUuid: row.user_uuid, familyUuid: row.family_uuid ?? undefined };
  }
}
