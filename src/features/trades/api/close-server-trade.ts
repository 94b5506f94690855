import { z } from 'zod';
import type { CloseServerTradeBody } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/** POST /api/trade_server/close_trade/ (server mode, SPEC.md §7): the server closes the position. */
export async function closeServerTrade(body: CloseServerTradeBody): Promise<void> {
  await apiPost('trade_server/close_trade/', body, z.unknown());
}
