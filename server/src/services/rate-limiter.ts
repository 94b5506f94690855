// Failed-attempt limiter kept in the database, so every instance sharing it counts the same attempts
// (DESIGN.md "Scale"). Used for logins (per e-mail) and trade token PINs (per user and platform).
import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../db';
import { rateLimitEvents } from '../db/schema';

export interface RateLimit {
  /** Failures allowed within the window; the next attempt is refused. */
  maxFailures: number;
  windowMs: number;
}

export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly scope: string,
    private readonly limit: RateLimit,
    private readonly clock: () => number = Date.now,
  ) {}

  private windowStart(): Date {
    return new Date(this.clock() - this.limit.windowMs);
  }

  async isBlocked(subject: string): Promise<boolean> {
    const [row] = await this.db
      .select({ failures: count() })
      .from(rateLimitEvents)
      .where(
        and(
          eq(rateLimitEvents.scope, this.scope),
          eq(rateLimitEvents.subject, subject),
          gt(rateLimitEvents.created_at, this.windowStart()),
        ),
      );
    return (row?.failures ?? 0) >= this.limit.maxFailures;
  }

  async recordFailure(subject: string): Promise<void> {
    await this.db
      .insert(rateLimitEvents)
      .values({ scope: this.scope, subject, created_at: new Date(this.clock()) });
    // Old events no longer count; dropping them here keeps the table small without a timer.
    await this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.scope, this.scope), lt(rateLimitEvents.created_at, this.windowStart())));
  }

  async reset(subject: string): Promise<void> {
    await this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.scope, this.scope), eq(rateLimitEvents.subject, subject)));
  }
}
