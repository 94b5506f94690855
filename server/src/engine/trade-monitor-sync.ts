// The trade monitor across instances (docs/server.md "Several instances"): every instance's monitor watches
// every open trade, so what one does to its watch list it tells the others over the bus — a trade to watch
// (they read it from the database), one to forget, a UI status the leader marked or a reset cleared. The news
// of the others is applied one after the other; after the bus lost some, resync() reads the open trades again.
// trade-monitor.ts keeps the trades and their rules; this module only carries what changed between instances.
import { and, eq, isNotNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { TradeStatus, tradeUiStatus, type TradeUiStatus } from '../../../contracts';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { trades } from '../db/schema-trades';
import type { EventBus } from '../services/event-bus';
import type { WatchableTrade } from '../services/live-trades';

/** Bus topic of the monitor: a trade to watch (read it), to forget, or whose UI status is now this. */
const MONITOR_TOPIC = 'trade_monitor';
const monitorNews = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('watch'), trade_uuid: z.uuid() }),
  z.object({ kind: z.literal('forget'), trade_uuid: z.uuid() }),
  z.object({ kind: z.literal('ui_status'), trade_uuid: z.uuid(), trade_ui_status: tradeUiStatus.nullable() }),
]);
export type MonitorNews = z.infer<typeof monitorNews>;

/** What the news does to this instance's monitor (its own watch list, never told on). */
export interface MonitorHere {
  /** The trades watched here. */
  watched(): Iterable<string>;
  track(row: WatchableTrade): void;
  forget(tradeUuid: string): void;
  setUiStatus(tradeUuid: string, status: TradeUiStatus | null): void;
}

export interface MonitorSyncOptions {
  db: Database;
  bus: EventBus;
  log: { warn(obj: object, msg: string): void };
  here: MonitorHere;
}

export class MonitorSync {
  /** What the other instances said, applied one after the other. */
  private news: Promise<void> = Promise.resolve();
  private stopListening: (() => void) | undefined;

  constructor(private readonly options: MonitorSyncOptions) {}

  /** Listens to the other instances' news. */
  start(): void {
    this.stopListening = this.options.bus.subscribe(MONITOR_TOPIC, (payload) => this.onNews(payload));
  }

  /** Stops listening; resolves when the news already received is applied. */
  async close(): Promise<void> {
    this.stopListening?.();
    await this.news;
  }

  /** Tells the other instances. */
  tell(news: MonitorNews): void {
    this.options.bus.publish(MONITOR_TOPIC, news);
  }

  /**
   * Reads the open trades again: watches the ones this instance did not know, forgets the ones no longer open
   * (after the bus lost news of the other instances). Watched trades keep their live state.
   */
  resync(): Promise<void> {
    return this.queue(async () => {
      const { here } = this.options;
      const rows = await openTradeRows(this.options.db);
      const open = new Set(rows.map((row) => row.trade_uuid));
      const watched = new Set(here.watched());
      for (const row of rows) if (!watched.has(row.trade_uuid)) here.track(row);
      for (const tradeUuid of watched) if (!open.has(tradeUuid)) here.forget(tradeUuid);
    });
  }

  private onNews(payload: unknown): void {
    const parsed = monitorNews.safeParse(payload);
    if (parsed.success) void this.queue(() => this.apply(parsed.data));
  }

  private queue(task: () => Promise<void>): Promise<void> {
    this.news = this.news.then(task).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'trade monitor: news of another instance failed');
    });
    return this.news;
  }

  /** What another instance did to a trade, done here. */
  private async apply(news: MonitorNews): Promise<void> {
    const { here } = this.options;
    if (news.kind === 'forget') {
      here.forget(news.trade_uuid);
    } else if (news.kind === 'watch') {
      // Read from the database: a trade closed meanwhile is not watched.
      const [row] = await openTradeRows(this.options.db, eq(trades.trade_uuid, news.trade_uuid));
      if (row) here.track(row);
      else here.forget(news.trade_uuid);
    } else {
      here.setUiStatus(news.trade_uuid, news.trade_ui_status);
    }
  }
}

/** Open trades with a known position and their symbol pair (all, or those `filter` selects). */
export async function openTradeRows(db: Database, filter?: SQL): Promise<WatchableTrade[]> {
  const rows = await db
    .select({ trade: trades, symbol_pair: symbols.symbol_pair })
    .from(trades)
    .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
    .where(
      and(
        eq(trades.trade_status, TradeStatus.OPEN),
        eq(trades.trade_phase, 'ready'),
        isNotNull(trades.trade_open_price),
        isNotNull(trades.trade_quantity),
        filter,
      ),
    );
  return rows.map(({ trade, symbol_pair }) => ({ ...trade, symbol_pair }));
}
