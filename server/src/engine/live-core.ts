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
import type { Signal, SignalByUuid, TrendMoment } from '../../../contracts';
import type { Database } from '../db';
import type { SocketHub } from '../plugins/websocket';
import { DEFAULT_TRADE_PREFERENCES } from '../services/preferences';
import { BITCOIN_SYMBOL, bitcoinInformation } from './bitcoin-information';
import type { CandleEvent, MarketFeed, MarkPriceTick } from './market-feed';
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
}

export interface LiveCore {
  engine: SignalEngine;
  /** Resolves when every stored change and delivery queued so far is done. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveCore({ feed, db, hub, log, onSignals }: LiveCoreOptions): Promise<LiveCore> {
  const engine = new SignalEngine({ analytics: feed.analytics });
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

  const onTick = (tick: MarkPriceTick) => {
    if (hub.size === 0) return;
    const symbol = symbolMap.get(tick.symbol);
    if (symbol) {
      const trend = feed.analytics.trendMoment(tick.symbol);
      hub.broadcast({
        event: 'symbol_price_base_from_core',
        message: {
          symbol_price_base: {
            symbol_uuid: symbol.symbol_uuid,
            symbol_name: symbol.symbol_name,
            symbol_pair: symbol.symbol_pair,
            current_price: Number(tick.price),
            trend_moment: trend,
          },
          trend_moment: trend,
          sent_at: performance.timeOrigin + performance.now(),
        },
      });
    }
    if (tick.symbol === BITCOIN_SYMBOL) {
      const info = bitcoinInformation(feed);
      if (info) {
        hub.broadcast({
          event: 'bitcoin_public_information_from_core',
          message: { bitcoin_public_information: info },
        });
      }
    }
  };

  const onCandle = ({ symbol, candle, live }: CandleEvent) => {
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
        await deliver(db, hub, stored, step.trendMoment, symbolRow, platformList, neuronTags).catch(
          (error: unknown) => log.warn({ err: error }, 'signals: delivery failed'),
        );
      }
    });
  };

  feed.on('tick', onTick);
  feed.on('candle', onCandle);
  return {
    engine,
    idle: async () => {
      await feed.settled();
      await queue;
    },
    close: async () => {
      feed.off('tick', onTick);
      feed.off('candle', onCandle);
      await queue;
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

/**
 * signal_from_core to each connected user, with the signals whose accuracy reaches their minimal_accuracy.
 * Every platform signals are made for is enabled and TRADE_AVAILABLE, so each user can trade all of them.
 */
async function deliver(
  db: Database,
  hub: SocketHub,
  rows: readonly SignalRow[],
  trendMoment: TrendMoment,
  symbol: SymbolRow,
  platformList: readonly PlatformRow[],
  neuronTags: Map<string, string>,
): Promise<void> {
  const users = hub.connectedUsers();
  if (users.length === 0) return;
  const platformOf = new Map(platformList.map((platform) => [platform.platform_uuid, platform]));
  const wire = rows.flatMap((row) => {
    const platform = platformOf.get(row.platform_uuid);
    return platform && row.accuracy !== null ? [toWireSignal(row, symbol, platform, neuronTags)] : [];
  });
  const thresholds = await minimalAccuracies(db, users);
  for (const user of users) {
    const minimal = thresholds.get(user) ?? DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
    const chosen = wire.filter((item) => item.signal_accuracy * 100 + ACCURACY_TOLERANCE >= minimal);
    if (chosen.length === 0) continue;
    const signal_by_uuid: SignalByUuid = Object.fromEntries(chosen.map((item) => [item.signal_uuid, item]));
    hub.sendToUser(user, {
      event: 'signal_from_core',
      message: {
        signal_by_uuid,
        trend_moment: trendMoment,
        sent_at: performance.timeOrigin + performance.now(),
      },
    });
  }
}
