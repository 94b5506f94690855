// The exchange budget's breaker shared by the instances behind one egress address (issue 33; docs/relay.md
// "The exchange budget"). Several instances exist only on PostgreSQL (server.ts); each runs this: every
// SYNC_MS it writes the pauses its own budget started (an exchange's 429 or 418 with its Retry-After) and
// reads those of the others, so one instance's 429 stops all of them within a second. The weight itself needs
// no sharing: every answer's X-MBX-USED-WEIGHT-1M is the exchange's count of the address, all instances
// included, and each budget follows it.
import { gt, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { exchangePauses } from '../db/schema';
import type { BudgetLog, ExchangeBudget } from './exchange-budget';

const SYNC_MS = 1_000;

export class ExchangePauseSharing {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly budget: ExchangeBudget,
    private readonly log: BudgetLog,
  ) {}

  /** Writes this instance's new pauses, then takes every pause still running into the budget. */
  async sync(): Promise<void> {
    for (const [origin, pause] of this.budget.takeTripped()) {
      await this.db
        .insert(exchangePauses)
        .values({ exchange_origin: origin, paused_until: new Date(pause.until), status: pause.status })
        .onConflictDoUpdate({
          target: exchangePauses.exchange_origin,
          set: {
            paused_until: sql`greatest(${exchangePauses.paused_until}, excluded.paused_until)`,
            status: sql`excluded.status`,
          },
        });
    }
    const running = await this.db
      .select()
      .from(exchangePauses)
      .where(gt(exchangePauses.paused_until, new Date(this.budget.now())));
    for (const row of running) this.budget.block(row.exchange_origin, row.paused_until.getTime(), row.status);
  }

  start(): this {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sync()
        .catch((error: unknown) => this.log.warn({ err: error }, 'exchange pauses: sync failed'))
        .finally(() => (this.running = undefined));
    }, SYNC_MS);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
