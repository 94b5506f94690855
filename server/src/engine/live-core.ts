// The live side of the market and signals (issue 6): connects the market feed to the signal engine, the
// database and the websocket hub.
// - Every mark price → symbol_price_base_from_core to every socket (prices are public), and for bitcoin
//   bitcoin_public_information_from_core.
// - Every closed candle → SignalEngine; its signals and resolutions are stored (signal-store.ts), then the new
//   signals that carry an accuracy are sent as signal_from_core to each connected user whose minimal_accuracy
//   (global trade preferences, SPEC.md §3, percent) they reach. Signals of REST candles (start-up, gap filling)
//   are stored but not sent: they are history.
// At start the engine continues each neuron's stored track record (SignalEngine.restore), so accuracy is
// measured over the stored outcomes across restarts.
// Several instances (docs/server.md "Several instances"): every instance relays its own feed's prices to
// its own sockets (startPriceRelay) and delivers new signals to its own sockets (listenForSignals); only the
// leader runs the engine and stores (startSignalCore), and hands each step's new signals to the others over
// the bus. An engine started on a feed that has candles already (a takeover) replays the feed's window as
// start-up history, as a restarted process does.
import { z } from 'zod';
import { signal, trendMoment, type Signal, type SignalByUuid, type TrendMoment } from '../../../contracts';
import type { Database } from '../db';
import type { SocketHub } from '../services/socket-hub';
import type { EventBus } from '../services/event-bus';
import { DEFAULT_TRADE_PREFERENCES } from '../services/preferences';
import { bitcoinInformation } from './bitcoin-information';
import { CANDLE_WINDOW } from './market-analytics';
import { CandleRecorder } from './candle-store';
import { BITCOIN_SYMBOL, type CandleEvent, type MarketFeed, type MarkPriceTick } from './market-feed';
import { SignalEngine } from './signal-engine';
import {
  followingPlatforms,
  loadTrackRecord,
  minimalAccuracies,
  persistStep,
  seedNeurons,
  symbolsByPair,
  type PlatformRow,
  type SignalRow,
  type SymbolRow,
} from './signal-store';

/** minimal_accuracy is a percent with two decimals (SPEC.md §5); this absorbs binary rounding only. */
export const ACCURACY_TOLERANCE = 1e-9;

export interface LiveCoreOptions {
  feed: MarketFeed;
  db: Database;
  hub: SocketHub;
  log: { warn(obj: object, msg: string): void };
  /**
   * Each step's new live signals that carry an accuracy, once stored (the trade monitor marks open trades on
   * their symbol with DIRECTION_SIGNAL / REVERSE_SIGNAL), whether or not any socket is connected.
   */
  onSignals?: (rows: readonly SignalRow[]) => Promise<void> | void;
  /** Hands each step's new signals to the other instances (which deliver them to their own sockets). */
  bus?: EventBus;
  /**
   * Each step's new signals in their wire form, once, where they are born (issue 41: Web Push tells the traders
   * away from the page, services/web-push.ts).
   */
  onWireSignals?: (wire: readonly Signal[]) => void;
}

/** Bus topic of new live signals: `{ signals, trend_moment }`, the wire signals of one step. */
export const SIGNALS_TOPIC = 'signals';
const signalsMessage = z.object({ signals: z.array(signal), trend_moment: trendMoment });

