// The signal feed of /trading (issue 18 item 5; contracts/signal-feed.ts): the signals of the last hour that the
// trader's filter passed — an accuracy reaching their minimal_accuracy, on a platform they can trade, the same
// comparison live-core's delivery makes (recent-signals.ts) — with the hit rule's outcome as stored
// (engine/hit-rule.ts, signal-store.ts resolveSignal), the neuron's accuracy on the symbol now, and the engine's
// count of signals in the hour and its newest signal. The SPA polls it (docs/decisions.md "The cockpit").
import { and, count, desc, eq, gte, isNotNull, lte, sql } from 'drizzle-orm';
import {
  FeedOutcome,
  SIGNAL_FEED_WINDOW_MINUTES,
  TradeTokenLevel,
  type SignalFeed,
  type SignalFeedItem,
} from '../../../../contracts';
import type { Database } from '../../db';
import { platforms, symbols } from '../../db/schema';
import { neurons, signals } from '../../db/schema-signals';
import { trades } from '../../db/schema-trades';
import { ACCURACY_TOLERANCE, toWireSignal } from '../../engine/live-core';
import { ACCURACY_WINDOW, MIN_RESOLVED } from '../../engine/signal-engine';
import { minimalAccuracies } from '../../engine/signal-store';
import { DEFAULT_TRADE_PREFERENCES } from '../../services/preferences';

const MINUTE_MS = 60_000;

/** Signals on platforms a trader can trade (enabled, TRADE_AVAILABLE), as live-core delivers them. */
const onTradablePlatform = () =>
  and(eq(platforms.enabled, true), eq(platforms.level, TradeTokenLevel.TRADE_AVAILABLE));

interface NeuronRecord {
  accuracy: number | null;
  resolved: number;
}

/**
 * The neuron's accuracy on a symbol and platform now: hits ÷ resolved over its last ACCURACY_WINDOW resolved
 * signals there, null below MIN_RESOLVED (signal-engine.ts accuracyOf). A neuron has one open signal on a symbol
 * at a time, so its signals resolve in the order they were made: the newest made are the newest resolved, read
 * through the track index.
 */
async function neuronRecordOf(
  db: Database,
  key: { neuron_uuid: string; symbol_uuid: string; platform_uuid: string },
): Promise<NeuronRecord> {
  const rows = await db
    .select({ outcome: signals.outcome })
    .from(signals)
    .where(
      and(
        eq(signals.neuron_uuid, key.neuron_uuid),
        eq(signals.symbol_uuid, key.symbol_uuid),
        eq(signals.platform_uuid, key.platform_uuid),
        isNotNull(signals.outcome),
      ),
    )
    .orderBy(desc(signals.created_at))
    .limit(ACCURACY_WINDOW);
  const hits = rows.filter((row) => row.outcome === 'hit').length;
  return { accuracy: rows.length < MIN_RESOLVED ? null : hits / rows.length, resolved: rows.length };
}

export async function signalFeedFor(
  db: Database,
  userUuid: string,
  nowMs: number,
  limit: number,
): Promise<SignalFeed> {
  const minimal =
    (await minimalAccuracies(db, [userUuid])).get(userUuid) ?? DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
  const now = new Date(nowMs);
  const since = new Date(nowMs - SIGNAL_FEED_WINDOW_MINUTES * MINUTE_MS);
  const inWindow = and(gte(signals.created_at, since), lte(signals.created_at, now));

  const [made] = await db
    .select({ value: count() })
    .from(signals)
    .innerJoin(platforms, eq(platforms.platform_uuid, signals.platform_uuid))
    .where(and(onTradablePlatform(), inWindow));
  const [newest] = await db
    .select({ created_at: signals.created_at })
    .from(signals)
    .innerJoin(platforms, eq(platforms.platform_uuid, signals.platform_uuid))
    .where(and(onTradablePlatform(), lte(signals.created_at, now)))
    .orderBy(desc(signals.created_at))
    .limit(1);

  const rows = await db
    .select({
      signal: signals,
      platform: platforms,
      symbol: symbols,
      is_traded: sql<boolean>`exists (select 1 from ${trades} where ${trades.user_uuid} = ${userUuid} and ${trades.signal_uuid} = ${signals.signal_uuid})`,
    })
    .from(signals)
    .innerJoin(platforms, eq(platforms.platform_uuid, signals.platform_uuid))
    .innerJoin(symbols, eq(symbols.symbol_uuid, signals.symbol_uuid))
    .where(
      and(
        onTradablePlatform(),
        inWindow,
        isNotNull(signals.accuracy),
        // The comparison live-core's delivery makes, in the database's (IEEE double) arithmetic.
        sql`${signals.accuracy} * 100 + ${ACCURACY_TOLERANCE}::double precision >= ${minimal}::double precision`,
      ),
    )
    .orderBy(desc(signals.created_at), desc(signals.signal_uuid))
    .limit(limit);

  const records = new Map<string, NeuronRecord>();
  for (const { signal } of rows) {
    const key = `${signal.neuron_uuid}|${signal.symbol_uuid}|${signal.platform_uuid}`;
    if (!records.has(key)) records.set(key, await neuronRecordOf(db, signal));
  }
  const tags = new Map(
    rows.length === 0
      ? []
      : (await db.select().from(neurons)).map((neuron) => [neuron.neuron_uuid, neuron.neuron_tag_name]),
  );
  const signal_list: SignalFeedItem[] = rows.map(({ signal, platform, symbol, is_traded }) => {
    const record = records.get(`${signal.neuron_uuid}|${signal.symbol_uuid}|${signal.platform_uuid}`)!;
    return {
      signal: toWireSignal(signal, symbol, platform, tags),
      signal_outcome:
        signal.outcome === 'hit'
          ? FeedOutcome.HIT
          : signal.outcome === 'miss'
            ? FeedOutcome.MISS
            : FeedOutcome.OPEN,
      signal_resolved_at: signal.resolved_at?.toISOString() ?? null,
      signal_price_exit: signal.price_exit === null ? null : Number(signal.price_exit),
      neuron_accuracy: record.accuracy,
      neuron_resolved_count: record.resolved,
      is_traded: Boolean(is_traded),
    };
  });
  return {
    window_minutes: SIGNAL_FEED_WINDOW_MINUTES,
    minimal_accuracy: minimal,
    engine_signal_count: made?.value ?? 0,
    engine_last_signal_at: newest?.created_at.toISOString() ?? null,
    signal_list,
    server_time: now.toISOString(),
  };
}
