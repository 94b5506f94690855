// The newest stored signals a trader would have been sent over the websocket (live-core.ts `deliver`): an
// accuracy reaching their minimal_accuracy, on a platform they can trade (enabled, TRADE_AVAILABLE), in the
// wire shape of signal_from_core (live-core.ts `toWireSignal`). Signals the trader has a trade for are left
// out: opening a trade removes its card (SPEC.md §4 "Opening a trade"), and a reload must not bring it back.
import { and, desc, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import { TradeTokenLevel, type Signal } from '../../../../contracts';
import type { Database } from '../../db';
import { platforms, symbols } from '../../db/schema';
import { neurons, signals } from '../../db/schema-signals';
import { trades } from '../../db/schema-trades';
import { ACCURACY_TOLERANCE, toWireSignal } from '../../engine/live-core';
import { minimalAccuracies } from '../../engine/signal-store';
import { DEFAULT_TRADE_PREFERENCES } from '../../services/preferences';

export async function recentSignalsFor(db: Database, userUuid: string, limit: number): Promise<Signal[]> {
  const minimal =
    (await minimalAccuracies(db, [userUuid])).get(userUuid) ?? DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
  const traded = db
    .select({ one: sql`1` })
    .from(trades)
    .where(and(eq(trades.user_uuid, userUuid), eq(trades.signal_uuid, signals.signal_uuid)));
  const rows = await db
    .select({ signal: signals, platform: platforms, symbol: symbols })
    .from(signals)
    .innerJoin(platforms, eq(platforms.platform_uuid, signals.platform_uuid))
    .innerJoin(symbols, eq(symbols.symbol_uuid, signals.symbol_uuid))
    .where(
      and(
        eq(platforms.enabled, true),
        eq(platforms.level, TradeTokenLevel.TRADE_AVAILABLE),
        isNotNull(signals.accuracy),
        // The comparison live-core's delivery makes, in the database's (IEEE double) arithmetic.
        sql`${signals.accuracy} * 100 + ${ACCURACY_TOLERANCE}::double precision >= ${minimal}::double precision`,
        notExists(traded),
      ),
    )
    .orderBy(desc(signals.created_at), desc(signals.signal_uuid))
    .limit(limit);
  if (rows.length === 0) return [];
  const tags = new Map(
    (await db.select().from(neurons)).map((neuron) => [neuron.neuron_uuid, neuron.neuron_tag_name]),
  );
  return rows.map(({ signal, platform, symbol }) => toWireSignal(signal, symbol, platform, tags));
}
