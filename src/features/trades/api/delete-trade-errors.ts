import type { z } from 'zod';
import { deleteTradeErrorsAnswer, type deleteTradeErrorsBody } from '../../../../contracts';
import { apiDelete } from '../../../lib/api-client';

export type DeleteTradeErrorsBody = z.input<typeof deleteTradeErrorsBody>;

/**
 * DELETE /api/trade/delete_trade_errors/ (SPEC.md §7): repairs the trader's error trades; result.count is how
 * many. The body carries the PINs the SPA holds so the server can reconcile server-mode trades with the
 * exchange; it is optional on the server (contracts/trades.ts).
 */
export async function deleteTradeErrors(body: DeleteTradeErrorsBody): Promise<number> {
  const answer = await apiDelete('trade/delete_trade_errors/', deleteTradeErrorsAnswer, body);
  return answer.result.count;
}
