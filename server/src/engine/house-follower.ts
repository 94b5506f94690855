// The house follower (docs/server.md "House account"): the house account trading the live signals as a
// trader with the default preferences would, through the very calls traders use — it is a client of the API,
// in process (app.inject with an access token the server issues to it): POST /api/trade_server/create_trade/
// to open, /api/trade_server/close_trade/ (or /api/trade_client/close_trade/ for the backfill's replayed trades,
// which have no position on the exchange) to close, /api/trade/update_trade_status/ to reset.
// - Every live signal on the house's platform whose accuracy reaches the house's minimal_accuracy (the default)
//   opens a trade with the house's platform preferences (the defaults), unless the house has an open trade on
//   the symbol (also one being opened or closed right now): one-way mode keeps one position per symbol, so a
//   second trade would merge into the first. Of several such signals of one symbol at once, the first opens.
// - The trade monitor's UI statuses on house trades are acted on at once (the house has no countdown):
//   TAKE_PROFIT, STOP_LOSS, TREILING_STOP and REVERSE_SIGNAL close the trade with that status; DIRECTION_SIGNAL
//   resets it to open.
// - Every SWEEP_INTERVAL_MS it closes (or resets) house trades whose UI status is still standing (a close that
//   failed, a restart in between), and every RECONCILE_EVERY sweeps it reconciles its server-mode trades with the
//   exchange as a trader's balance poll does (a stop that fired closes the trade as stop_loss at its fill).
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  CLOSING_STATUS_OF_UI_STATUS,
  TradeStatus,
  TradeUiStatus,
  type ClosingTradeStatus,
} from '../../../contracts';
import { serverExchangeClient } from '../services/exchange-transport';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { trades, type TradeRow } from '../db/schema-trades';
import type { HouseAccount } from '../services/house';
import {
  DEFAULT_TRADE_PREFERENCES,
  getPlatformPreferences,
  getTradePreferences,
} from '../services/preferences';
import type { SecretBox } from '../services/secret-box';
import type { TradeDesk } from '../services/trade-desk';
import { findTradeToken, openTradeToken } from '../services/trade-tokens';
import { findUser, userTradeTokenKey } from '../services/users';
import type { SignalRow } from './signal-store';
import type { TradeMonitor, UiStatusMark } from './trade-monitor';
import { reachesMinimalAccuracy } from './trade-rules';

const SWEEP_INTERVAL_MS = 15_000;
const RECONCILE_EVERY = 4;

/** The part of the Fastify app the house calls. */
export type HouseApi = Pick<FastifyInstance, 'inject' | 'issueAccessToken'>;

export interface HouseFollowerOptions {
  app: HouseApi;
  db: Database;
  desk: TradeDesk;
  /** The desk's monitor (the follower also listens to its UI statuses). */
  monitor: TradeMonitor;
  box: SecretBox;
  house: HouseAccount;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  sweepIntervalMs?: number;
}

type OpenHouseTrade = { trade: TradeRow; symbol_pair: string };

export class HouseFollower {
  /** Symbols with a house trade being opened. */
  private readonly opening = new Set<string>();
  /** House trades being closed or reset, with their symbol. */
  private readonly acting = new Map<string, string>();
  private readonly tasks = new Set<Promise<void>>();
  private minimalAccuracy = DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private sweeps = 0;
  private closed = false;

  constructor(private readonly options: HouseFollowerOptions) {}

  private get monitor(): TradeMonitor {
    return this.options.monitor;
  }

  private get userUuid(): string {
    return this.options.house.user_uuid;
  }

  /** Follows the open house trades (the backfill's too), listens to the monitor, starts sweeping. */
  async start(): Promise<void> {
    this.minimalAccuracy = (await getTradePreferences(this.options.db, this.userUuid)).minimal_accuracy;
    for (const open of await this.openTrades()) {
      if (!this.monitor.calculated(open.trade.trade_uuid)) {
        this.monitor.watch({ ...open.trade, symbol_pair: open.symbol_pair });
      }
    }
    this.unsubscribe = this.monitor.onUiStatus((mark) => this.onUiStatus(mark));
    const every = this.options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
    this.timer = setInterval(() => this.track(this.sweep()), every).unref();
    this.track(this.sweep());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    clearInterval(this.timer);
    await this.idle();
  }

