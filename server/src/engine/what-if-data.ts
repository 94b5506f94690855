// The what-if replay's data (issue 42): the stored candles and signals of a range, read from the database a UTC
// day at a time (the event loop is free between days) and kept in memory in the compact form the replay takes
// (what-if.ts). A day that ended more than FINAL_AFTER_MS ago no longer changes and is read once; the day still
// open (and the one just ended) is read again when its counts of candles or signals changed. The counts are the
// data's version: a replay's cached answer is keyed by them, so new data makes a new answer.
// Candle arrays live in SharedArrayBuffers: a worker thread reads them without a copy.
import { and, asc, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { marketCandleDays, neurons, signals } from '../db/schema-signals';
import { symbols } from '../db/schema';
import type { SignalDirection } from '../../../contracts';
import { NEURONS } from './neurons';
import {
  CANDLE_FIELDS,
  DAY_MS,
  decimalsIn,
  MINUTES_PER_DAY,
  scaledValue,
  type WhatIfDay,
  type WhatIfSignal,
  type WhatIfSymbol,
} from './what-if';

/** A day is final this long after its end: late candles (a feed's gap filled from REST) have arrived by then. */
const FINAL_AFTER_MS = 15 * 60_000;
/** Days kept: the longest range plus the day it starts in. */
const KEEP_DAYS = 33;

interface CandleDay {
  /** By symbol uuid. */
  bySymbol: Map<string, { list: Float64Array; scale: number }>;
  count: number;
}

/** A stored signal with its symbol's uuid (its index is given at each load). */
type StoredSignal = Omit<WhatIfSignal, 's'> & { symbolUuid: string };

interface Cached<T> {
  value: T;
  /** The counts it was read with ('' for a final day: never read again). */
  version: string;
}

export interface WhatIfData {
  symbols: WhatIfSymbol[];
  neurons: Record<string, string>;
  days: WhatIfDay[];
  /** Changes whenever the data of the range changes. */
  version: string;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class WhatIfStore {
  private readonly candleDays = new Map<number, Promise<Cached<CandleDay>>>();
  private readonly signalDays = new Map<string, Promise<Cached<StoredSignal[]>>>();
  /** Days as the replay takes them, by platform, day and symbol list: rebuilt only when their data was read again. */
  private readonly composed = new Map<string, { from: [CandleDay, StoredSignal[]]; day: WhatIfDay }>();

  constructor(
    private readonly db: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async load(platformUuid: string, fromMs: number, toMs: number): Promise<WhatIfData> {
    const symbolRows = await this.db.select().from(symbols).orderBy(asc(symbols.symbol_pair));
    const neuronRows = await this.db.select().from(neurons);
    const indexOf = new Map(symbolRows.map((row, index) => [row.symbol_uuid, index]));
    const symbolKey = symbolRows.map((row) => row.symbol_uuid).join(',');
    const now = this.clock();
    this.forgetBefore(now - KEEP_DAYS * DAY_MS);
    const days: WhatIfDay[] = [];
    const versions: string[] = [];
    for (let start = Math.floor(fromMs / DAY_MS) * DAY_MS; start < toMs; start += DAY_MS) {
      const final = start + DAY_MS + FINAL_AFTER_MS <= now;
      const candles = await this.candleDay(start, final);
      const dailySignals = await this.signalDay(platformUuid, start, final);
      versions.push(`${candles.version}/${dailySignals.version}`);
      const key = `${platformUuid}|${start}|${symbolKey}`;
      const known = this.composed.get(key);
      if (known && known.from[0] === candles.value && known.from[1] === dailySignals.value) {
        days.push(known.day);
        continue;
      }
      const day: WhatIfDay = {
        start,
        candles: symbolRows.map((row) => candles.value.bySymbol.get(row.symbol_uuid)?.list ?? null),
        scales: symbolRows.map((row) => candles.value.bySymbol.get(row.symbol_uuid)?.scale ?? 0),
        // Symbol indexes are this load's (a symbol added later moves them); a stable sort keeps the neuron order.
        signals: dailySignals.value
          .filter((signal) => indexOf.has(signal.symbolUuid))
          .map(({ symbolUuid, ...signal }) => ({ ...signal, s: indexOf.get(symbolUuid) as number }))
          .sort((a, b) => a.t - b.t || a.s - b.s),
      };
      this.composed.set(key, { from: [candles.value, dailySignals.value], day });
      days.push(day);
      await yieldToEventLoop();
    }
    return {
      symbols: symbolRows.map((row) => ({
        pair: row.symbol_pair,
        symbol_uuid: row.symbol_uuid,
        symbol_name: row.symbol_name,
        symbol_price_precision: row.symbol_price_precision,
        symbol_quantity_precision: row.symbol_quantity_precision,
      })),
      neurons: Object.fromEntries(neuronRows.map((row) => [row.neuron_uuid, row.neuron_tag_name])),
      days,
      version: versions.join(','),
    };
  }

  private forgetBefore(ms: number): void {
    for (const [key, { day }] of this.composed) if (day.start < ms) this.composed.delete(key);
    for (const start of this.candleDays.keys()) if (start < ms) this.candleDays.delete(start);
    for (const key of this.signalDays.keys()) {
      if (Number(key.split('|')[1]) < ms) this.signalDays.delete(key);
    }
  }

  /**
   * A day's data from `cache` under `key`: kept for good once the day is final; before that read again when the
   * count in the database (`countNow`) is not the one it was read with (`countOf` of what was read).
   */
  private async keptDay<K, T>(
    cache: Map<K, Promise<Cached<T>>>,
    key: K,
    final: boolean,
    countNow: () => Promise<string>,
    read: () => Promise<T>,
    countOf: (value: T) => number,
  ): Promise<Cached<T>> {
    const cached = await cache.get(key)?.catch(() => undefined);
    if (cached?.version === '') return cached;
    if (cached && (await countNow()) === cached.version) {
      if (final) cache.set(key, Promise.resolve({ ...cached, version: '' }));
      return cached;
    }
    const reading = read().then((value) => ({ value, version: final ? '' : String(countOf(value)) }));
    cache.set(key, reading);
    reading.catch(() => cache.delete(key));
    return reading;
  }

  /** The day's candles. */
  private candleDay(start: number, final: boolean): Promise<Cached<CandleDay>> {
    const onDay = eq(marketCandleDays.day, new Date(start));
    return this.keptDay(
      this.candleDays,
      start,
      final,
      async () => {
        const [row] = await this.db
          .select({
            value: sql<string>`coalesce(sum(cardinality(array_remove(${marketCandleDays.close}, null))), 0)`,
          })
          .from(marketCandleDays)
          .where(onDay);
        return String(row?.value ?? 0);
      },
      () => this.readCandleDay(onDay),
      (day) => day.count,
    );
  }

  private async readCandleDay(onDay: ReturnType<typeof eq>): Promise<CandleDay> {
    const rows = await this.db
      // As JSON arrays of texts: the exchange's decimals kept, a gap a JSON null (drizzle reads a NULL element of a
      // numeric[] as the text "NULL").
      .select({
        symbol_uuid: marketCandleDays.symbol_uuid,
        high: sql<(string | null)[]>`array_to_json(${marketCandleDays.high}::text[])`,
        low: sql<(string | null)[]>`array_to_json(${marketCandleDays.low}::text[])`,
        close: sql<(string | null)[]>`array_to_json(${marketCandleDays.close}::text[])`,
      })
      .from(marketCandleDays)
      .where(onDay);
    const bySymbol = new Map<string, { list: Float64Array; scale: number }>();
    let stored = 0;
    for (const row of rows) {
      const { high, low, close } = row as {
        high: (string | null)[];
        low: (string | null)[];
        close: (string | null)[];
      };
      let scale = 0;
      for (const list of [high, low, close]) {
        for (const price of list) if (price !== null) scale = Math.max(scale, decimalsIn(price));
      }
      const values = new Float64Array(new SharedArrayBuffer(MINUTES_PER_DAY * CANDLE_FIELDS * 8)).fill(
        Number.NaN,
      );
      for (let minute = 0; minute < MINUTES_PER_DAY; minute++) {
        const [h, l, c] = [high[minute], low[minute], close[minute]];
        if (h === null || h === undefined || l === null || l === undefined || c === null || c === undefined)
          continue;
        const slot = minute * CANDLE_FIELDS;
        values[slot] = scaledValue(h, scale);
        values[slot + 1] = scaledValue(l, scale);
        values[slot + 2] = scaledValue(c, scale);
        stored += 1;
      }
      bySymbol.set(row.symbol_uuid, { list: values, scale });
    }
    return { bySymbol, count: stored };
  }

  /** The platform's signals of the day, in the replay's order. */
  private signalDay(platformUuid: string, start: number, final: boolean): Promise<Cached<StoredSignal[]>> {
    const range = and(
      eq(signals.platform_uuid, platformUuid),
      gte(signals.created_at, new Date(start)),
      lt(signals.created_at, new Date(start + DAY_MS)),
    );
    return this.keptDay(
      this.signalDays,
      `${platformUuid}|${start}`,
      final,
      async () => {
        const [row] = await this.db.select({ value: count() }).from(signals).where(range);
        return String(row?.value ?? 0);
      },
      () => this.readSignalDay(range),
      (list) => list.length,
    );
  }

  private async readSignalDay(range: ReturnType<typeof and>): Promise<StoredSignal[]> {
    const rows = await this.db
      .select({
        signal_uuid: signals.signal_uuid,
        symbol_uuid: signals.symbol_uuid,
        neuron_uuid: signals.neuron_uuid,
        direction: signals.direction,
        price_enter: signals.price_enter,
        accuracy: signals.accuracy,
        created_at: signals.created_at,
      })
      .from(signals)
      .where(range);
    // The engine makes a step's signals in its neurons' order.
    const neuronOrder = new Map(NEURONS.map((neuron, index) => [neuron.neuron_uuid, index]));
    return rows
      .map((row) => ({
        t: row.created_at.getTime(),
        symbolUuid: row.symbol_uuid,
        u: row.signal_uuid,
        n: row.neuron_uuid,
        d: row.direction as SignalDirection,
        p: row.price_enter,
        a: row.accuracy,
      }))
      .sort(
        (a, b) =>
          a.t - b.t ||
          (neuronOrder.get(a.n) ?? Number.MAX_SAFE_INTEGER) -
            (neuronOrder.get(b.n) ?? Number.MAX_SAFE_INTEGER),
      );
  }
}
