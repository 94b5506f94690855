import { z } from 'zod';
import type { CreateTradeTokenBody } from '../../../contracts/trade-tokens';
import { apiPost } from '../../lib/api-client';

/** POST /api/trade_token/create_trade_token/ (server mode, SPEC.md §7; the answer is not used). */
export async function createTradeToken(body: CreateTradeTokenBody): Promise<void> {
  await apiPost('trade_token/create_trade_token/', body, z.unknown());
}
