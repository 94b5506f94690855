// Backfill (issue 8, DESIGN.md "Public statistics"): on the first start with an empty database and the paper
// exchange, the exchange's 30 days of history are replayed through the same SignalEngine the live feed runs, so
// the signals, their outcomes and accuracies — and everything consumers build from them (house trades,
// statistics) — exist from the first page load. The replay walks the market minute by minute (every symbol's
// candle of a minute, then the consumers), stores the signals with their final outcomes in bulk, and logs its
// progress. Deterministic: the same history gives the same rows (signal uuids are name-based).
import type { Candle1m } from '../../../paper-exchange/src/index';
import type { Database } from '../db';
import { signals } from '../db/schema-signals';
import { candleFromHistory, type Candle } from './candles';
import { SignalEngine, type EngineStep } from './signal-engine';
import { seedNeurons, signalUuidOf, type PlatformRow, type SymbolRow } from './signal-store';

/** Rows per INSERT: large enough to be quick, small enough for PostgreSQL's 65 535 parameters. */
const INSERT_CHUNK_ROWS = 1000;

/** Something that follows the replay minute by minute (house trades, statistics). */
export interface ReplayConsumer {
  /** After every symbol's candle ending at `time` (ms) went through the engine; closes by exchange symbol. */
  onMinute(time: number, steps: readonly EngineStep[], closes: ReadonlyMap<string, Candle>): void;
  /** After the last minute, before the rows are stored. */
  finish?(): Promise<void> | void;
}

export interface BackfillOptions {
  db: Database;
  /** The exchange's history: exchange symbol → 1-minute candles, oldest first, all of the same minutes. */
  history: ReadonlyMap<string, readonly Candle1m[]>;
  symbolMap: ReadonlyMap<string, SymbolRow>;
  /** Platforms the engine's signals are stored for (signal-store followingPlatforms). */
  platformList: readonly PlatformRow[];
  consumers?: readonly ReplayConsumer[];
  engine?: SignalEngine;
  log: { info(obj: object, msg: string): void };
}

export interface BackfillResult {
  minutes: number;
  signals: number;
  /** Wall time of the replay and of the storing, ms. */
  replayMs: number;
  storeMs: number;
}

type SignalInsert = typeof signals.$inferInsert;

/** True when no signal was ever stored: the database is new. */
export async function needsBackfill(db: Database): Promise<boolean> {
  const [row] = await db.select({ uuid: signals.signal_uuid }).from(signals).limit(1);
  return row === undefined;
}

export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const { db, history, symbolMap, platformList, log } = options;
  const consumers = options.consumers ?? [];
  const engine = options.engine ?? new SignalEngine();
  const pairs = [...history.keys()].filter((pair) => symbolMap.has(pair));
  const lists = pairs.map((pair) => history.get(pair) as readonly Candle1m[]);
  const precisions = pairs.map((pair) => (symbolMap.get(pair) as SymbolRow).symbol_price_precision);
  const minutes = Math.min(...lists.map((list) => list.length));
  const started = performance.now();

  // Signals by (neuron, symbol, created_at); resolutions fill in the outcome of the row they resolve.
  const rows = new Map<string, SignalInsert[]>();
  const keyOf = (neuronUuid: string, symbol: string, createdAt: number) =>
    `${neuronUuid}|${symbol}|${createdAt}`;
  let nextReport = 0.1;
  for (let minute = 0; minute < minutes; minute++) {
    const steps: EngineStep[] = [];
    const closes = new Map<string, Candle>();
    let time = 0;
    for (let i = 0; i < pairs.length; i++) {
      const pair = pairs[i] as string;
      const candle = candleFromHistory(
        (lists[i] as readonly Candle1m[])[minute] as Candle1m,
        precisions[i] as number,
      );
      closes.set(pair, candle);
      time = candle.closeTime + 1;
      const step = engine.onCandle(pair, candle);
      if (!step) continue;
      steps.push(step);
      const symbolUuid = (symbolMap.get(pair) as SymbolRow).symbol_uuid;
      for (const resolution of step.resolutions) {
        for (const row of rows.get(keyOf(resolution.neuronUuid, pair, resolution.createdAt)) ?? []) {
          row.outcome = resolution.outcome;
          row.resolved_at = new Date(resolution.resolvedAt);
          row.price_exit = resolution.priceExit;
        }
      }
      for (const signal of step.signals) {
        rows.set(
          keyOf(signal.neuronUuid, pair, signal.createdAt),
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
        );
      }
    }
    for (const consumer of consumers) consumer.onMinute(time, steps, closes);
    if ((minute + 1) / minutes >= nextReport) {
      log.info(
        { progress: `${Math.round(nextReport * 100)} %`, minute: minute + 1, minutes },
        'backfill: replaying history',
      );
      nextReport += 0.1;
    }
  }
  for (const consumer of consumers) await consumer.finish?.();
  const replayMs = performance.now() - started;

  const storeStarted = performance.now();
  await seedNeurons(db, engine.neurons);
  const all = [...rows.values()].flat();
  await db.transaction(async (tx) => {
    for (let from = 0; from < all.length; from += INSERT_CHUNK_ROWS) {
      await tx
        .insert(signals)
        .values(all.slice(from, from + INSERT_CHUNK_ROWS))
        .onConflictDoNothing();
    }
  });
  const storeMs = performance.now() - storeStarted;
  log.info(
    { signals: all.length, replayMs: Math.round(replayMs), storeMs: Math.round(storeMs) },
    'backfill: stored',
  );
  return { minutes, signals: rows.size, replayMs, storeMs };
}