export interface LiveCore {
  engine: SignalEngine;
  /** Resolves when every stored change and delivery queued so far is done. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Prices and signals, one process alone (tests, benchmarks): the price relay and the signal core. */
export async function startLiveCore(options: LiveCoreOptions): Promise<LiveCore> {
  const relay = await startPriceRelay(options);
  const core = await startSignalCore(options);
  return {
    engine: core.engine,
    idle: core.idle,
    close: async () => {
      relay.close();
      await core.close();
    },
  };
}

/** Every mark price of this instance's feed to this instance's sockets (each instance has its own feed). */
export async function startPriceRelay({
  feed,
  db,
  hub,
}: Pick<LiveCoreOptions, 'feed' | 'db' | 'hub'>): Promise<{ close(): void }> {
  let symbolMap = await symbolsByPair(db);
  let reading: Promise<void> | undefined;
  const onTick = (tick: MarkPriceTick) => {
    if (hub.size === 0) return;
    const symbol = symbolMap.get(tick.symbol);
    if (!symbol && !reading) {
      // A symbol listed after the start (the symbol sync adds it): read the list again, once at a time.
      reading = symbolsByPair(db)
        .then((map) => void (symbolMap = map))
        .catch(() => undefined)
        .finally(() => (reading = undefined));
    }
    if (symbol) {
      const trend = feed.analytics.trendMoment(tick.symbol);
      hub.broadcastHere({
        event: 'symbol_price_base_from_core',
        message: {
          symbol_price_base: {
            symbol_uuid: symbol.symbol_uuid,
            symbol_name: symbol.symbol_name,
            symbol_pair: symbol.symbol_pair,
            current_price: Number(tick.price),
            trend_moment: trend,
            price_time: Math.trunc(tick.time),
          },
          trend_moment: trend,
          sent_at: performance.timeOrigin + performance.now(),
        },
      });
    }
    if (tick.symbol === BITCOIN_SYMBOL) {
      const info = bitcoinInformation(feed);
      if (info) {
        hub.broadcastHere({
          event: 'bitcoin_public_information_from_core',
          message: { bitcoin_public_information: info },
        });
      }
    }
  };
  feed.on('tick', onTick);
  return { close: () => feed.off('tick', onTick) };
}

/**
 * New signals another instance's engine made, to this instance's sockets (each user gets those that reach
 * their minimal_accuracy), one step after the other. Answers the function that stops it.
 */
export function listenForSignals({
  bus,
  db,
  hub,
  log,
}: Pick<LiveCoreOptions, 'db' | 'hub' | 'log'> & { bus: EventBus }): () => void {
  let queue: Promise<void> = Promise.resolve();
  return bus.subscribe(SIGNALS_TOPIC, (payload) => {
    const parsed = signalsMessage.safeParse(payload);
    if (!parsed.success || hub.size === 0) return;
    const { signals, trend_moment } = parsed.data;
    queue = queue
      .then(() => deliverHere(db, hub, signals, trend_moment))
      .catch((error: unknown) => log.warn({ err: error }, 'signals: delivery failed'));
  });
}

/** The engine, its storing and the delivery of new live signals: the leader's part. */
export async function startSignalCore({
  feed,
  db,
  hub,
  log,
  onSignals,
  bus,
  onWireSignals,
}: LiveCoreOptions): Promise<LiveCore> {
  // A feed with candles already (this instance took over the lead): the engine keeps its own analytics and
  // is given the feed's window as start-up history; otherwise it shares the feed's, which the start-up
  // candles are about to fill.
  const warm = feed.symbols.some((pair) => feed.analytics.lastOpenTime(pair) !== undefined);
  const engine = new SignalEngine(warm ? {} : { analytics: feed.analytics });
  await seedNeurons(db, engine.neurons);
  const neuronTags = new Map(engine.neurons.map((neuron) => [neuron.neuron_uuid, neuron.neuron_tag_name]));
  let platformList = await followingPlatforms(db, feed.restUrl);
  let symbolMap = await symbolsByPair(db);
  await restoreTrackRecords(engine, db, feed.symbols, symbolMap, platformList, log);

  // Steps are stored one after the other, each in its own transaction, so the database always holds a prefix
  // of the engine's steps. After a failed step nothing more is stored: a later step on top of a missing one
  // (a resolution without its signal, a signal while the stored one is still open) would break the track
  // record; the next start restores from the committed prefix and continues from there.
  let queue: Promise<void> = Promise.resolve();
  let storeFailed = false;
  const later = (task: () => Promise<void>) => {
    queue = queue.then(async () => {
      if (storeFailed) return;
      try {
        await task();
      } catch (error) {
        storeFailed = true;
        log.warn({ err: error }, 'signals: store failed; no more signals are stored until a restart');
      }
    });
  };

  const symbolOf = async (pair: string): Promise<SymbolRow | undefined> => {
    if (!symbolMap.has(pair)) symbolMap = await symbolsByPair(db);
    return symbolMap.get(pair);
  };

  // Every closed candle is stored for the what-if replay (issue 42, candle-store.ts).
  const candles = new CandleRecorder(db, log);
  const onCandle = ({ symbol, candle, live }: CandleEvent) => {
    const known = symbolMap.get(symbol);
    if (known) candles.add(known.symbol_uuid, candle);
    const step = engine.onCandle(symbol, candle);
    if (!step || (step.signals.length === 0 && step.resolutions.length === 0)) return;
    later(async () => {
      const symbolRow = await symbolOf(symbol);
      if (!symbolRow) return;
      if (step.signals.length > 0 && platformList.length === 0) {
        platformList = await followingPlatforms(db, feed.restUrl);
      }
      const stored = await persistStep(db, step, symbolRow.symbol_uuid, platformList);
      if (live && stored.length > 0) {
        try {
          await onSignals?.(stored);
        } catch (error) {
          log.warn({ err: error }, 'signals: trade monitor hook failed');
        }
        // A failed delivery loses messages, not stored state: it must not stop the storing.
        const wire = wireSignals(stored, symbolRow, platformList, neuronTags);
        bus?.publish(SIGNALS_TOPIC, { signals: wire, trend_moment: step.trendMoment });
        onWireSignals?.(wire);
        await deliverHere(db, hub, wire, step.trendMoment).catch((error: unknown) =>
          log.warn({ err: error }, 'signals: delivery failed'),
        );
      }
    });
  };

  if (warm) {
    for (const pair of feed.symbols) {
      for (const { candle } of feed.analytics.recent(pair, CANDLE_WINDOW)) {
        onCandle({ symbol: pair, candle, live: false });
      }
    }
  }
  feed.on('candle', onCandle);
  return {
    engine,
    idle: async () => {
      await feed.settled();
      await queue;
      await candles.flush();
    },
    close: async () => {
      feed.off('candle', onCandle);
      await queue;
      await candles.close();
    },
  };
}

async function restoreTrackRecords(
  engine: SignalEngine,
  db: Database,
  pairs: readonly string[],
  symbolMap: Map<string, SymbolRow>,
  platformList: readonly PlatformRow[],
  log: LiveCoreOptions['log'],
): Promise<void> {
  // Every platform copy of a signal carries the same outcome; the first platform speaks for all.
  const platform = platformList[0];
  if (!platform) return;
  for (const pair of pairs) {
    const symbol = symbolMap.get(pair);
    if (!symbol) continue;
    for (const neuron of engine.neurons) {
      const stored = await loadTrackRecord(
        db,
        neuron.neuron_uuid,
        symbol.symbol_uuid,
        platform.platform_uuid,
      );
      if (!stored) continue;
      if (stored.discarded > 0) {
        log.warn(
          { neuron: neuron.neuron_tag_name, pair, count: stored.discarded },
          'signals: dangling discarded',
        );
      }
      engine.restore(neuron.neuron_uuid, pair, stored.record, stored.resumeAfter);
    }
  }
}

export function toWireSignal(
  row: SignalRow,
  symbol: SymbolRow,
  platform: PlatformRow,
  tagOf: Map<string, string>,
): Signal {
  const tag = tagOf.get(row.neuron_uuid);
  return {
    signal_uuid: row.signal_uuid,
    platform_uuid: row.platform_uuid,
    platform: {
      platform_uuid: platform.platform_uuid,
      platform_name: platform.platform_name,
      platform_background: platform.platform_background,
    },
    symbol: {
      symbol_uuid: symbol.symbol_uuid,
      symbol_name: symbol.symbol_name,
      symbol_pair: symbol.symbol_pair,
      symbol_price_precision: symbol.symbol_price_precision,
    },
    signal_direction_created: row.direction === 'SELL' ? 'SELL' : 'BUY',
    signal_price_enter: Number(row.price_enter),
    signal_accuracy: row.accuracy ?? 0,
    trend_moment: row.trend_moment as TrendMoment,
    neuron: tag === undefined ? undefined : { neuron_uuid: row.neuron_uuid, neuron_tag_name: tag },
    signal_created_at: row.created_at.toISOString(),
  };
}

/** The wire form of a step's new signals that carry an accuracy (the ones sent to traders). */
function wireSignals(
  rows: readonly SignalRow[],
  symbol: SymbolRow,
  platformList: readonly PlatformRow[],
  neuronTags: Map<string, string>,
): Signal[] {
  const platformOf = new Map(platformList.map((platform) => [platform.platform_uuid, platform]));
  return rows.flatMap((row) => {
    const platform = platformOf.get(row.platform_uuid);
    return platform && row.accuracy !== null ? [toWireSignal(row, symbol, platform, neuronTags)] : [];
  });
}

/**
 * signal_from_core to each user connected to this instance, with the signals whose accuracy reaches their
 * minimal_accuracy. Every platform signals are made for is enabled and TRADE_AVAILABLE, so each user can
 * trade all of them.
 */
async function deliverHere(
  db: Database,
  hub: SocketHub,
  wire: readonly Signal[],
  trendMoment: TrendMoment,
): Promise<void> {
  const users = hub.connectedUsers();
  if (users.length === 0 || wire.length === 0) return;
  const thresholds = await minimalAccuracies(db, users);
  for (const user of users) {
    const minimal = thresholds.get(user) ?? DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
    const chosen = wire.filter((item) => item.signal_accuracy * 100 + ACCURACY_TOLERANCE >= minimal);
    if (chosen.length === 0) continue;
    const signal_by_uuid: SignalByUuid = Object.fromEntries(chosen.map((item) => [item.signal_uuid, item]));
    hub.sendToUserHere(user, {
      event: 'signal_from_core',
      message: {
        signal_by_uuid,
        trend_moment: trendMoment,
        sent_at: performance.timeOrigin + performance.now(),
      },
    });
  }
}
