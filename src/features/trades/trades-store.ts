// Open trades (SPEC.md §3 "Trade store"). The trading issue fills it (GET /trade/get_trades/open/,
// trade_updated_response_from_core); until then it holds the index live-events and the page title read.
import { proxy } from 'valtio';

/**
 * The fields of an open trade this issue reads. The trading issue replaces this with the contracts' Trade
 * type (z.infer), which has these fields and the rest of SPEC.md §3.
 */
export interface OpenTradeIndexEntry {
  trade_uuid: string;
  platform_uuid: string;
  symbol: { symbol_uuid: string };
}

interface TradesState {
  trade_by_uuid_dict: Record<string, OpenTradeIndexEntry>;
  /** symbol_uuid → trade_uuid of its open trade (SPEC.md §3). */
  trade_uuid_by_symbol_uuid_dict: Record<string, string>;
}

function initialState(): TradesState {
  return { trade_by_uuid_dict: {}, trade_uuid_by_symbol_uuid_dict: {} };
}

export const tradesStore = proxy<TradesState>(initialState());

/** Replaces the open trades and rebuilds the symbol index. */
export function setOpenTrades(trades: readonly OpenTradeIndexEntry[]): void {
  const byUuid: Record<string, OpenTradeIndexEntry> = {};
  const bySymbol: Record<string, string> = {};
  for (const trade of trades) {
    byUuid[trade.trade_uuid] = trade;
    bySymbol[trade.symbol.symbol_uuid] = trade.trade_uuid;
  }
  tradesStore.trade_by_uuid_dict = byUuid;
  tradesStore.trade_uuid_by_symbol_uuid_dict = bySymbol;
}

/** The open trade of a symbol, if any (live-events asks this for every price). */
export function findOpenTradeUuidBySymbol(symbolUuid: string): string | undefined {
  return tradesStore.trade_uuid_by_symbol_uuid_dict[symbolUuid];
}

/** Count of open trades, for the page title (SPEC.md §1). */
export function countOpenTrades(state: Pick<TradesState, 'trade_by_uuid_dict'>): number {
  return Object.keys(state.trade_by_uuid_dict).length;
}

export function resetTradesStore(): void {
  Object.assign(tradesStore, initialState());
}
