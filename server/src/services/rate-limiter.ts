// Failed-attempt limiter kept in the database, so every instance sharing it counts the same attempts
// (DESIGN.md "Scale"). Used for logins (failures per e-mail and per client address, successes per e-mail) and
// trade token PINs (per user and platform). Logins count an attempt before its outcome is known (reserve, then settle): checking "blocked?"
// first and counting failures after a 0.4 s password hash let every one of 30 simultaneous guesses through.
import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { rateLimitEvents } from '../db/schema';

export interface RateLimit {
  /** Failures allowed within the window; the next attempt is refused. */
  maxFailures: number;
  windowMs: number;
}

/** An attempt counted before its outcome: settle it as a failure (kept), a success or not tried (released). */
export interface Reservation {
  readonly subject: string;
  readonly id: number;
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

  private async countSince(subject: string): Promise<number> {
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
    return row?.failures ?? 0;
  }

  async isBlocked(subject: string): Promise<boolean> {
    return (await this.countSince(subject)) >= this.limit.maxFailures;
  }

  /**
   * Counts an attempt now, as a failure until settled; undefined (nothing counted) when the attempts before it
   * in the window, failed or still running, reach the limit. Insert and count run in one transaction under an
   * advisory lock of the subject, so on PostgreSQL too (several connections, several instances) every attempt
   * sees all the earlier ones: of many at once exactly the first maxFailures get a reservation.
   */
  async reserve(subject: string): Promise<Reservation | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${this.scope}:${subject}`}))`);
      const [row] = await tx
        .insert(rateLimitEvents)
        .values({ scope: this.scope, subject, created_at: new Date(this.clock()) })
        .returning({ id: rateLimitEvents.id });
      const reservation = { subject, id: row!.id };
      const [earlier] = await tx
        .select({ attempts: count() })
        .from(rateLimitEvents)
        .where(
          and(
            eq(rateLimitEvents.scope, this.scope),
            eq(rateLimitEvents.subject, subject),
            gt(rateLimitEvents.created_at, this.windowStart()),
            lt(rateLimitEvents.id, reservation.id),
          ),
        );
      if ((earlier?.attempts ?? 0) < this.limit.maxFailures) return reservation;
      await tx.delete(rateLimitEvents).where(eq(rateLimitEvents.id, reservation.id));
      return undefined;
    });
  }

  /**
   * Seconds until the oldest event of the subject still in the window leaves it (at least 1): the Retry-After
   * of a refusal, when the next attempt may be counted.
   */
  async retryAfterS(subject: string): Promise<number> {
    const [row] = await this.db
      .select({ oldest: min(rateLimitEvents.created_at) })
      .from(rateLimitEvents)
      .where(
        and(
          eq(rateLimitEvents.scope, this.scope),
          eq(rateLimitEvents.subject, subject),
          gt(rateLimitEvents.created_at, this.windowStart()),
        ),
      );
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : this.clock();
    return Math.max(1, Math.ceil((oldest + this.limit.windowMs - this.clock()) / 1000));
  }

  /** The attempt failed: it stays counted for the window. */
  async settleFailure(_reservation: Reservation): Promise<void> {
    await this.prune();
  }

  /** The attempt was not tried (or must not count): its reservation is dropped. */
  async release(reservation: Reservation): Promise<void> {
    await this.db.delete(rateLimitEvents).where(eq(rateLimitEvents.id, reservation.id));
  }

  async recordFailure(subject: string): Promise<void> {
    await this.db
      .insert(rateLimitEvents)
      .values({ scope: this.scope, subject, created_at: new Date(this.clock()) });
    await this.prune();
  }

  async reset(subject: string): Promise<void> {
    await this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.scope, this.scope), eq(rateLimitEvents.subject, subject)));
  }

  /** Old events no longer count; dropping them here keeps the table small without a timer. */
  private async prune(): Promise<void> {
    await this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.scope, this.scope), lt(rateLimitEvents.created_at, this.windowStart())));
  }
}
