// Accounts the server follows while the trader is away (issue 37; docs/server.md "The account followed"): a
// listen key needs only the API key, never a signature (binance-fapi.md §9, USER_STREAM), so the server keeps
// the API key of a trader's token — never the secret — sealed under a key derived from the master key and bound
// to the user and platform (services/secret-box.ts), apart from the PIN-sealed envelope. Any instance can then
// open the account's user data stream (services/account-streams.ts) with no PIN, and read what the exchange
// did; it can place no order and cancel none.
//
// Only a key bound to its trader is stored: bound in relay_api_keys on the exchange's 2xx to a request signed
// with it (the relay, a server-mode token's check). A pasted copy of someone else's API key is bound to them or
// to nobody, so it never opens their stream.
import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { followedAccounts, relayApiKeys, tradeTokens } from '../db/schema';
import { relayKeyDigest } from './exchange-relay';
import type { SecretBox } from './secret-box';

/** HKDF purpose of the layer the followed API keys are sealed under (SecretBox.derive). */
const FOLLOWED_KEY_LAYER = 'followed-api-key';
const layers = new WeakMap<SecretBox, SecretBox>();

function layerOf(box: SecretBox): SecretBox {
  let layer = layers.get(box);
  if (!layer) {
    layer = box.derive(FOLLOWED_KEY_LAYER);
    layers.set(box, layer);
  }
  return layer;
}

const boundTo = (userUuid: string, platformUuid: string) => `followed_accounts:${userUuid}:${platformUuid}`;

export type FollowedAccountRow = typeof followedAccounts.$inferSelect;

export type FollowResult = 'followed' | 'not_bound';

/**
 * Stores (or replaces) the API key the server follows the trader's account on the platform with, when the key
 * is bound to this trader; 'not_bound' (nothing stored) otherwise.
 */
export async function followAccount(
  db: Database,
  box: SecretBox,
  input: { user_uuid: string; platform_uuid: string; api_key: string },
): Promise<FollowResult> {
  const digest = relayKeyDigest(box, input.platform_uuid, input.api_key);
  const [binding] = await db
    .select({ user_uuid: relayApiKeys.user_uuid })
    .from(relayApiKeys)
    .where(eq(relayApiKeys.key_digest, digest));
  if (binding?.user_uuid !== input.user_uuid) return 'not_bound';
  const sealed = layerOf(box).seal(input.api_key, boundTo(input.user_uuid, input.platform_uuid));
  await db
    .insert(followedAccounts)
    .values({
      user_uuid: input.user_uuid,
      platform_uuid: input.platform_uuid,
      api_key_sealed: sealed,
      key_digest: digest,
    })
    .onConflictDoUpdate({
      target: [followedAccounts.user_uuid, followedAccounts.platform_uuid],
      // A key followed anew drops the second seal of the last one (issue 54): the next PIN makes it again.
      set: { api_key_sealed: sealed, key_digest: digest, unattended_sealed: null },
    });
  return 'followed';
}

export async function findFollowedAccount(
  db: Database,
  userUuid: string,
  platformUuid: string,
): Promise<FollowedAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(followedAccounts)
    .where(and(eq(followedAccounts.user_uuid, userUuid), eq(followedAccounts.platform_uuid, platformUuid)));
  return row;
}

/** Forgets the followed key (the token was revoked): its stream stops at the next look. */
export async function unfollowAccount(db: Database, userUuid: string, platformUuid: string): Promise<void> {
  await db
    .delete(followedAccounts)
    .where(and(eq(followedAccounts.user_uuid, userUuid), eq(followedAccounts.platform_uuid, platformUuid)));
}

/** The keys of the trader's accounts with no server-mode token (handed over by the page for client mode). */
export async function forgetClientModeKeys(db: Database, userUuid: string): Promise<void> {
  await db.delete(followedAccounts).where(
    and(
      eq(followedAccounts.user_uuid, userUuid),
      notExists(
        db
          .select({ one: sql`1` })
          .from(tradeTokens)
          .where(
            and(
              eq(tradeTokens.user_uuid, followedAccounts.user_uuid),
              eq(tradeTokens.platform_uuid, followedAccounts.platform_uuid),
            ),
          ),
      ),
    ),
  );
}

/** The API key of a stored row; throws when the seal does not open (altered, moved to another row, other key). */
export function followedApiKey(box: SecretBox, row: FollowedAccountRow): string {
  return layerOf(box).open(row.api_key_sealed, boundTo(row.user_uuid, row.platform_uuid));
}
