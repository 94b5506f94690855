// Live prices (SPEC.md §3 "Symbol price item", §4 "Live data"): the latest price and trend per symbol, and
// the price ticker's queue. symbol_price_base_from_core arrives through live-events; the ticker's 1150 ms
// timer lives in its component (DESIGN.md: timers are not store state).
import { proxy } from 'valtio';
import { PRICE_QUEUE_MAX_COUNT } from '../config/constants';
import type { SymbolPriceBase } from '../../contracts';

interface PricesState {
  /** Latest price item per symbol_uuid; trading rows read current_price and trend_moment here. */
  symbol_price_by_uuid: Record<string, SymbolPriceBase>;
  /** The ticker queue, oldest first; the ticker shows its first item. */
  symbol_price_queue: SymbolPriceBase[];
}

function initialState(): PricesState {
  return { symbol_price_by_uuid: {}, symbol_price_queue: [] };
}

export const pricesStore = proxy<PricesState>(initialState());

/**
 * Records a price. The queue keeps one item per symbol: a newer price of a queued symbol replaces it in
 * place, so the ticker always shows fresh prices and the queue cannot outgrow the symbol list however fast
 * prices arrive; it is also capped at PRICE_QUEUE_MAX_COUNT (oldest dropped).
 */
export function pushSymbolPrice(item: SymbolPriceBase): void {
  pricesStore.symbol_price_by_uuid[item.symbol_uuid] = item;
  const queue = pricesStore.symbol_price_queue;
  const index = queue.findIndex((queued) => queued.symbol_uuid === item.symbol_uuid);
  if (index >= 0) {
    queue[index] = item;
    return;
  }
  queue.push(item);
  if (queue.length > PRICE_QUEUE_MAX_COUNT) queue.splice(0, queue.length - PRICE_QUEUE_MAX_COUNT);
}

/** The ticker's step (SPEC.md §4): drops the oldest item; the last one stays, so the ticker never blanks. */
export function dropOldestSymbolPrice(): void {
  if (pricesStore.symbol_price_queue.length > 1) pricesStore.symbol_price_queue.shift();
}

export function resetPricesStore(): void {
  Object.assign(pricesStore, initialState());
}
