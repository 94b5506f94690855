// The exchange's in-memory state and its indexes (open orders, positions per account), shared by the
// order, algo-order, configuration and trigger modules. Listeners receive user-stream events and trades.
import { computeAccount, type AccountMetrics, type StateView } from './account-state.js';
import type { Accounts } from './accounts.js';
import { accountUpdate } from './events.js';
import type { Market } from './market/market.js';
import { ZERO, D, type Dec } from './num.js';
import type {
  AccountRecord,
  AlgoOrderRecord,
  OrderRecord,
  PositionRecord,
  PositionSide,
  Store,
} from './state.js';

export type UserEventListener = (accountId: number, payload: Record<string, unknown>) => void;

export interface PublicTrade {
  symbol: string;
  id: number;
  price: string;
  qty: string;
  buyerMaker: boolean;
  time: number;
}
export type TradeListener = (trade: PublicTrade) => void;

const OPEN_STATUSES = new Set(['NEW', 'PARTIALLY_FILLED']);
const OPEN_ALGO_STATUSES = new Set(['NEW', 'TRIGGERING', 'TRIGGERED']);

export class ExchangeCore implements StateView {
  readonly openOrders = new Map<number, OrderRecord>();
  /** Algo orders not yet finished: NEW (waiting for the trigger) or TRIGGERED (actual order working). */
  readonly openAlgos = new Map<number, AlgoOrderRecord>();
  private readonly positions = new Map<number, Map<string, PositionRecord>>();
  /** Latest order / algo order per (account, client id): GET and DELETE by origClientOrderId. */
  private readonly orderByClientId = new Map<string, OrderRecord>();
  private readonly algoByClientId = new Map<string, AlgoOrderRecord>();
  readonly userListeners = new Set<UserEventListener>();
  readonly tradeListeners = new Set<TradeListener>();
  /** Called when an order leaves the open set (filled, canceled, expired): algo orders follow their order. */
  readonly orderDoneListeners = new Set<(order: OrderRecord) => void>();

  constructor(
    readonly store: Store,
    readonly accounts: Accounts,
    readonly market: Market,
    public legacyConditionalDefault: boolean,
    readonly clock: () => number,
  ) {
    for (const order of store.tables.orders.values()) this.indexOrder(order);
    for (const algo of store.tables.algoOrders.values()) this.indexAlgo(algo);
    for (const position of store.tables.positions.values()) this.indexPosition(position);
  }

  now(): number {
    return this.clock();
  }

  legacyFor(account: AccountRecord): boolean {
    return account.legacyConditionalOrders ?? this.legacyConditionalDefault;
  }

  private indexPosition(position: PositionRecord): void {
    let map = this.positions.get(position.accountId);
    if (!map) {
      map = new Map();
      this.positions.set(position.accountId, map);
    }
    map.set(position.key, position);
  }

  /** Open (non-zero) positions of an account. */
  positionsOf(accountId: number): PositionRecord[] {
    return [...(this.positions.get(accountId)?.values() ?? [])].filter((p) => !new D(p.positionAmt).isZero());
  }

  accountsWithPositions(): number[] {
    return [...this.positions.keys()].filter((id) => this.positionsOf(id).length > 0);
  }

  position(accountId: number, symbol: string, positionSide: PositionSide): PositionRecord | undefined {
    return this.positions.get(accountId)?.get(positionKey(accountId, symbol, positionSide));
  }

  ensurePosition(accountId: number, symbol: string, positionSide: PositionSide, now: number): PositionRecord {
    const existing = this.position(accountId, symbol, positionSide);
    if (existing) return existing;
    const position: PositionRecord = {
      key: positionKey(accountId, symbol, positionSide),
      accountId,
      symbol,
      positionSide,
      positionAmt: '0',
      entryPrice: '0',
      isolatedWallet: '0',
      accumulatedRealized: '0',
      updateTime: now,
    };
    this.store.put('positions', position.key, position);
    this.indexPosition(position);
    return position;
  }

  /** Signed amount of a position, 0 when there is none. */
  amount(accountId: number, symbol: string, positionSide: PositionSide): Dec {
    const position = this.position(accountId, symbol, positionSide);
    return position ? new D(position.positionAmt) : ZERO;
  }

  openOrdersOf(accountId: number, symbol?: string): OrderRecord[] {
    return [...this.openOrders.values()].filter(
      (o) => o.accountId === accountId && (!symbol || o.symbol === symbol),
    );
  }

  openAlgosOf(accountId: number, symbol?: string): AlgoOrderRecord[] {
    return [...this.openAlgos.values()].filter(
      (a) => a.accountId === accountId && (!symbol || a.symbol === symbol),
    );
  }

  saveOrder(order: OrderRecord): void {
    const wasOpen = this.openOrders.has(order.orderId);
    this.store.put('orders', order.orderId, order);
    this.indexOrder(order);
    if (wasOpen && !this.openOrders.has(order.orderId))
      for (const listener of this.orderDoneListeners) listener(order);
  }

  saveAlgo(algo: AlgoOrderRecord): void {
    this.store.put('algoOrders', algo.algoId, algo);
    this.indexAlgo(algo);
  }

  private indexOrder(order: OrderRecord): void {
    if (OPEN_STATUSES.has(order.status)) this.openOrders.set(order.orderId, order);
    else this.openOrders.delete(order.orderId);
    const key = `${order.accountId}:${order.clientOrderId}`;
    const previous = this.orderByClientId.get(key);
    if (!previous || previous.orderId <= order.orderId) this.orderByClientId.set(key, order);
  }

  private indexAlgo(algo: AlgoOrderRecord): void {
    if (OPEN_ALGO_STATUSES.has(algo.algoStatus)) this.openAlgos.set(algo.algoId, algo);
    else this.openAlgos.delete(algo.algoId);
    const key = `${algo.accountId}:${algo.clientAlgoId}`;
    const previous = this.algoByClientId.get(key);
    if (!previous || previous.algoId <= algo.algoId) this.algoByClientId.set(key, algo);
  }

  orderByClient(accountId: number, clientOrderId: string): OrderRecord | undefined {
    return this.orderByClientId.get(`${accountId}:${clientOrderId}`);
  }

  algoByClient(accountId: number, clientAlgoId: string): AlgoOrderRecord | undefined {
    return this.algoByClientId.get(`${accountId}:${clientAlgoId}`);
  }

  metrics(account: AccountRecord): AccountMetrics {
    return computeAccount(this, account);
  }

  emit(accountId: number, payload: Record<string, unknown>): void {
    for (const listener of this.userListeners) listener(accountId, payload);
  }

  publishTrade(trade: PublicTrade): void {
    for (const listener of this.tradeListeners) listener(trade);
  }

  /** ACCOUNT_UPDATE for the given positions, with the balance after the change. */
  emitAccountUpdate(
    account: AccountRecord,
    reason: string,
    positions: PositionRecord[],
    balanceChange = '0',
  ): void {
    const metrics = this.metrics(account);
    const byKey = new Map(metrics.positions.map((p) => [p.record.key, p]));
    const marginTypeOf = (symbol: string) =>
      this.accounts.settings(account, symbol).marginType === 'ISOLATED'
        ? ('isolated' as const)
        : ('cross' as const);
    this.emit(
      account.id,
      accountUpdate(
        reason,
        account.walletBalance,
        metrics.crossWallet.toString(),
        positions,
        byKey,
        marginTypeOf,
        this.now(),
        balanceChange,
      ),
    );
  }
}

export function positionKey(accountId: number, symbol: string, positionSide: PositionSide): string {
  return `${accountId}:${symbol}:${positionSide}`;
}
