import { z } from 'zod';
import type { TradePreferences } from '../../../contracts/preferences';
import { apiPost } from '../../lib/api-client';

/** POST /api/trade_preferences/set_preferences/ (SPEC.md §7; the answer is not used). */
export async function setTradePreferences(body: TradePreferences): Promise<void> {
  // keepalive: an edit flushed as the tab closes still reaches the server (issue 53).
  await apiPost('trade_preferences/set_preferences/', body, z.unknown(), { keepalive: true });
}
