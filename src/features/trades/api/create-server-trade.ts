import { z } from 'zod';
import type { CreateServerTradeBody } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/trade_server/create_trade/ (server mode, SPEC.md §7): the server opens the position with the token
 * opened by pin_code. The answer is not read (SPEC.md §7 "not shown"); open trades are read again afterwards.
 */
export async function createServerTrade(body: CreateServerTradeBody): Promise<void> {
  await apiPost('trade_server/create_trade/', body, z.unknown());
}
