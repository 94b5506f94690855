// Server-mode trade tokens (SPEC.md §3, §4; DESIGN.md "Server mode"): the credentials are kept only as a
// trade-core envelope under the PIN, the platform_uuid and the user's user_trade_token_key, with the same
// JSON inside as the SPA's client-mode token. The database holds the envelope and non-secret fields only.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
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

/** Seals and stores the credentials; a platform's earlier token is replaced (as in client mode). */
export async function createTradeToken(
  db: Database,
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
    envelope,
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
  row: TradeTokenRow,
  pinCode: string,
  userTradeTokenKey: string,
): TradeTokenContent {
  let plaintext: string;
  try {
    plaintext = openToken(row.envelope, pinCode, row.platform_uuid, userTradeTokenKey);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'WrongPin') throw new WrongPinError(row);
    throw error;
  }
  return tradeTokenContent.parse(JSON.parse(plaintext));
}

/** Re-encrypts a token that opened with `pinCode` under `newPinCode` (fresh salt and nonce). */
export async function changeTradeTokenPin(
  db: Database,
  row: TradeTokenRow,
  pinCode: string,
  newPinCode: string,
  userTradeTokenKey: string,
): Promise<TradeTokenRow> {
  const envelope = rekeyToken(row.envelope, pinCode, newPinCode, row.platform_uuid, userTradeTokenKey);
  const [updated] = await db
    .update(tradeTokens)
    .set({ envelope })
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
