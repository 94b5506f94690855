// The first start's backfill (DESIGN.md "Public statistics"; docs/server.md "Backfill"), as server.ts runs
// it: with an empty database and the paper exchange, the exchange's history (30 days by default) is generated
// from its seed and its span (generateHistory: the very candles its klines answer) and replayed through the signal engine with two
// consumers — the house replay (house-replay.ts) and the statistics replay (statistics-replay.ts) — and the
// signals, the house trades and the statistics are stored in one transaction. Logged: progress, and the time
// of each part and of the whole (`backfill: done … ms`).
import { generateHistory } from '../../../paper-exchange/src/index';
import type { Database } from '../db';
import type { HouseAccount } from '../services/house';
import { replaySettingsOf } from './replay-settings';
import { backfill, needsBackfill } from './backfill';
import { HouseReplay } from './house-replay';
import { followingPlatforms, symbolsByPair } from './signal-store';
import { StatisticsReplay } from './statistics-replay';
import { EXCHANGE_ORDER_FILTERS } from './trade-replay';

const DAY_MS = 86_400_000;

export interface FirstStartOptions {
  db: Database;
  /** The paper exchange (PaperExchangeHandle): its seed and the span of its history. */
  exchange: { seed: number; originTime: number; historyEndTime: number; url: string };
  house: HouseAccount;
  log: { info(obj: object, msg: string): void };
}

export interface FirstStartSummary {
  minutes: number;
  signals: number;
  houseTrades: number;
  points: number;
  items: number;
  /** Wall time, ms: the history's generation, the replay, the storing, and all of it. */
  generateMs: number;
  replayMs: number;
  storeMs: number;
  totalMs: number;
  /** CPU time of the process meanwhile, ms (on a busy machine wall time says little). */
  cpuMs: number;
}

/** Runs the backfill when the database has never stored a signal; undefined when it has. */
export async function backfillFirstStart(options: FirstStartOptions): Promise<FirstStartSummary | undefined> {
  const { db, exchange, house, log } = options;
  if (!(await needsBackfill(db))) return undefined;
  const days = (exchange.historyEndTime - exchange.originTime) / DAY_MS;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  log.info({ days, seed: exchange.seed }, 'backfill: first start, generating the market history');
  const history = generateHistory({ seed: exchange.seed, days, endTime: exchange.historyEndTime });
  const generateMs = performance.now() - started;

  const symbolMap = await symbolsByPair(db);
  const platformList = await followingPlatforms(db, exchange.url);
  const houseReplay = new HouseReplay({
    houseUserUuid: house.user_uuid,
    platformUuid: house.platform.platform_uuid,
    symbolMap,
    // The house's settings and fee rate, as a trader's what-if replay of them reads them (one truth).
    settings: await replaySettingsOf(db, house.user_uuid, house.platform),
    // The paper exchange's own filters (its exchangeInfo), so the replay refuses what it would refuse.
    orderFilters: EXCHANGE_ORDER_FILTERS,
  });
  const statistics = new StatisticsReplay(houseReplay);
  const result = await backfill({
    db,
    history,
    symbolMap,
    platformList,
    consumers: [houseReplay, statistics],
    log,
  });
  const summary: FirstStartSummary = {
    minutes: result.minutes,
    signals: result.signals,
    houseTrades: houseReplay.trades.length,
    points: statistics.points.length,
    items: statistics.items.length,
    generateMs: Math.round(generateMs),
    replayMs: Math.round(result.replayMs),
    storeMs: Math.round(result.storeMs),
    totalMs: Math.round(performance.now() - started),
    cpuMs: Math.round(cpuMillis(process.cpuUsage(cpuStarted))),
  };
  log.info(summary, `backfill: done in ${summary.totalMs} ms`);
  return summary;
}

const cpuMillis = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
