import { getSymbolCandlesAnswer } from '../../../contracts/symbols';
import { apiGet } from '../../lib/api-client';

/** GET /api/symbol/get_symbol_candles/{symbol_uuid}/?limit= → the last closed minutes and the forming one. */
export async function getSymbolCandles(symbolUuid: string, limit: number) {
  const answer = await apiGet(`symbol/get_symbol_candles/${symbolUuid}/`, getSymbolCandlesAnswer, { limit });
  return answer.result;
}
