// The work that runs on one instance only (docs/server.md "Several instances"), started when this
// instance becomes the leader (services/leadership.ts) and stopped when it steps down: the trade monitor's
// UI statuses and price-field writes, the followed accounts' user data streams, and with the paper exchange the house account, the first start's
// backfill, the house follower and the statistics recorder; then the signal engine, whose new signals reach
// the monitor, the house follower, this instance's sockets and, over the bus, the other instances' sockets.
import type { Database } from '../db';
import type { SocketHub } from '../services/socket-hub';
import type { EventBus } from '../services/event-bus';
import { AccountStreams } from '../services/account-streams';
import { ensureHouseAccount } from '../services/house';
import { leftoversCancelledWhenAway } from '../services/unattended-keys';
import type { LeaderDuties } from '../services/leadership';
import type { PaperExchangeLink } from '../services/paper-exchange-link';
import { PAPER_PLATFORM_UUID } from '../services/platforms';
import type { SecretBox } from '../services/secret-box';
import type { TradeDesk } from '../services/trade-desk';
import type { WebPush } from '../services/web-push';
import { backfillFirstStart } from './house-backfill';
import { HouseFollower, type HouseApi } from './house-follower';
import { startSignalCore } from './live-core';
import type { MarketFeed } from './market-feed';
import { StatisticsRecorder } from './statistics-live';
import type { TradeMonitor } from './trade-monitor';

export interface LeaderDutiesOptions {
  app: HouseApi & { tradeDesk: TradeDesk; webPush?: WebPush };
  db: Database;
  feed: MarketFeed;
  hub: SocketHub;
  bus: EventBus;
  monitor: TradeMonitor;
  box: SecretBox;
  /** The paper exchange; without one there is no house (and so no backfill and no statistics). */
  paper: PaperExchangeLink | undefined;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
  };
}

export function leaderDuties(options: LeaderDutiesOptions): LeaderDuties & { idle(): Promise<void> } {
  const { app, db, feed, hub, bus, monitor, box, paper, log } = options;
  /** What lead() started, stopped in reverse order. */
  let stops: (() => Promise<void>)[] = [];
  /** The signal core while leading: idle() waits for what it was handed (tests step the market by it). */
  let idle: () => Promise<void> = async () => undefined;

  const stepDown = async () => {
    const started = stops.reverse();
    stops = [];
    for (const stop of started) await stop();
  };

  const lead = async () => {
    await monitor.setLeading(true);
    stops.push(() => monitor.setLeading(false));
    // The followed accounts' user data streams (issue 37): closes on the exchange recorded with no page open.
    const streams = new AccountStreams({
      db,
      box,
      desk: app.tradeDesk,
      log,
      // A trader away whose key the exchange refuses is told (issue 41): nothing of that account is followed.
      onRefused: (account, code, reason) =>
        app.webPush?.refusal(account.user_uuid, account.platform_uuid, code, reason),
      onStopLost: (trade, symbolPair) => app.webPush?.unprotected(trade, symbolPair),
      // What a close left on the exchange is cancelled at once where the trader lets the server act (issue 54).
      // Where none is, the trader is told what still waits there (a push; the History row lists them too).
      onClose: leftoversCancelledWhenAway({
        db,
        box,
        reconciler: app.tradeDesk.reconciler,
        log,
        push: app.webPush,
      }),
    });
    await streams.start();
    stops.push(() => streams.close());
    let follower: HouseFollower | undefined;
    let recorder: StatisticsRecorder | undefined;
    if (paper) {
      const house = await ensureHouseAccount({
        db,
        box,
        platformUuid: PAPER_PLATFORM_UUID,
        createAccount: (balance) => paper.createAccount(balance),
        log,
      });
      await backfillFirstStart({ db, exchange: paper, house, log });
      follower = new HouseFollower({ app, db, desk: app.tradeDesk, monitor, box, house, log });
      recorder = new StatisticsRecorder({ db, monitor, feed, houseUserUuid: house.user_uuid, log });
    }
    const core = await startSignalCore({
      feed,
      db,
      hub,
      bus,
      log,
      onSignals: async (rows) => {
        await monitor.onSignals(rows);
        follower?.onSignals(rows);
      },
      // Traders away from the page are pushed the signals that pass their filter (issue 41).
      onWireSignals: (wire) => app.webPush?.signals(wire),
    });
    stops.push(() => core.close());
    // What the core was handed, then what the house does about it (its opens and closes).
    idle = async () => {
      await core.idle();
      await follower?.idle();
    };
    if (follower) {
      const started = follower;
      await started.start();
      stops.push(() => started.close());
    }
    if (recorder) {
      const started = recorder;
      started.start();
      stops.push(() => started.close());
    }
  };

  return { lead, stepDown, idle: () => idle() };
}
