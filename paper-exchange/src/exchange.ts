// The exchange as one object: state (restored from the data directory when there is one), the live market,
// the trading model, limits and faults. The HTTP app and the streams drive it; tests can drive it directly.
import { Accounts } from './accounts.js';
import { loadAdminToken } from './admin-guard.js';
import { cancelAllAlgos, registerAlgoFollower } from './algo-orders.js';
import { DEFAULT_LIMITS, RateLimiter, type Limits } from './auth.js';
import { addIncome } from './execution.js';
import { ExchangeCore } from './exchange-core.js';
import { RequestLog } from './request-log.js';
import { Faults } from './faults.js';
import { historyOrigin, MINUTE_MS } from './market/history.js';
import { Market, type MarketDurable, type SymbolTick } from './market/market.js';
import { TradeTape } from './market/market-data.js';
import { findSymbol, type SymbolStatus } from './market/symbols.js';
import { D, type Dec } from './num.js';
import { checkPrice } from './order-params.js';
import { secretSeal } from './secret-seal.js';
import { Journal } from './persistence.js';
import { Store, type AccountRecord } from './state.js';
import { onMarks } from './triggers.js';

export const DEFAULT_SEED = 42;
export const DEFAULT_HISTORY_DAYS = 30;

export interface ExchangeOptions {
  seed?: number;
  /** Durable state lives here; undefined keeps everything in memory. */
  dataDir?: string;
  /**
   * The key the accounts' secrets are sealed under in the data folder (secret-seal.ts), kept outside it;
   * without one they are written in clear (tests without a data folder need none).
   */
  sealKey?: Buffer;
  legacyConditionalOrders?: boolean;
  /** Days of market history before the first start (klines, 24h ticker). */
  historyDays?: number;
  limits?: Partial<Limits>;
  clock?: () => number;
}

export type TickListener = (ticks: SymbolTick[]) => void;

export class Exchange {
  readonly seed: number;
  readonly store = new Store();
  readonly market: Market;
  readonly accounts: Accounts;
  readonly core: ExchangeCore;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly requests = new RequestLog();
  readonly tape = new TradeTape();
  readonly tickListeners = new Set<TickListener>();
  /** Listen keys closed through DELETE /fapi/v1/listenKey: their websocket connections are closed. */
  readonly listenKeyListeners = new Set<(key: string) => void>();
  /** The X-Admin-Token that /admin/* changes need (admin-guard.ts): from the data folder, or made now. */
  readonly adminToken: string;
  private readonly journal: Journal | undefined;
  private readonly clock: () => number;

  constructor(options: ExchangeOptions = {}) {
    this.clock = options.clock ?? Date.now;
    const now = this.clock();
    let durable: MarketDurable | undefined;
    let seed = options.seed ?? DEFAULT_SEED;
    if (options.dataDir) {
      const opened = Journal.open(options.dataDir, options.sealKey ? secretSeal(options.sealKey) : undefined);
      this.journal = opened.journal;
      if (opened.snapshot) {
        // The market path of a data directory is fixed by its first start: same seed and origin.
        seed = opened.snapshot.seed;
        durable = opened.snapshot.market;
        this.store.load(opened.snapshot);
      }
    }
    this.seed = seed;
    this.adminToken = loadAdminToken(options.dataDir);
    durable ??= {
      originTime: historyOrigin(now, options.historyDays ?? DEFAULT_HISTORY_DAYS),
      historyEndTime: Math.floor(now / MINUTE_MS) * MINUTE_MS,
      factors: {},
      pins: {},
      statuses: {},
    };
    this.market = new Market(seed, durable, now);
    this.accounts = new Accounts(this.store);
    this.core = new ExchangeCore(
      this.store,
      this.accounts,
      this.market,
      options.legacyConditionalOrders ?? false,
      this.clock,
    );
    registerAlgoFollower(this.core);
    this.core.tradeListeners.add((trade) => this.tape.add(trade.symbol, trade));
    this.limiter = new RateLimiter({ ...DEFAULT_LIMITS, ...options.limits });
    this.faults = new Faults(seed);
    this.journal?.compact(this.store.snapshot(seed, this.market.durable()));
  }

  now(): number {
    return this.clock();
  }

  /** Start of the simulated history. */
  get originTime(): number {
    return this.market.originTime;
  }

  /** generateHistory({ seed, days, endTime: historyEndTime }) reproduces this exchange's history. */
  get historyEndTime(): number {
    return this.market.historyEndTime;
  }

  /** Journals every pending change and waits for the disk (called before an answer is sent). */
  commit(): void {
    if (!this.store.hasChanges) return;
    const changes = this.store.drain(() => this.market.durable());
    if (!this.journal) return;
    this.journal.append(changes);
    if (this.journal.needsCompaction)
      this.journal.compact(this.store.snapshot(this.seed, this.market.durable()));
  }

  /** Advances the market clock and runs the trading model; listeners get the new marks and candles. */
  tick(): void {
    const ticks = this.market.advanceTo(this.now());
    if (ticks.length === 0) return;
    for (const tick of ticks) if (tick.trade) this.tape.add(tick.symbol, tick.trade);
    onMarks(this.core, new Set(ticks.map((tick) => tick.symbol)));
    this.commit();
    for (const listener of this.tickListeners) listener(ticks);
  }

  /** Admin: pin a mark price (or release it) and run triggers and liquidations at once. */
  setPrice(symbol: string, price: Dec | undefined): void {
    const spec = findSymbol(symbol);
    if (!spec) throw new Error(`unknown symbol ${symbol}`);
    if (price !== undefined) checkPrice(spec, price);
    this.market.setPin(symbol, price);
    this.store.marketChanged();
    onMarks(this.core, new Set([symbol]));
    this.commit();
  }

  setSymbolStatus(symbol: string, status: SymbolStatus): void {
    this.market.setStatus(symbol, status);
    this.store.marketChanged();
    this.commit();
  }

  createAccount(balance: string): { account: AccountRecord; apiSecret: string } {
    const now = this.now();
    const created = this.accounts.createHmac(balance, now);
    addIncome(this.core, created.account, 'TRANSFER', new D(balance), '', '', now);
    this.commit();
    return created;
  }

  createEd25519Account(publicKeyPem: string, balance: string): AccountRecord {
    const now = this.now();
    const account = this.accounts.createEd25519(publicKeyPem, balance, now);
    addIncome(this.core, account, 'TRANSFER', new D(balance), '', '', now);
    this.commit();
    return account;
  }

  /** Admin: deposit (positive) or withdraw (negative) USDT, pushed as ACCOUNT_UPDATE DEPOSIT/WITHDRAW. */
  transfer(account: AccountRecord, amount: Dec): void {
    const now = this.now();
    account.walletBalance = new D(account.walletBalance).plus(amount).toString();
    account.updateTime = now;
    this.store.touch('accounts', account.id);
    addIncome(this.core, account, 'TRANSFER', amount, '', '', now);
    this.core.emitAccountUpdate(account, amount.lessThan(0) ? 'WITHDRAW' : 'DEPOSIT', [], amount.toString());
    this.commit();
  }

  listenKeyClosed(key: string): void {
    for (const listener of this.listenKeyListeners) listener(key);
  }

  cancelAllAlgos(account: AccountRecord, symbol: string): void {
    cancelAllAlgos(this.core, account, symbol);
  }

  isSymbol(symbol: string): boolean {
    return findSymbol(symbol) !== undefined;
  }

  close(): void {
    this.commit();
    this.journal?.compact(this.store.snapshot(this.seed, this.market.durable()));
    this.journal?.close();
  }
}
