import { getAvailableSymbolsDictAnswer } from '../../../contracts/symbols';
import { apiGet } from '../../lib/api-client';

/** GET /api/symbol/get_available_symbols_dict/ → result.symbol_dict (SPEC.md §7). */
export async function getAvailableSymbols() {
  const answer = await apiGet('symbol/get_available_symbols_dict/', getAvailableSymbolsDictAnswer);
  return answer.result.symbol_dict;
}