  /** Resolves when every open, close and sweep started so far is done. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
  }

  /**
   * Stored live signals (live-core's onSignals, after the trade monitor marked them on open trades): opens a
   * house trade per symbol that has none. Returns at once; the opens run in the background.
   */
  onSignals(rows: readonly SignalRow[]): void {
    if (this.closed) return;
    const first = new Map<string, SignalRow>();
    for (const row of rows) {
      if (row.platform_uuid !== this.options.house.platform.platform_uuid) continue;
      if (!reachesMinimalAccuracy(row.accuracy, this.minimalAccuracy)) continue;
      if (!first.has(row.symbol_uuid)) first.set(row.symbol_uuid, row);
    }
    const busy = new Set(this.acting.values());
    for (const [symbolUuid, signal] of first) {
      if (this.opening.has(symbolUuid) || busy.has(symbolUuid)) continue;
      this.opening.add(symbolUuid);
      this.track(this.openOn(signal).finally(() => this.opening.delete(symbolUuid)));
    }
  }

  private onUiStatus(mark: UiStatusMark): void {
    if (mark.user_uuid !== this.userUuid || this.closed) return;
    this.act(mark.trade_uuid, mark.symbol_uuid, mark.trade_ui_status);
  }

  /** Closes (or resets) a house trade for its UI status, unless that is under way already. */
  private act(tradeUuid: string, symbolUuid: string, status: TradeUiStatus): void {
    if (this.acting.has(tradeUuid)) return;
    this.acting.set(tradeUuid, symbolUuid);
    const task =
      status === TradeUiStatus.DIRECTION_SIGNAL
        ? this.reset(tradeUuid)
        : this.closeTrade(tradeUuid, CLOSING_STATUS_OF_UI_STATUS[status]);
    this.track(task.finally(() => this.acting.delete(tradeUuid)));
  }

