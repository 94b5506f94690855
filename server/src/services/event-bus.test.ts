// The event bus and the lead between instances on one PostgreSQL (TEST_DATABASE_URL, as scripts/with-postgres
// provides; skipped without one): each "instance" here is a bus or a leadership of its own on a scratch
// database. Waits are for arrivals, with generous limits; nothing is asserted about how long anything took.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database';
import { cutUtf8, LocalEventBus, NOTIFY_MAX_BYTES, PgEventBus } from './event-bus';
import { PgLeadership } from './leadership';

const serverUrl = process.env.TEST_DATABASE_URL;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function until(condition: () => boolean | Promise<boolean>, what: string, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('cutUtf8', () => {
  it('cuts within the byte limit, never inside a character, and joins back to the text', () => {
    const text = `${'a'.repeat(5000)}ї€😀${'ґ'.repeat(4000)}😀`.repeat(3);
    const pieces = cutUtf8(text, 1000);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) {
      expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(1000);
      expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
    }
  });
});

describe('LocalEventBus', () => {
  it('has no one to tell: its own subscribers never hear what it publishes', () => {
    const bus = new LocalEventBus();
    const heard: unknown[] = [];
    bus.subscribe('topic', (payload) => heard.push(payload));
    bus.publish('topic', { a: 1 });
    expect(heard).toEqual([]);
  });
});

describe.skipIf(!serverUrl)('PgEventBus on PostgreSQL (TEST_DATABASE_URL)', () => {
  let scratch: ScratchDatabase;
  let handles: DatabaseHandle[] = [];
  let buses: PgEventBus[] = [];

  beforeEach(async () => {
    scratch = await createScratchDatabase(serverUrl!);
  });
  afterEach(async () => {
    for (const bus of buses) await bus.close();
    for (const handle of handles) await handle.close();
    buses = [];
    handles = [];
    await scratch.drop();
  });

  async function instance() {
    const handle = await openDatabase({ databaseUrl: scratch.url });
    handles.push(handle);
    const bus = await PgEventBus.start({ db: handle.db, databaseUrl: scratch.url, log: quiet });
    buses.push(bus);
    const heard: { topic: string; payload: unknown }[] = [];
    for (const topic of ['a', 'b']) bus.subscribe(topic, (payload) => heard.push({ topic, payload }));
    return { bus, heard };
  }

  it('carries a message to the other instances, in order, and not back to its sender', async () => {
    const [one, two, three] = [await instance(), await instance(), await instance()];
    for (let i = 0; i < 50; i += 1) one.bus.publish(i % 2 ? 'a' : 'b', { i });
    two.bus.publish('a', { from: 'two' });
    await until(() => two.heard.length === 50 && three.heard.length === 51, 'the messages');
    const expected = Array.from({ length: 50 }, (_, i) => ({ topic: i % 2 ? 'a' : 'b', payload: { i } }));
    expect(two.heard).toEqual(expected);
    expect(three.heard.filter((item) => !('from' in (item.payload as object)))).toEqual(expected);
    await one.bus.flushed();
    await until(() => one.heard.length === 1, 'the message of two');
    expect(one.heard).toEqual([{ topic: 'a', payload: { from: 'two' } }]);
  });

  it('carries a message longer than a notification may be, in parts', async () => {
    const [one, two] = [await instance(), await instance()];
    const big = { text: `${'x'.repeat(3 * NOTIFY_MAX_BYTES)}ї😀${'ґ'.repeat(NOTIFY_MAX_BYTES)}` };
    one.bus.publish('a', big);
    one.bus.publish('b', { after: true });
    await until(() => two.heard.length === 2, 'the long message');
    expect(two.heard).toEqual([
      { topic: 'a', payload: big },
      { topic: 'b', payload: { after: true } },
    ]);
  });

  it('listens again after its connection was ended, and says so', async () => {
    const [one, two] = [await instance(), await instance()];
    let resumed = 0;
    two.bus.onResume(() => (resumed += 1));
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and application_name = $1`,
        [`signaldesk-bus pid=${process.pid}`],
      );
    } finally {
      await admin.end();
    }
    await until(() => resumed >= 1, 'the bus to listen again');
    // Every listener of this process was ended (both buses): once both are back, messages flow again.
    await until(async () => {
      one.bus.publish('a', { probe: true });
      await one.bus.flushed();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return two.heard.some((item) => (item.payload as { probe?: boolean }).probe);
    }, 'a message after the reconnect');
  });
});

describe.skipIf(!serverUrl)('PgLeadership on PostgreSQL (TEST_DATABASE_URL)', () => {
  let scratch: ScratchDatabase;
  const leaderships: PgLeadership[] = [];

  beforeEach(async () => {
    scratch = await createScratchDatabase(serverUrl!);
  });
  afterEach(async () => {
    for (const leadership of leaderships.splice(0)) await leadership.close();
    await scratch.drop();
  });

  function candidate(name: string, events: string[]) {
    const leadership = new PgLeadership({ databaseUrl: scratch.url, log: quiet, retryMs: 100 });
    leaderships.push(leadership);
    const duties = {
      lead: async () => void events.push(`${name} leads`),
      stepDown: async () => void events.push(`${name} steps down`),
    };
    return { leadership, start: () => leadership.start(duties) };
  }

  it('lets one instance lead; another takes over when it stops', async () => {
    const events: string[] = [];
    const first = candidate('first', events);
    const second = candidate('second', events);
    await first.start();
    await second.start();
    expect(first.leadership.leading).toBe(true);
    expect(second.leadership.leading).toBe(false);
    // A few retries of the second change nothing while the first leads.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events).toEqual(['first leads']);

    await first.leadership.close();
    await until(() => second.leadership.leading, 'the second to lead');
    expect(events).toEqual(['first leads', 'first steps down', 'second leads']);
  });

  it('steps down when its connection is gone, before another instance leads', async () => {
    const events: string[] = [];
    const first = candidate('first', events);
    await first.start();
    expect(first.leadership.leading).toBe(true);
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and application_name = $1`,
        [`signaldesk-leader pid=${process.pid}`],
      );
    } finally {
      await admin.end();
    }
    await until(() => events.includes('first steps down'), 'the first to step down');
    const second = candidate('second', events);
    await second.start();
    // The lock is free again: whichever tries first leads, and only one does.
    await until(() => first.leadership.leading || second.leadership.leading, 'a leader again');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([first.leadership.leading, second.leadership.leading].filter(Boolean)).toHaveLength(1);
  });
});
