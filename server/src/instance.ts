// The live work of one Signaldesk process, wired by buildApp (app.ts) when server.ts asks for it (AppDeps
// instance): every instance relays its own feed's prices and every new signal to its own sockets, and reads the
// open trades again after the bus lost news of the others; the one that leads (services/leadership.ts) runs
// the leader's duties (engine/leader-duties.ts: the signal engine, the house account, the statistics). Like
// app.ts, this is wiring: it may import every layer, and no layer imports it.
import type { Database } from './db';
import { leaderDuties, type LeaderDutiesOptions } from './engine/leader-duties';
import { listenForSignals, startPriceRelay } from './engine/live-core';
import type { MarketFeed } from './engine/market-feed';
import type { TradeMonitor } from './engine/trade-monitor';
import type { EventBus } from './services/event-bus';
import type { Leadership } from './services/leadership';
import type { PaperExchangeLink } from './services/paper-exchange-link';
import type { SecretBox } from './services/secret-box';
import type { SocketHub } from './services/socket-hub';

export interface InstanceOptions {
  leadership: Leadership;
  box: SecretBox;
  /** The paper exchange the house account trades on; none when EXCHANGE_URL names another exchange. */
  paper: PaperExchangeLink | undefined;
  log: LeaderDutiesOptions['log'];
}

interface Built {
  app: LeaderDutiesOptions['app'];
  db: Database;
  feed: MarketFeed;
  hub: SocketHub;
  bus: EventBus;
  monitor: TradeMonitor;
}

/**
 * Starts the instance's live work; the first attempt at the lead runs before the answer (so a leader's backfill
 * runs before the server listens).
 */
export interface Instance {
  /** Stops the live work: the lead first (another instance takes it over while this one finishes). */
  stop(): Promise<void>;
  /** Resolves when the signal engine has done what it was handed (while this instance leads). */
  idle(): Promise<void>;
}

export async function startInstance(built: Built, options: InstanceOptions): Promise<Instance> {
  const { app, db, feed, hub, bus, monitor } = built;
  const { leadership, box, paper, log } = options;
  const relay = await startPriceRelay({ feed, db, hub });
  const stopSignals = listenForSignals({ bus, db, hub, log });
  const stopResync = bus.onResume(() => void monitor.resync());
  const duties = leaderDuties({ app, db, feed, hub, bus, monitor, box, paper, log });
  await leadership.start(duties);
  return {
    stop: async () => {
      await leadership.close();
      relay.close();
      stopSignals();
      stopResync();
    },
    idle: () => duties.idle(),
  };
}
