import { z } from 'zod';
import type { UpdateTradeStatusBody } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/** POST /api/trade/update_trade_status/ (SPEC.md §7 update-trade-status): resets an open trade to open. */
export async function updateTradeStatus(body: UpdateTradeStatusBody): Promise<void> {
  await apiPost('trade/update_trade_status/', body, z.unknown());
}
