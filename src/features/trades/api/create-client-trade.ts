import { z } from 'zod';
import type { CreateClientTradeBody, PlatformPreferences } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';
import type { OpenedPosition } from '../../../../shared-core/trade-flow';

/**
 * The record of a position this browser opened: its signal, the trade settings it was opened with, and what the
 * exchange made of it (the open, and the completion of an open a page left unfinished, record it alike).
 */
export function clientTradeRecord(
  signalUuid: string,
  settings: PlatformPreferences,
  opened: OpenedPosition,
): CreateClientTradeBody {
  return {
    signal_uuid: signalUuid,
    trade_margin: settings.trade_margin,
    trade_leverage: settings.trade_leverage,
    trade_stop_loss_percent: settings.trade_stop_loss_percent,
    trade_take_profit_percent: settings.trade_take_profit_percent,
    trade_treiling_stop_percent: settings.trade_treiling_stop_percent,
    trade_quantity: opened.trade_quantity,
    trade_open_price: opened.trade_open_price,
    trade_order_id: opened.trade_order_id,
    trade_stop_order_id: opened.trade_stop_order_id,
    trade_stop_price: opened.trade_stop_price,
    trade_exits: opened.exits ?? null,
    trade_backstop: opened.trade_backstop ?? null,
    // Read after the MARKET order (issue 18), when the open read them; the server computes the liquidation
    // price and the net figures.
    ...definedOnly({
      trade_open_commission: opened.trade_open_commission,
      trade_maint_margin_rate: opened.trade_maint_margin_rate,
      trade_maint_amount: opened.trade_maint_amount,
    }),
  };
}

/** The entries whose value is not undefined. */
function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * POST /api/trade_client/create_trade/ (client mode, SPEC.md §7): records a position the SPA opened itself.
 * The answer is not read (SPEC.md §7 "not shown"); open trades are read again afterwards.
 */
export async function createClientTrade(body: CreateClientTradeBody): Promise<void> {
  await apiPost('trade_client/create_trade/', body, z.unknown());
}
