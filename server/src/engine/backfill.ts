// Backfill (issue 8, DESIGN.md "Public statistics"): on the first start with an empty database and the paper
// exchange, the exchange's 30 days of history are replayed through the same SignalEngine the live feed runs, so
// the signals, their outcomes and accuracies — and everything consumers build from them (house trades,
// statistics) — exist from the first page load. The replay walks the market minute by minute (every symbol's
// candle of a minute, then the consumers), stores the signals with their final outcomes in bulk, and logs its
// progress. Deterministic: the same history gives the same rows (signal uuids are name-based). The signals and
// what the consumers store are written in one transaction, so a first start either stores all of it or nothing
// (and the next start replays again).
import { getTableColumns, getTableName, sql, type Table } from 'drizzle-orm';
import { SYMBOLS, type Candle1m } from '../../../paper-exchange/src/index';
import type { Database } from '../db';
import { marketCandleDays, signals } from '../db/schema-signals';
import { candleDayRows, priceArrayLiteral } from './candle-store';
import { candleFromHistory, type Candle } from './candles';
import { SignalEngine, type EngineStep } from './signal-engine';
import { seedNeurons, signalUuidOf, type PlatformRow, type SymbolRow } from './signal-store';

/** Rows per INSERT … SELECT FROM json_populate_recordset (one parameter each, a few MB of JSON). */
const INSERT_CHUNK_ROWS = 20_000;

/** Something that follows the replay minute by minute (house trades, statistics). */
export interface ReplayConsumer {
  /** After every symbol's candle ending at `time` (ms) went through the engine; closes by exchange symbol. */
  onMinute(time: number, steps: readonly EngineStep[], closes: ReadonlyMap<string, Candle>): void;
  /** After the last minute, before the rows are stored. */
  finish?(): Promise<void> | void;
  /** Stores what the consumer made, in the transaction that stores the signals (after them). */
  store?(tx: Database): Promise<void>;
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
  // The decimals the paper exchange writes its klines with (its pricePrecision), so the replay's prices are the
  // very strings the live feed gets; the symbol's tick decimals for a symbol it does not list.
  const precisions = pairs.map(
    (pair) =>
      SYMBOLS.find((spec) => spec.symbol === pair)?.pricePrecision ??
      (symbolMap.get(pair) as SymbolRow).symbol_price_precision,
  );
  const minutes = Math.min(...lists.map((list) => list.length));
  const started = performance.now();

  // Signals by (neuron, symbol, created_at); resolutions fill in the outcome of the row they resolve.
  const rows = new Map<string, SignalInsert[]>();
  // The replayed candles are stored too: the what-if replay trades on them (candle-store.ts).
  const replayed = pairs.map(() => [] as Candle[]);
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
      (replayed[i] as Candle[]).push(candle);
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
    const store = tx as unknown as Database;
    await skipForeignKeyChecks(store);
    await insertInBulk(store, signals, all);
    await insertInBulk(
      store,
      marketCandleDays,
      pairs.flatMap((pair, i) =>
        candleDayRows((symbolMap.get(pair) as SymbolRow).symbol_uuid, replayed[i] as Candle[]),
      ),
    );
    for (const consumer of consumers) await consumer.store?.(store);
  });
  const storeMs = performance.now() - storeStarted;
  log.info(
    { signals: all.length, replayMs: Math.round(replayMs), storeMs: Math.round(storeMs) },
    'backfill: stored',
  );
  return { minutes, signals: rows.size, replayMs, storeMs };
}

/**
 * For the rest of the transaction, skips the per-row foreign-key checks where the role may
 * (session_replication_role needs a superuser: always on PGlite, on PostgreSQL when the server runs as one).
 * The replayed rows reference only the platforms, symbols, neurons and user the replay read before, so the
 * checks cannot fail; skipping them saves about a third of the storing. SET LOCAL ends with the transaction.
 */
async function skipForeignKeyChecks(tx: Database): Promise<void> {
  const result = await tx.execute(sql`select current_setting('is_superuser') as superuser`);
  const [row] = (result as unknown as { rows: { superuser: string }[] }).rows;
  if (row?.superuser === 'on') await tx.execute(sql`set local session_replication_role = replica`);
}

/** The PGlite connection (or transaction) behind a Drizzle database, which can COPY from a blob. */
interface PgliteConnection {
  exec(query: string): Promise<unknown>;
  query(query: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown>;
}

function pgliteConnectionOf(db: Database): PgliteConnection | undefined {
  // drizzle-orm/pglite keeps the PGlite instance (in a transaction: PGlite's transaction) as session.client;
  // node-postgres keeps a pg client there, which has no exec().
  const client = (db as unknown as { session?: { client?: Record<string, unknown> } }).session?.client;
  const usable = typeof client?.exec === 'function' && typeof client.query === 'function';
  return usable ? (client as unknown as PgliteConnection) : undefined;
}

/** One CSV field: NULL unquoted and empty, everything else quoted. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  // An array of numbers or decimal texts (market_candle_days): PostgreSQL's array literal, NULL for a gap.
  const text = Array.isArray(value)
    ? priceArrayLiteral(value as (string | null)[])
    : value instanceof Date
      ? value.toISOString()
      : String(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Inserts many rows in few statements; a row already stored is kept. The columns are those any row sets (the
 * table's default fills the others); a row that leaves out one of them stores NULL there. On PGlite the rows are COPYed as CSV into a temporary table and inserted from
 * there (about three times quicker than anything else PGlite offers); on PostgreSQL each chunk travels as one
 * JSON parameter expanded by json_populate_recordset, several times quicker than a multi-row VALUES with a
 * parameter per field.
 */
export async function insertInBulk<T extends Table>(
  db: Database,
  table: T,
  rows: readonly T['$inferInsert'][],
  /** 'json' takes PostgreSQL's way on PGlite too (tests). */
  way: 'auto' | 'json' = 'auto',
): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table);
  const present = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) present.add(key);
  const keys = Object.keys(columns).filter((key) => present.has(key));
  const columnName = (key: string) => (columns[key] as { name: string }).name;
  const tableName = getTableName(table);

  const pglite = way === 'auto' ? pgliteConnectionOf(db) : undefined;
  if (pglite) {
    const list = keys.map((key) => `"${columnName(key)}"`).join(', ');
    const scratch = `"bulk_${tableName}"`;
    const csv = rows
      .map((row) => keys.map((key) => csvField(row[key as keyof typeof row])).join(','))
      .join('\n');
    await pglite.exec(`drop table if exists ${scratch}; create temp table ${scratch} (like "${tableName}")`);
    await pglite.query(`copy ${scratch} (${list}) from '/dev/blob' with (format csv)`, [], {
      blob: new Blob([csv]),
    });
    await pglite.exec(
      `insert into "${tableName}" (${list}) select ${list} from ${scratch} on conflict do nothing; ` +
        `drop table ${scratch}`,
    );
    return;
  }

  const names = sql.join(
    keys.map((key) => sql.identifier(columnName(key))),
    sql`, `,
  );
  const target = sql.identifier(tableName);
  for (let from = 0; from < rows.length; from += INSERT_CHUNK_ROWS) {
    const chunk = rows.slice(from, from + INSERT_CHUNK_ROWS).map((row) => {
      const record: Record<string, unknown> = {};
      for (const key of keys) record[columnName(key)] = row[key as keyof typeof row];
      return record;
    });
    await db.execute(
      sql`insert into ${target} (${names}) select ${names} from json_populate_recordset(null::${target}, ${JSON.stringify(chunk)}::json) on conflict do nothing`,
    );
  }
}
