// Signals and neurons in the database (db/schema-signals.ts). The engine's one signal on a symbol is stored
// once per platform that follows the feed's exchange; its uuid is derived from (platform, neuron, symbol,
// created_at), so storing the same signal twice is a no-op.
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, isNull, lt, lte, max } from 'drizzle-orm';
import { TradeTokenLevel, type SignalRecord, type TrendMoment } from '../../../contracts';
import type { Database } from '../db';
import { platforms, symbols, tradePreferences } from '../db/schema';
import { neurons, signals } from '../db/schema-signals';
import type { Neuron } from './neurons';
import {
  ACCURACY_WINDOW,
  type EngineResolution,
  type EngineSignal,
  type EngineStep,
  type TrackRecord,
} from './signal-engine';

export type SignalRow = typeof signals.$inferSelect;
export type PlatformRow = typeof platforms.$inferSelect;
export type SymbolRow = typeof symbols.$inferSelect;

/** A name-based uuid (RFC 4122 version 5 layout over SHA-1), stable for the same name. */
export function nameUuid(name: string): string {
  const bytes = createHash('sha1').update(`signaldesk-signal:${name}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function signalUuidOf(
  platformUuid: string,
  signal: { neuronUuid: string; symbol: string; createdAt: number },
) {
  return nameUuid(`${platformUuid}|${signal.neuronUuid}|${signal.symbol}|${signal.createdAt}`);
}

export async function seedNeurons(db: Database, list: readonly Neuron[]): Promise<void> {
  for (const neuron of list) {
    const values = { neuron_tag_name: neuron.neuron_tag_name, description: neuron.description };
    await db
      .insert(neurons)
      .values({ neuron_uuid: neuron.neuron_uuid, ...values })
      .onConflictDoUpdate({ target: neurons.neuron_uuid, set: values });
  }
}

const withoutSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Platforms whose signals the engine makes: enabled, trading available (SPEC.md §3 level TRADE_AVAILABLE),
 * and on the exchange the feed follows (the paper platform when the paper exchange runs).
 */
export async function followingPlatforms(db: Database, exchangeUrl: string): Promise<PlatformRow[]> {
  const rows = await db
    .select()
    .from(platforms)
    .where(and(eq(platforms.enabled, true), eq(platforms.level, TradeTokenLevel.TRADE_AVAILABLE)));
  return rows.filter((row) => withoutSlash(row.base_url) === withoutSlash(exchangeUrl));
}

export async function symbolsByPair(db: Database): Promise<Map<string, SymbolRow>> {
  const rows = await db.select().from(symbols);
  return new Map(rows.map((row) => [row.symbol_pair, row]));
}

/** Stores a signal for each platform; returns the rows that were new. */
export async function insertSignal(
  db: Database,
  signal: EngineSignal,
  symbolUuid: string,
  platformList: readonly PlatformRow[],
): Promise<SignalRow[]> {
  if (platformList.length === 0) return [];
  return db
    .insert(signals)
    .values(
      platformList.map((platform) => ({
        signal_uuid: signalUuidOf(platform.platform_uuid, signal),
        platform_uuid: platform.platform_uuid,
        symbol_uuid: symbolUuid,
        neuron_uuid: signal.neuronUuid,
        direction: signal.direction,
        price_enter: signal.priceEnter,
        accuracy: signal.accuracy,
        trend_moment: signal.trendMoment,
        created_at: new Date(signal.createdAt),
      })),
    )
    .onConflictDoNothing()
    .returning();
}

async function resolveSignal(db: Database, resolution: EngineResolution, symbolUuid: string): Promise<void> {
  await db
    .update(signals)
    .set({
      outcome: resolution.outcome,
      resolved_at: new Date(resolution.resolvedAt),
      price_exit: resolution.priceExit,
    })
    .where(
      and(
        eq(signals.neuron_uuid, resolution.neuronUuid),
        eq(signals.symbol_uuid, symbolUuid),
        eq(signals.created_at, new Date(resolution.createdAt)),
        isNull(signals.outcome),
      ),
    );
}

/**
 * Stores one engine step (its resolutions, then its signals) in one transaction; returns the signal rows
 * that are new and carry an accuracy. A step is the unit the engine's track record moves by: a resolution
 * stored without the signal made on the same candle, or the reverse, would leave a state no run of the
 * engine produces, so a kill leaves either the whole step or none of it.
 */
export async function persistStep(
  db: Database,
  step: EngineStep,
  symbolUuid: string,
  platformList: readonly PlatformRow[],
): Promise<SignalRow[]> {
  return db.transaction(async (tx) => {
    const store = tx as unknown as Database;
    for (const resolution of step.resolutions) await resolveSignal(store, resolution, symbolUuid);
    const fresh: SignalRow[] = [];
    for (const signal of step.signals) {
      const rows = await insertSignal(store, signal, symbolUuid, platformList);
      if (signal.accuracy !== null) fresh.push(...rows);
    }
    return fresh;
  });
}

/**
 * What the store knows of a neuron on a symbol, for SignalEngine.restore: the last resolved outcomes, the
 * open signal, and the newest moment the stored record speaks for: no new signal is made on candles up to the
 * newest signal's creation or the newest resolution, whichever is later. (Resuming after the creation alone
 * let a restarted engine make a signal while the stored one was still open in the first run: two signals
 * open at once, and an accuracy counting an outcome that came after it.)
 * Only the newest signal can be open; an older unresolved one (left by a version that stored steps piecemeal)
 * overlaps a later signal, cannot be judged any more and is deleted, so the restored record is the stored one.
 */
export async function loadTrackRecord(
  db: Database,
  neuronUuid: string,
  symbolUuid: string,
  platformUuid: string,
): Promise<{ record: TrackRecord; resumeAfter: number; discarded: number } | undefined> {
  const scope = and(
    eq(signals.neuron_uuid, neuronUuid),
    eq(signals.symbol_uuid, symbolUuid),
    eq(signals.platform_uuid, platformUuid),
  );
  const [newest] = await db.select().from(signals).where(scope).orderBy(desc(signals.created_at)).limit(1);
  if (!newest) return undefined;
  const dangling = await db
    .delete(signals)
    .where(
      and(
        eq(signals.neuron_uuid, neuronUuid),
        eq(signals.symbol_uuid, symbolUuid),
        isNull(signals.outcome),
        lt(signals.created_at, newest.created_at),
      ),
    )
    .returning({ signal_uuid: signals.signal_uuid });
  const resolved = await db
    .select({ outcome: signals.outcome })
    .from(signals)
    .where(and(scope, isNotNull(signals.outcome)))
    .orderBy(desc(signals.resolved_at))
    .limit(ACCURACY_WINDOW);
  const [last] = await db
    .select({ resolvedAt: max(signals.resolved_at) })
    .from(signals)
    .where(scope);
  const open = newest.outcome === null ? newest : undefined;
  return {
    record: {
      outcomes: resolved.reverse().map((row) => (row.outcome === 'hit' ? 'hit' : 'miss')),
      open: open && {
        direction: open.direction === 'SELL' ? 'SELL' : 'BUY',
        priceEnter: open.price_enter,
        createdAt: open.created_at.getTime(),
      },
    },
    resumeAfter: Math.max(newest.created_at.getTime(), last?.resolvedAt?.getTime() ?? 0),
    discarded: dangling.length,
  };
}

export function toSignalRecord(row: SignalRow): SignalRecord {
  return {
    signal_uuid: row.signal_uuid,
    platform_uuid: row.platform_uuid,
    symbol_uuid: row.symbol_uuid,
    neuron_uuid: row.neuron_uuid,
    signal_direction_created: row.direction === 'SELL' ? 'SELL' : 'BUY',
    signal_price_enter: Number(row.price_enter),
    signal_accuracy: row.accuracy,
    trend_moment: row.trend_moment as TrendMoment,
    signal_created_at: row.created_at.toISOString(),
    signal_resolved_at: row.resolved_at?.toISOString() ?? null,
    signal_outcome: row.outcome === 'hit' || row.outcome === 'miss' ? row.outcome : null,
    signal_price_exit: row.price_exit === null ? null : Number(row.price_exit),
  };
}

export async function findSignal(db: Database, signalUuid: string): Promise<SignalRow | undefined> {
  const [row] = await db.select().from(signals).where(eq(signals.signal_uuid, signalUuid));
  return row;
}

export async function findNeuron(db: Database, neuronUuid: string) {
  const [row] = await db.select().from(neurons).where(eq(neurons.neuron_uuid, neuronUuid));
  return row && { neuron_uuid: row.neuron_uuid, neuron_tag_name: row.neuron_tag_name };
}

/** The resolved signals a signal's accuracy was measured over (resolved by its creation), newest first. */
export async function trackRecordOf(db: Database, row: SignalRow): Promise<SignalRow[]> {
  return db
    .select()
    .from(signals)
    .where(
      and(
        eq(signals.neuron_uuid, row.neuron_uuid),
        eq(signals.symbol_uuid, row.symbol_uuid),
        eq(signals.platform_uuid, row.platform_uuid),
        isNotNull(signals.outcome),
        lte(signals.resolved_at, row.created_at),
      ),
    )
    .orderBy(desc(signals.resolved_at))
    .limit(ACCURACY_WINDOW);
}

/** minimal_accuracy (percent) of each user that saved trade preferences. */
export async function minimalAccuracies(
  db: Database,
  userUuids: readonly string[],
): Promise<Map<string, number>> {
  if (userUuids.length === 0) return new Map();
  const rows = await db
    .select({ user_uuid: tradePreferences.user_uuid, minimal_accuracy: tradePreferences.minimal_accuracy })
    .from(tradePreferences)
    .where(inArray(tradePreferences.user_uuid, [...userUuids]));
  return new Map(rows.map((row) => [row.user_uuid, row.minimal_accuracy]));
}
