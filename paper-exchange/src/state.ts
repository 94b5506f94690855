// Durable state of the exchange: accounts, positions, orders, algo orders, trades, income and the id
// counters. Money is kept as exact decimal strings. Every mutation goes through Store.put/remove, which
// records the change so persistence can journal it before the answer leaves the process.
import type { MarketDurable } from './market/market.js';

export type Side = 'BUY' | 'SELL';
export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';
export type MarginType = 'ISOLATED' | 'CROSSED';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED' | 'EXPIRED';
export type OrderType =
  | 'LIMIT'
  | 'MARKET'
  | 'STOP'
  | 'STOP_MARKET'
  | 'TAKE_PROFIT'
  | 'TAKE_PROFIT_MARKET'
  | 'TRAILING_STOP_MARKET'
  | 'LIQUIDATION';
export type ConditionalType =
  'STOP' | 'STOP_MARKET' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET' | 'TRAILING_STOP_MARKET';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'GTX' | 'GTD';
export type WorkingType = 'MARK_PRICE' | 'CONTRACT_PRICE';
export type AlgoStatus =
  'NEW' | 'CANCELED' | 'TRIGGERING' | 'TRIGGERED' | 'FINISHED' | 'REJECTED' | 'EXPIRED';

export const CONDITIONAL_TYPES: readonly ConditionalType[] = [
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
];

export interface SymbolSettings {
  leverage: number;
  marginType: MarginType;
}

export interface AccountRecord {
  id: number;
  apiKey: string;
  keyType: 'HMAC' | 'ED25519';
  /** HMAC secret, or the Ed25519 public key in PEM. */
  secret: string;
  walletBalance: string;
  dualSidePosition: boolean;
  /** Per-account switch for conditional types on /fapi/v1/order; null follows the exchange default. */
  legacyConditionalOrders: boolean | null;
  symbols: Record<string, SymbolSettings>;
  createdAt: number;
  updateTime: number;
}

export interface PositionRecord {
  key: string;
  accountId: number;
  symbol: string;
  positionSide: PositionSide;
  /** Signed: negative for a short. */
  positionAmt: string;
  entryPrice: string;
  /** Margin assigned to an isolated position (reference §12); "0" for cross. */
  isolatedWallet: string;
  /** Accumulated realized PNL of this position ("cr" of ACCOUNT_UPDATE). */
  accumulatedRealized: string;
  updateTime: number;
}

/** State of a trailing stop: armed once the activation price is reached; extreme = best mark since. */
export interface TrailingState {
  activated: boolean;
  extreme: string;
}

export interface OrderRecord {
  orderId: number;
  accountId: number;
  symbol: string;
  clientOrderId: string;
  side: Side;
  positionSide: PositionSide;
  type: OrderType;
  origType: OrderType;
  timeInForce: TimeInForce;
  origQty: string;
  price: string;
  stopPrice: string;
  reduceOnly: boolean;
  closePosition: boolean;
  workingType: WorkingType;
  priceProtect: boolean;
  status: OrderStatus;
  executedQty: string;
  cumQuote: string;
  avgPrice: string;
  activatePrice: string | undefined;
  priceRate: string | undefined;
  trailing: TrailingState | undefined;
  /** Conditional order already triggered (now working as MARKET or LIMIT). */
  triggered: boolean;
  goodTillDate: number;
  /** The algo order this order was created by, when it was triggered from the Algo Order API. */
  algoId: number | undefined;
  time: number;
  updateTime: number;
}

export interface AlgoOrderRecord {
  algoId: number;
  accountId: number;
  clientAlgoId: string;
  orderType: ConditionalType;
  symbol: string;
  side: Side;
  positionSide: PositionSide;
  timeInForce: TimeInForce;
  quantity: string;
  algoStatus: AlgoStatus;
  triggerPrice: string;
  price: string;
  workingType: WorkingType;
  closePosition: boolean;
  priceProtect: boolean;
  reduceOnly: boolean;
  activatePrice: string | undefined;
  callbackRate: string | undefined;
  trailing: TrailingState | undefined;
  actualOrderId: number | undefined;
  goodTillDate: number;
  createTime: number;
  updateTime: number;
  triggerTime: number;
}

export interface TradeRecord {
  id: number;
  accountId: number;
  orderId: number;
  symbol: string;
  side: Side;
  positionSide: PositionSide;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  realizedPnl: string;
  maker: boolean;
  time: number;
}

