// GET /api/trade/get_trades/open/ from memory (issue 9, "p99 under 20 ms at 500 requests a second"). A trader's
// SPA asks for the open list every second and on every reconnect; reading the joined rows from PGlite costs
// milliseconds of this process's one thread. So per user this view keeps:
// - the rows (trade + symbol), read once and dropped whenever this process writes one of the user's trades
//   (services/trades.ts announceTradeWrite), and
// - the answer's JSON, built from those rows and the monitor's live fields, checked against the shared zod
//   contract once, and rebuilt only when the rows were dropped or the monitor's liveRevision of that user moved
//   (a price, a UI status, a trade watched or forgotten).
// A read that overlaps a write never stores what it read (generation check). Users are kept least recently
// used first out, at most MAX_USERS. Decision and figures: docs/server.md "Open trades from memory".
import { LRUCache } from 'lru-cache';
import { tradeListAnswer } from '../../../contracts';
import { ChangeClock } from '../lib/change-clock';
import type { Database } from '../db';
import type { LiveTrades } from './live-trades';
import { listOpenTrades, onTradeWrite, toWireTrade, type TradeWithSymbol } from './trades';

/** Users whose open list is kept; the least recently asked one goes first. */
const MAX_USERS = 5000;

interface Entry {
  rows?: TradeWithSymbol[];
  /** The JSON answer and the monitor revision it was built at. */
  body?: string;
  revision?: number;
}

export class OpenTradesView {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_USERS });
  /** Per user: moved by every write, so a read that overlaps one is not kept. */
  private readonly generations = new ChangeClock(MAX_USERS);
  /** Bumped by invalidateAll, for the same purpose. */
  private epoch = 0;
  private readonly stopListening: () => void;

  constructor(
    private readonly db: Database,
    private readonly monitor: LiveTrades,
  ) {
    this.stopListening = onTradeWrite(db, (userUuid) => this.invalidate(userUuid));
  }

  /** Forgets what is kept of a user (a trade of theirs was written here or, announced, elsewhere). */
  invalidate(userUuid: string): void {
    this.generations.change(userUuid);
    this.entries.delete(userUuid);
  }

  /** Forgets every user (the bus was down: writes of other instances may have been missed). */
  invalidateAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  /** The answer of GET /trade/get_trades/open/ for the user, serialised (`{"result":{"trade_list":[…]}}`). */
  async body(userUuid: string): Promise<string> {
    const revision = this.monitor.liveRevision(userUuid);
    const kept = this.entries.get(userUuid);
    if (kept?.body !== undefined && kept.revision === revision) return kept.body;
    const entry = kept ?? {};
    if (!entry.rows) {
      const generation = this.generations.of(userUuid);
      const epoch = this.epoch;
      const rows = await listOpenTrades(this.db, userUuid);
      if (this.generations.of(userUuid) !== generation || this.epoch !== epoch) {
        return this.serialise(rows);
      }
      entry.rows = rows;
      this.entries.set(userUuid, entry);
    }
    entry.body = this.serialise(entry.rows);
    entry.revision = revision;
    return entry.body;
  }

  close(): void {
    this.stopListening();
    this.entries.clear();
  }

  private serialise(rows: TradeWithSymbol[]): string {
    const trade_list = rows.map(({ trade, symbol }) =>
      toWireTrade(trade, symbol, this.monitor.calculated(trade.trade_uuid)),
    );
    return JSON.stringify(tradeListAnswer.parse({ result: { trade_list } }));
  }
}
