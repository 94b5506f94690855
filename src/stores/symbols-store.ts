// Symbols (SPEC.md §3), keyed by symbol_uuid: names and the quantity / price precisions.
import { proxy } from 'valtio';
import type { SymbolDict } from '../../contracts/symbols';
import { getAvailableSymbols } from './api/get-available-symbols';

interface SymbolsState {
  symbol_dict: SymbolDict;
  is_loaded: boolean;
}

export const symbolsStore = proxy<SymbolsState>({ symbol_dict: {}, is_loaded: false });

export async function loadSymbols(): Promise<void> {
  try {
    symbolsStore.symbol_dict = await getAvailableSymbols();
    symbolsStore.is_loaded = true;
  } catch (error) {
    // Failures are only logged; the state stays unchanged (SPEC.md §8).
    console.error(error);
  }
}

export function resetSymbolsStore(): void {
  symbolsStore.symbol_dict = {};
  symbolsStore.is_loaded = false;
}