  private async openOn(signal: SignalRow): Promise<void> {
    const { db, house } = this.options;
    const [existing] = await db
      .select({ trade_uuid: trades.trade_uuid })
      .from(trades)
      .where(
        and(
          eq(trades.user_uuid, this.userUuid),
          eq(trades.symbol_uuid, signal.symbol_uuid),
          eq(trades.trade_status, TradeStatus.OPEN),
        ),
      )
      .limit(1);
    if (existing) return;
    const preferences = await getPlatformPreferences(db, this.userUuid, house.platform);
    const response = await this.call('POST', '/api/trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...preferences,
      pin_code: house.pin_code,
    });
    if (response.statusCode === 201) {
      const trade = response.json().result as { trade_uuid: string; trade_open_price: string };
      this.options.log.info(
        { trade_uuid: trade.trade_uuid, signal_uuid: signal.signal_uuid, direction: signal.direction },
        'house: trade opened',
      );
    } else {
      // 400: the exchange refused the order (e.g. -4164, a notional below the symbol's minimum at the default
      // margin, as for BTCUSDT): what any trader with these preferences would get, not a fault. 409: the house
      // has a trade for this signal already (another instance on the same database opened it).
      const expected = response.statusCode === 400 || response.statusCode === 409;
      const report = expected ? this.options.log.info : this.options.log.warn;
      report.call(
        this.options.log,
        { signal_uuid: signal.signal_uuid, status: response.statusCode, detail: detailOf(response) },
        'house: a trade could not be opened',
      );
    }
  }

  private async closeTrade(tradeUuid: string, status: ClosingTradeStatus): Promise<void> {
    const [row] = await this.options.db
      .select({ trade_in_server_side: trades.trade_in_server_side, trade_status: trades.trade_status })
      .from(trades)
      .where(and(eq(trades.trade_uuid, tradeUuid), eq(trades.user_uuid, this.userUuid)));
    if (!row || row.trade_status !== TradeStatus.OPEN) return;
    const response =
      row.trade_in_server_side === 1
        ? await this.call('POST', '/api/trade_server/close_trade/', {
            trade_uuid: tradeUuid,
            trade_status: status,
            pin_code: this.options.house.pin_code,
          })
        : await this.call('POST', '/api/trade_client/close_trade/', {
            trade_uuid: tradeUuid,
            trade_status: status,
          });
    if (response.statusCode === 200) {
      const trade = response.json().result as { trade_status: string; trade_pnl_current: string };
      this.options.log.info(
        { trade_uuid: tradeUuid, status: trade.trade_status, pnl: trade.trade_pnl_current },
        'house: trade closed',
      );
    } else if (response.statusCode !== 409) {
      // 409: closed already, or a reconciliation holds it; a standing status is retried by the sweep.
      this.options.log.warn(
        { trade_uuid: tradeUuid, status: response.statusCode, detail: detailOf(response) },
        'house: a trade could not be closed',
      );
    }
  }

  private async reset(tradeUuid: string): Promise<void> {
    const response = await this.call('POST', '/api/trade/update_trade_status/', {
      trade_uuid: tradeUuid,
      trade_status: TradeStatus.OPEN,
    });
    if (response.statusCode !== 200 && response.statusCode !== 409) {
      this.options.log.warn(
        { trade_uuid: tradeUuid, status: response.statusCode, detail: detailOf(response) },
        'house: a trade could not be reset to open',
      );
    }
  }

  /** Acts on standing UI statuses; reconciles with the exchange every RECONCILE_EVERY sweeps. */
  private async sweep(): Promise<void> {
    try {
      const open = await this.openTrades();
      for (const { trade } of open) {
        const live = this.monitor.calculated(trade.trade_uuid);
        const status = (live ? live.trade_ui_status : trade.trade_ui_status) as TradeUiStatus | null;
        if (status && !this.closed) this.act(trade.trade_uuid, trade.symbol_uuid, status);
      }
      this.sweeps += 1;
      const due = (this.sweeps - 1) % RECONCILE_EVERY === 0;
      if (due && open.some(({ trade }) => trade.trade_in_server_side === 1)) await this.reconcile();
    } catch (error) {
      this.options.log.warn({ err: error }, 'house: sweep failed');
    }
  }

  /** The reconciliation a trader's balance poll starts, with the house's credentials. */
  private async reconcile(): Promise<void> {
    const { db, box, house, desk } = this.options;
    const platformUuid = house.platform.platform_uuid;
    const [row, user] = await Promise.all([
      findTradeToken(db, this.userUuid, platformUuid),
      findUser(db, this.userUuid),
    ]);
    if (!row || !user) return;
    const credentials = openTradeToken(box, row, house.pin_code, userTradeTokenKey(box, user));
    const client = serverExchangeClient(house.platform.base_url, credentials);
    desk.reconciler.reconcileInBackground(this.userUuid, platformUuid, client);
    await desk.reconciler.idle();
  }

  private async openTrades(): Promise<OpenHouseTrade[]> {
    return this.options.db
      .select({ trade: trades, symbol_pair: symbols.symbol_pair })
      .from(trades)
      .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
      .where(and(eq(trades.user_uuid, this.userUuid), eq(trades.trade_status, TradeStatus.OPEN)));
  }

  private async call(method: 'POST', url: string, payload: object) {
    const token = await this.options.app.issueAccessToken(this.userUuid);
    return this.options.app.inject({ method, url, payload, headers: { authorization: `bearer ${token}` } });
  }

  private track(task: Promise<void>): void {
    const guarded = task.catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'house: an action failed');
    });
    this.tasks.add(guarded);
    void guarded.finally(() => this.tasks.delete(guarded));
  }
}

function detailOf(response: { json(): unknown }): string | undefined {
  try {
    return (response.json() as { detail?: string }).detail;
  } catch {
    return undefined;
  }
}
