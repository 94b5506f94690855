// Whether the login an access token names (`sid`, its refresh token family) is still active, asked on every
// authenticated request so that a token stops working at logout instead of living out its 15 minutes. The
// answer is the database's (services/sessions.ts), so it holds across several instances on one PostgreSQL:
// the instance that handles a logout refuses the login's tokens at once, the others once their cached "active"
// answer is older than SESSION_CHECK_CACHE_MS. A revoked login never becomes active again, so that answer is
// kept. The cache spares the database one query per request (the open-trades poll is the hot path).
import { LRUCache } from 'lru-cache';
import type { SessionStore } from './sessions';

/** How long an "active" answer is trusted: the most another instance lets a logged-out token through. */
export const SESSION_CHECK_CACHE_MS = 2_000;
const CACHED_LOGINS = 50_000;

export class SessionCheck {
  private readonly activeSince = new LRUCache<string, number>({ max: CACHED_LOGINS });
  private readonly revoked = new LRUCache<string, true>({ max: CACHED_LOGINS });
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly sessions: SessionStore,
    private readonly clock: () => number = Date.now,
  ) {}

  async isActive(sid: string): Promise<boolean> {
    if (this.revoked.has(sid)) return false;
    const checkedAt = this.activeSince.get(sid);
    if (checkedAt !== undefined && this.clock() - checkedAt < SESSION_CHECK_CACHE_MS) return true;
    let pending = this.asking.get(sid);
    if (!pending) {
      pending = this.sessions.isLoginActive(sid).finally(() => this.asking.delete(sid));
      this.asking.set(sid, pending);
    }
    const active = await pending;
    if (active) this.activeSince.set(sid, this.clock());
    else this.forget(sid);
    return active;
  }

  /** The login was revoked here: its tokens are refused from now on. */
  forget(sid: string): void {
    this.activeSince.delete(sid);
    this.revoked.set(sid, true);
  }
}
