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
 * runs before the server listens). Answers the stop: the lead first (another instance takes it over while this
 * one finishes), then the relay and the signals.
 */
export async function startInstance(built: Built, options: InstanceOptions): Promise<() => Promise<void>> {
  const { app, db, feed, hub, bus, monitor } = built;
  const { leadership, box, paper, log } = options;
  const relay = await startPriceRelay({ feed, db, hub });
  const stopSignals = listenForSignals({ bus, db, hub, log });
  const stopResync = bus.onResume(() => void monitor.resync());
  await leadership.start(leaderDuties({ app, db, feed, hub, bus, monitor, box, paper, log }));
  return async () => {
    await leadership.close();
    relay.close();
    stopSignals();
    stopResync();
  };
}
