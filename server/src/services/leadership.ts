// Which instance does the work that must run once (docs/server.md "Several instances"): the signal engine,
// the backfill, the house follower, the statistics recorder and the trade monitor's UI statuses. The leader is
// the instance that holds a PostgreSQL advisory lock on a connection of its own; PostgreSQL releases the lock
// when that connection ends, so when the leader dies (or loses its database) another instance's next attempt
// takes it. Instances that do not lead try again every retryMs; the leader checks its connection as often
// and steps down (stops the work) as soon as the connection is gone, before another instance can lead.
// With PGlite there is one process: it leads from the start (SoleLeadership).
import pg from 'pg';

export interface LeaderDuties {
  /** Starts the leader's work; a failure releases the lock so that another instance may try. */
  lead(): Promise<void>;
  /** Stops it (the lock is lost, or the process shuts down). */
  stepDown(): Promise<void>;
}

export interface Leadership {
  readonly leading: boolean;
  /** Makes the first attempt (and, when it wins, runs lead()); then keeps trying in the background. */
  start(duties: LeaderDuties): Promise<void>;
  /** Stops the work and gives up the lead. */
  close(): Promise<void>;
}

/** One process alone on its database: it leads from the start. */
export class SoleLeadership implements Leadership {
  private duties: LeaderDuties | undefined;
  leading = false;

  async start(duties: LeaderDuties): Promise<void> {
    this.duties = duties;
    await duties.lead();
    this.leading = true;
  }

  async close(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    await this.duties?.stepDown();
  }
}

/** Key of the leader's advisory lock (the migrations take 5_617_293_001). */
const LEADER_LOCK_KEY = 5_617_293_002;
const LEADER_RETRY_MS = 5000;
const CHECK_TIMEOUT_MS = 10_000;

export interface PgLeadershipOptions {
  databaseUrl: string;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  retryMs?: number;
  key?: number;
}

export class PgLeadership implements Leadership {
  leading = false;
  private client: pg.Client | undefined;
  private duties: LeaderDuties | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Attempts and step-downs run one after the other. */
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: PgLeadershipOptions) {}

  private get key(): number {
    return this.options.key ?? LEADER_LOCK_KEY;
  }

  async start(duties: LeaderDuties): Promise<void> {
    this.duties = duties;
    await this.next(() => this.attempt());
    this.timer = setInterval(
      () => void this.next(() => this.attempt()),
      this.options.retryMs ?? LEADER_RETRY_MS,
    );
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.next(async () => {
      await this.stepDown('shutting down');
      const client = this.client;
      this.client = undefined;
      // Ending the session releases the lock at once.
      await client?.end().catch(() => undefined);
    });
  }

  private next(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(task).catch((error: unknown) => {
      this.options.log.warn({ message: (error as Error).message }, 'leader: an attempt failed');
    });
    return this.chain;
  }

  /** Connects when needed; takes the lock when free; while leading, checks that the connection lives. */
  private async attempt(): Promise<void> {
    if (this.closed) return;
    const client = this.client ?? (await this.connect());
    if (!client) return;
    if (this.leading) {
      try {
        await client.query('select 1');
      } catch (error) {
        await this.lose(client, error as Error);
      }
      return;
    }
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      this.key,
    ]);
    if (!rows[0]?.locked || this.client !== client) return;
    this.leading = true;
    this.options.log.info({}, 'leader: this instance leads (signals, house, statistics)');
    try {
      await this.duties?.lead();
    } catch (error) {
      this.options.log.error({ err: error }, 'leader: starting the leader’s work failed; giving up the lead');
      await this.stepDown('start failed');
      await client.query('select pg_advisory_unlock($1)', [this.key]).catch(() => undefined);
    }
  }

  private async connect(): Promise<pg.Client | undefined> {
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      keepAlive: true,
      // A check that hangs (the network, not the database, is gone) counts as a lost connection.
      query_timeout: CHECK_TIMEOUT_MS,
      application_name: `signaldesk-leader pid=${process.pid}`,
    });
    // A lost connection means a lost lock: step down at once, not only at the next check.
    client.on('error', (error) => void this.next(() => this.lose(client, error)));
    client.on('end', () => void this.next(() => this.lose(client)));
    try {
      await client.connect();
    } catch (error) {
      this.options.log.warn({ message: (error as Error).message }, 'leader: the database is not reachable');
      await client.end().catch(() => undefined);
      return undefined;
    }
    this.client = client;
    return client;
  }

  private async lose(client: pg.Client, error?: Error): Promise<void> {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    if (this.leading) {
      this.options.log.warn(
        { message: error?.message },
        'leader: the lock’s connection was lost; stepping down',
      );
      await this.stepDown('connection lost');
    }
  }

  private async stepDown(reason: string): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    try {
      await this.duties?.stepDown();
    } catch (error) {
      this.options.log.warn({ err: error, reason }, 'leader: stopping the leader’s work failed');
    }
    this.options.log.info({ reason }, 'leader: this instance no longer leads');
  }
}
