// Two trade monitors and socket hubs on one database, joined by a bus, as two instances are
// (docs/server.md "Several instances"): the follower watches what the leader watches, never marks a UI
// status itself but shows the leader's, tells the leader of a reset, and forgets a closed trade; the owner's
// socket on the follower's hub gets the leader's push. The bus here hands a message over at once (the real one,
// services/event-bus.ts, has its own test on PostgreSQL).
// Prices: a BUY of 0.002 at 97000 with 10× leverage has ROE = (price / 97000 − 1) × 1000 %.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { tradeUpdatedEvent } from '../../../contracts';
import { trades } from '../db/schema-trades';
import { SocketHub } from '../services/socket-hub';
import type { BusHandler, EventBus } from '../services/event-bus';
import { createClientTrade, createTestApp, signUpAndLogIn, type TestApp } from '../../test/test-app';
import { TradeMonitor } from './trade-monitor';

/** One end of a pair: what it publishes, the other end's subscribers get (as JSON, as over the wire). */
class PairedBus implements EventBus {
  readonly instanceId = crypto.randomUUID();
  peer: PairedBus | undefined;
  private readonly handlers = new Map<string, Set<BusHandler>>();

  publish(topic: string, payload: unknown): void {
    const copy = JSON.parse(JSON.stringify(payload)) as unknown;
    for (const handler of this.peer?.handlers.get(topic) ?? []) handler(copy);
  }

  subscribe(topic: string, handler: BusHandler): () => void {
    const own = this.handlers.get(topic) ?? new Set<BusHandler>();
    own.add(handler);
    this.handlers.set(topic, own);
    return () => own.delete(handler);
  }

  onResume(): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {}
}

/** A socket the hub can hold: it records the frames sent to it. */
function fakeSocket(frames: string[]): WebSocket {
  return {
    readyState: 1,
    OPEN: 1,
    send: (frame: string) => frames.push(frame),
    on: () => undefined,
    ping: () => undefined,
    terminate: () => undefined,
  } as unknown as WebSocket;
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
let leader: TradeMonitor;
let follower: TradeMonitor;
const followerFrames: string[] = [];
const log = { warn: () => undefined };

beforeAll(async () => {
  t = await createTestApp();
  trader = await signUpAndLogIn(t.app, 'instances');
  const [busA, busB] = [new PairedBus(), new PairedBus()];
  busA.peer = busB;
  busB.peer = busA;
  const [hubA, hubB] = [new SocketHub(busA), new SocketHub(busB)];
  hubB.add(fakeSocket(followerFrames), trader.user_uuid);
  leader = new TradeMonitor({ db: t.db, hub: hubA, log, bus: busA });
  follower = new TradeMonitor({ db: t.db, hub: hubB, log, bus: busB, leading: false });
  await leader.start();
  await follower.start();
});
afterAll(async () => {
  await leader?.close();
  await follower?.close();
  await t?.close();
});

describe('trade monitors of two instances', () => {
  it('follow the leader: watch, UI status, reset and forget', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'ADAUSDT' });
    // Created through the test app (whose own monitor watches it too); the leader watches it as the create
    // route of its instance would.
    const [stored] = await t.db.select().from(trades).where(eq(trades.trade_uuid, trade.trade_uuid));
    leader.watch({ ...stored!, symbol_pair: 'ADAUSDT' });
    await until(() => follower.calculated(trade.trade_uuid) !== undefined, 'the follower to watch the trade');

    // Take profit (ROE ≥ 5 %) on the follower's price alone: it recalculates but does not mark.
    follower.onPrice('ADAUSDT', '98000');
    expect(follower.calculated(trade.trade_uuid)).toMatchObject({
      trade_current_price: '98000',
      trade_ui_status: null,
    });
    expect(followerFrames).toEqual([]);

    // The leader marks; the follower shows it, and the owner's socket on the follower's hub is told.
    leader.onPrice('ADAUSDT', '98000');
    expect(leader.calculated(trade.trade_uuid)?.trade_ui_status).toBe('TAKE_PROFIT');
    await until(
      () => follower.calculated(trade.trade_uuid)?.trade_ui_status === 'TAKE_PROFIT',
      'the follower to show the mark',
    );
    const pushed = followerFrames.map((frame) => tradeUpdatedEvent.parse(JSON.parse(frame)));
    expect(pushed.map((event) => event.message.trade_update_calculated.trade_ui_status)).toEqual([
      'TAKE_PROFIT',
    ]);

    // A reset on the follower (update_trade_status reached it) clears the leader's status too.
    await follower.resetUiStatus(trade.trade_uuid);
    await until(() => leader.calculated(trade.trade_uuid)?.trade_ui_status === null, 'the leader to reset');

    // Closed on the leader's instance: the follower forgets it.
    leader.forget(trade.trade_uuid);
    await until(() => follower.calculated(trade.trade_uuid) === undefined, 'the follower to forget');
  });

  it('resync: a follower that missed news reads the open trades again', async () => {
    const trade = await createClientTrade(t, trader.headers, { symbol_pair: 'DOTUSDT' });
    expect(follower.calculated(trade.trade_uuid)).toBeUndefined();
    await follower.resync();
    expect(follower.calculated(trade.trade_uuid)).toBeDefined();
  });
});
