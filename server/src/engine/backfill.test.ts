// Backfill: the replay stores exactly what the signal engine makes on the history (same signals, accuracies
// and outcomes), is deterministic for a seed and its end time, hands every minute to its consumers, and a
// live core started afterwards continues the stored track record consistently.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db';
import { neurons, signals } from '../db/schema-signals';
import { backfill, insertInBulk, needsBackfill } from './backfill';
import { followingPlatforms, symbolsByPair } from './signal-store';
import { SignalEngine } from './signal-engine';
import {
  EXCHANGE_URL,
  expectConsistent,
  PAIRS,
  runCore,
  seededHistory,
  seededMarket,
  seedReplayDatabase,
} from '../../test/replay-testing';

const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

async function backfilled(days: number, consumers: Parameters<typeof backfill>[0]['consumers'] = []) {
  const handle = await openDatabase({});
  handles.push(handle);
  await seedReplayDatabase(handle.db);
  expect(await needsBackfill(handle.db)).toBe(true);
  const logs: string[] = [];
  const result = await backfill({
    db: handle.db,
    history: seededHistory(days),
    symbolMap: await symbolsByPair(handle.db),
    platformList: await followingPlatforms(handle.db, EXCHANGE_URL),
    consumers,
    log: { info: (obj, msg) => logs.push(`${msg} ${JSON.stringify(obj)}`) },
  });
  return { db: handle.db, result, logs };
}

/** The stored signals, comparable across databases (uuids are name-based, so they compare too). */
async function storedSignals(db: DatabaseHandle['db']) {
  const rows = await db.select().from(signals);
  return rows
    .map((row) => ({
      uuid: row.signal_uuid,
      direction: row.direction,
      price_enter: row.price_enter,
      accuracy: row.accuracy,
      created_at: row.created_at.getTime(),
      outcome: row.outcome,
      resolved_at: row.resolved_at?.getTime() ?? null,
      price_exit: row.price_exit,
    }))
    .sort((a, b) => a.created_at - b.created_at || a.uuid.localeCompare(b.uuid));
}

describe('backfill', () => {
  it('stores what the signal engine makes on the history, with its outcomes', async () => {
    const minutesSeen: number[] = [];
    const { db, result, logs } = await backfilled(2, [
      { onMinute: (time, steps) => minutesSeen.push(time + steps.length * 0) },
    ]);
    const engine = new SignalEngine();
    const market = seededMarket(2);
    let made = 0;
    let resolved = 0;
    for (let minute = 0; minute < 2 * 1440; minute++) {
      for (const pair of PAIRS) {
        const step = engine.onCandle(pair, market.get(pair)![minute]!);
        made += step?.signals.length ?? 0;
        resolved += step?.resolutions.length ?? 0;
      }
    }
    const stored = await storedSignals(db);
    expect(made).toBeGreaterThan(100);
    expect(result.signals).toBe(made);
    expect(stored).toHaveLength(made);
    expect(stored.filter((row) => row.outcome !== null)).toHaveLength(resolved);
    expect(stored.filter((row) => row.accuracy !== null).length).toBeGreaterThan(0);
    // One consumer call per minute, in time order, at the end of each minute.
    expect(minutesSeen).toHaveLength(2 * 1440);
    expect(minutesSeen.every((time, i) => i === 0 || time - minutesSeen[i - 1]! === 60_000)).toBe(true);
    expect(logs.filter((line) => line.startsWith('backfill: replaying history'))).toHaveLength(10);
    expect(await needsBackfill(db)).toBe(false);
    await expectConsistent(db);
  }, 120_000);

  it('is deterministic for a seed and its end time', async () => {
    const first = await backfilled(1);
    const second = await backfilled(1);
    expect(await storedSignals(second.db)).toEqual(await storedSignals(first.db));
  }, 120_000);

  it('a live core started after it continues the track record consistently', async () => {
    const { db } = await backfilled(1);
    const before = (await storedSignals(db)).length;
    // The live feed starts with REST warm-up candles that overlap the backfilled day, then goes on.
    expect(await runCore(db, seededMarket(2), 1440 - 800, 2 * 1440)).toEqual([]);
    const after = await expectConsistent(db);
    expect(after.signals).toBeGreaterThan(before);
  }, 120_000);
});

describe('insertInBulk', () => {
  it('stores the same rows by COPY (PGlite) and by JSON (PostgreSQL’s way), keeping rows already stored', async () => {
    for (const way of ['auto', 'json'] as const) {
      const handle = await openDatabase({});
      handles.push(handle);
      const rows = [
        {
          neuron_uuid: '00000000-0000-4000-8000-000000000001',
          neuron_tag_name: 'a "quoted", comma',
          description: '',
          created_at: new Date(Date.UTC(2026, 0, 1)),
        },
        {
          neuron_uuid: '00000000-0000-4000-8000-000000000002',
          neuron_tag_name: 'line\nbreak',
          description: 'x',
          created_at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
        },
      ];
      await insertInBulk(handle.db, neurons, rows, way);
      await insertInBulk(handle.db, neurons, [{ ...rows[0]!, description: 'not replaced' }], way);
      const read = await handle.db.select().from(neurons).orderBy(neurons.neuron_uuid);
      expect(read).toEqual(rows);
    }
  }, 120_000);
});
