import { z } from 'zod';
import type { CloseClientTradeBody } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/** POST /api/trade_client/close_trade/ (client mode, SPEC.md §7): reports a position the SPA closed. */
export async function closeClientTrade(body: CloseClientTradeBody): Promise<void> {
  await apiPost('trade_client/close_trade/', body, z.unknown());
}
