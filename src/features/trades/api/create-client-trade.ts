import { z } from 'zod';
import type { CreateClientTradeBody } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/trade_client/create_trade/ (client mode, SPEC.md §7): records a position the SPA opened itself.
 * The answer is not read (SPEC.md §7 "not shown"); open trades are read again afterwards.
 */
export async function createClientTrade(body: CreateClientTradeBody): Promise<void> {
  await apiPost('trade_client/create_trade/', body, z.unknown());
}
