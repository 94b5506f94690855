// Server-mode trade tokens (SPEC.md §3, §4; DESIGN.md "Server mode"): the credentials are kept only as a
// trade-core envelope under the PIN, the platform_uuid and the user's user_trade_token_key, with the same
// JSON inside as the SPA's client-mode token. The database holds the envelope and non-secret fields only.
// The envelope is stored sealed once more (AES-256-GCM, services/secret-box.ts) under a key derived from the
// master key that no client ever receives, bound to the row's user and platform: the user key reaches the
// trader's browser (GET /auth/me/), so with it and a database dump the 5-character PIN alone would guard the
// envelope against an offline search. Under the extra layer a dump holds nothing a PIN search can open.
import { randomUUID } from 'node:crypto';
import { and, eq, not, sql } from 'drizzle-orm';
import {
  TradeTokenLevel,
  TradeTokenMessage,
  tradeTokenContent,
  type TradeTokenContent,
  type TradeTokenRecord,
} from '../../../contracts';
import type { Database } from '../db';
import { tradeTokens } from '../db/schema';
import { openToken, rekeyToken, sealToken } from '../../../shared-core/trade-core-node';
import type { SecretBox } from './secret-box';

export type TradeTokenRow = typeof tradeTokens.$inferSelect;

/** The PIN (or, equally indistinguishable, the user key or platform) does not open the envelope. */
export class WrongPinError extends Error {
  constructor(readonly row: TradeTokenRow) {
    super(TradeTokenMessage.WRONG_PIN_CODE);
  }
}

export function toRecord(
  row: TradeTokenRow,
  level: TradeTokenLevel,
  message = row.message,
): TradeTokenRecord {
  return {
    trade_token_uuid: row.trade_token_uuid,
    platform_uuid: row.platform_uuid,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
    message,
    level,
  };
}

interface Owner {
  user_uuid: string;
  user_trade_token_key: string;
}

/** HKDF purpose of the server-mode envelope layer's key (SecretBox.derive). */
const ENVELOPE_LAYER = 'server-mode-envelope';
const layers = new WeakMap<SecretBox, SecretBox>();

function layerOf(box: SecretBox): SecretBox {
  let layer = layers.get(box);
  if (!layer) {
    layer = box.derive(ENVELOPE_LAYER);
    layers.set(box, layer);
  }
  return layer;
}

const boundTo = (userUuid: string, platformUuid: string) => `trade_tokens:${userUuid}:${platformUuid}`;

/** The stored form of a trade-core envelope: sealed under the server-only layer, bound to user and platform. */
function sealEnvelope(box: SecretBox, envelope: string, userUuid: string, platformUuid: string): string {
  return layerOf(box).seal(envelope, boundTo(userUuid, platformUuid));
}

/** The trade-core envelope of a stored row; throws when the layer does not open (altered, moved, other key). */
function envelopeOf(box: SecretBox, row: TradeTokenRow): string {
  return layerOf(box).open(row.envelope, boundTo(row.user_uuid, row.platform_uuid));
}

/** Seals and stores the credentials; a platform's earlier token is replaced (as in client mode). */
export async function createTradeToken(
  db: Database,
  box: SecretBox,
  owner: Owner,
  input: { platform_uuid: string; pin_code: string; api_key: string; api_secret: string },
  nowMs: number,
): Promise<TradeTokenRow> {
  const content: TradeTokenContent = {
    trade_token_uuid: randomUUID(),
    created_at: new Date(nowMs).toISOString(),
    message: TradeTokenMessage.CREATED,
    api_key: input.api_key,
    api_secret: input.api_secret,
  };
  const envelope = sealToken(
    JSON.stringify(content),
    input.pin_code,
    input.platform_uuid,
    owner.user_trade_token_key,
  );
  const values = {
    trade_token_uuid: content.trade_token_uuid,
    envelope: sealEnvelope(box, envelope, owner.user_uuid, input.platform_uuid),
    message: content.message,
    level: TradeTokenLevel.TRADE_AVAILABLE,
    created_at: new Date(nowMs),
    updated_at: null,
  };
  const [row] = await db
    .insert(tradeTokens)
    .values({ ...values, user_uuid: owner.user_uuid, platform_uuid: input.platform_uuid })
    .onConflictDoUpdate({ target: [tradeTokens.user_uuid, tradeTokens.platform_uuid], set: values })
    .returning();
  return row!;
}

