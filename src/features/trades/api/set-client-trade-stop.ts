import { z } from 'zod';
import type { SetClientTradeStopBody } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/trade_client/set_trade_stop/ (client mode; not in SPEC.md §7): records the stop Repair placed for a
 * trade that had none.
 */
export async function setClientTradeStop(body: SetClientTradeStopBody): Promise<void> {
  await apiPost('trade_client/set_trade_stop/', body, z.unknown());
}
