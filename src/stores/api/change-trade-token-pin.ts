import { z } from 'zod';
import type { ChangeTradeTokenPinBody } from '../../../contracts/trade-tokens';
import { apiPost } from '../../lib/api-client';

/**
 * POST /api/trade_token/change_pin_code/ (server mode; not in SPEC.md §7): the server opens its copy of the token
 * with the old PIN and seals it under the new one (issue 36). The answer is not used: the token is read again.
 */
export async function changeTradeTokenPin(body: ChangeTradeTokenPinBody): Promise<void> {
  await apiPost('trade_token/change_pin_code/', body, z.unknown());
}