export type IncomeType = 'TRANSFER' | 'REALIZED_PNL' | 'COMMISSION' | 'INSURANCE_CLEAR' | 'FUNDING_FEE';

export interface IncomeRecord {
  tranId: number;
  accountId: number;
  symbol: string;
  incomeType: IncomeType;
  income: string;
  info: string;
  tradeId: string;
  time: number;
}

export interface Counters {
  accountId: number;
  orderId: number;
  algoId: number;
  tradeId: number;
  tranId: number;
}

export interface Tables {
  accounts: Map<number, AccountRecord>;
  positions: Map<string, PositionRecord>;
  orders: Map<number, OrderRecord>;
  algoOrders: Map<number, AlgoOrderRecord>;
  trades: Map<number, TradeRecord>;
  income: Map<number, IncomeRecord>;
}

export type TableName = keyof Tables;
type RecordOf<K extends TableName> = Tables[K] extends Map<number | string, infer V> ? V : never;

/** A journal entry: the new value of one record, or null when it was removed. */
export interface Change {
  table: TableName | 'counters' | 'market';
  key: string;
  value: unknown;
}

export interface Snapshot {
  version: 1;
  seed: number;
  market: MarketDurable;
  counters: Counters;
  tables: { [K in TableName]: unknown[] };
}

export class Store {
  readonly tables: Tables = {
    accounts: new Map(),
    positions: new Map(),
    orders: new Map(),
    algoOrders: new Map(),
    trades: new Map(),
    income: new Map(),
  };
  counters: Counters = {
    accountId: 1,
    orderId: 4_000_000_001,
    algoId: 1_000_000_001,
    tradeId: 500_000_001,
    tranId: 9_000_000_001,
  };
  private readonly dirty = new Map<string, { table: TableName; key: string | number }>();
  private countersDirty = false;
  private marketDirty = false;

  put<K extends TableName>(table: K, key: string | number, value: RecordOf<K>): void {
    (this.tables[table] as Map<string | number, unknown>).set(key, value);
    this.touch(table, key);
  }

  /** Records that a record already in a table was mutated in place. */
  touch(table: TableName, key: string | number): void {
    this.dirty.set(`${table}:${key}`, { table, key });
  }

  nextId(counter: keyof Counters): number {
    const value = this.counters[counter];
    this.counters[counter] = value + 1;
    this.countersDirty = true;
    return value;
  }

  marketChanged(): void {
    this.marketDirty = true;
  }

  /** Fills the tables from a snapshot (start-up); nothing is marked as changed. */
  load(snapshot: Snapshot): void {
    this.counters = { ...snapshot.counters };
    for (const table of Object.keys(this.tables) as TableName[]) {
      const map = this.tables[table] as Map<string | number, unknown>;
      map.clear();
      for (const row of snapshot.tables[table]) map.set(keyOf(table, row), row);
    }
  }

  /** Everything, as a snapshot. */
  snapshot(seed: number, market: MarketDurable): Snapshot {
    const tables = {} as Snapshot['tables'];
    for (const table of Object.keys(this.tables) as TableName[]) {
      tables[table] = [...(this.tables[table] as Map<string | number, unknown>).values()];
    }
    return { version: 1, seed, market, counters: { ...this.counters }, tables };
  }

  get hasChanges(): boolean {
    return this.dirty.size > 0 || this.countersDirty || this.marketDirty;
  }

  /** The pending changes, in a form that can be journaled; clears them. */
  drain(market: () => MarketDurable): Change[] {
    const changes: Change[] = [];
    for (const { table, key } of this.dirty.values()) {
      const value = (this.tables[table] as Map<string | number, unknown>).get(key) ?? null;
      changes.push({ table, key: String(key), value });
    }
    if (this.countersDirty) changes.push({ table: 'counters', key: '', value: { ...this.counters } });
    if (this.marketDirty) changes.push({ table: 'market', key: '', value: market() });
    this.dirty.clear();
    this.countersDirty = false;
    this.marketDirty = false;
    return changes;
  }
}

/** Primary key of a record of each table. */
export function keyOf(table: TableName, row: unknown): string | number {
  const record = row as Record<string, unknown>;
  switch (table) {
    case 'accounts':
      return record.id as number;
    case 'positions':
      return record.key as string;
    case 'orders':
      return record.orderId as number;
    case 'algoOrders':
      return record.algoId as number;
    case 'trades':
      return record.id as number;
    case 'income':
      return record.tranId as number;
  }
}