export async function findTradeToken(db: Database, userUuid: string, platformUuid: string) {
  const [row] = await db
    .select()
    .from(tradeTokens)
    .where(and(eq(tradeTokens.user_uuid, userUuid), eq(tradeTokens.platform_uuid, platformUuid)));
  return row;
}

/** Decrypts the envelope; WrongPinError when it does not open. */
export function openTradeToken(
  box: SecretBox,
  row: TradeTokenRow,
  pinCode: string,
  userTradeTokenKey: string,
): TradeTokenContent {
  const envelope = envelopeOf(box, row);
  let plaintext: string;
  try {
    plaintext = openToken(envelope, pinCode, row.platform_uuid, userTradeTokenKey);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'WrongPin') throw new WrongPinError(row);
    throw error;
  }
  return tradeTokenContent.parse(JSON.parse(plaintext));
}

/** Re-encrypts a token that opened with `pinCode` under `newPinCode` (fresh salt and nonce). */
export async function changeTradeTokenPin(
  db: Database,
  box: SecretBox,
  row: TradeTokenRow,
  pinCode: string,
  newPinCode: string,
  userTradeTokenKey: string,
): Promise<TradeTokenRow> {
  const envelope = rekeyToken(
    envelopeOf(box, row),
    pinCode,
    newPinCode,
    row.platform_uuid,
    userTradeTokenKey,
  );
  const [updated] = await db
    .update(tradeTokens)
    .set({ envelope: sealEnvelope(box, envelope, row.user_uuid, row.platform_uuid) })
    .where(eq(tradeTokens.trade_token_uuid, row.trade_token_uuid))
    .returning();
  return updated ?? row;
}

/** Records a use of the token for an exchange call (updated_at, shown as 'Last used'). */
export async function touchTradeToken(db: Database, tradeTokenUuid: string): Promise<void> {
  await db
    .update(tradeTokens)
    .set({ updated_at: sql`now()` })
    .where(eq(tradeTokens.trade_token_uuid, tradeTokenUuid));
}

export async function revokeTradeToken(
  db: Database,
  userUuid: string,
  platformUuid: string,
): Promise<boolean> {
  const deleted = await db
    .delete(tradeTokens)
    .where(and(eq(tradeTokens.user_uuid, userUuid), eq(tradeTokens.platform_uuid, platformUuid)))
    .returning({ trade_token_uuid: tradeTokens.trade_token_uuid });
  return deleted.length > 0;
}

/**
 * Puts the server-only layer on envelopes stored without it (before issue 17), at every start: no PIN is
 * needed, so no trader enters a key again. A row is only replaced while it still holds the text read, so two
 * instances starting together cannot seal one twice. Answers how many were sealed.
 */
export async function resealServerEnvelopes(
  db: Database,
  box: SecretBox,
  log?: { info(obj: object, msg: string): void },
): Promise<number> {
  const bare = await db
    .select()
    .from(tradeTokens)
    .where(not(sql`${tradeTokens.envelope} like 'sb1.%'`));
  let sealed = 0;
  for (const row of bare) {
    const updated = await db
      .update(tradeTokens)
      .set({ envelope: sealEnvelope(box, row.envelope, row.user_uuid, row.platform_uuid) })
      .where(
        and(eq(tradeTokens.trade_token_uuid, row.trade_token_uuid), eq(tradeTokens.envelope, row.envelope)),
      )
      .returning({ trade_token_uuid: tradeTokens.trade_token_uuid });
    sealed += updated.length;
  }
  if (sealed > 0)
    log?.info({ count: sealed }, 'trade tokens: server-mode envelopes sealed under the master key');
  return sealed;
}
