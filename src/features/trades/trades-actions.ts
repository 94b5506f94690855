// Closing trades (SPEC.md §4 "Closing a trade") in client mode (the SPA runs the exchange steps of
// shared-core/trade-flow.ts with the decrypted token, then records the result) and server mode (the server runs
// the same steps with the token opened by pin_code), and resetting a UI status. Failures become notifications
// (trade-notifications.ts); the open trades are read again TRADE_REFETCH_DELAY_MS after each close. Opening a
// trade starts from a signal card, so it is the app's (app/signal-trading.ts).
import {
  TradeSide,
  TradeStatus,
  exitsHeldByExchange,
  type ClosingTradeStatus,
  type Trade,
} from '../../../contracts';
import { closePosition } from '../../../shared-core/trade-flow';
import { authStore } from '../../stores/auth-store';
import { platformsStore } from '../../stores/platforms-store';
import { tradeSide } from '../../stores/preferences-store';
import { getPinCode } from '../../stores/pin-code-store';
import { TradeTokenLevel } from '../../stores/token-level';
import { withPlatformExchange } from '../../stores/platform-exchange';
import { readTokenEnvelope } from '../../stores/token-storage';
import { getTradeTokenLevel } from '../../stores/trade-tokens-store';
import { closeClientTrade } from './api/close-client-trade';
import { closeServerTrade } from './api/close-server-trade';
import { updateTradeStatus } from './api/update-trade-status';
import { notifyError, notifyFailure, notifySuccess } from './trade-notifications';
import {
  clearTradeUiStatus,
  removeTrade,
  scheduleOpenTradesRefetch,
  setTradeProcessing,
  tradesStore,
} from './trades-store';

type TradeCopy = Pick<
  Trade,
  | 'trade_uuid'
  | 'platform_uuid'
  | 'trade_in_server_side'
  | 'trade_direction'
  | 'trade_quantity'
  | 'trade_leverage'
  | 'trade_stop_order_id'
  | 'trade_order_id'
> & { symbol_pair: string; exits_held: boolean };

/**
 * The checks of SPEC.md §4 "Closing a trade", each with its notification. The token level is the one known
 * for the current mode, so it is checked only when the trade was opened in that mode; in the other mode the
 * decryption (client) or the server (server) tells.
 */
function closeBlocker(trade: TradeCopy): string[] | undefined {
  const pair = trade.symbol_pair;
  if (
    trade.trade_in_server_side === tradeSide() &&
    getTradeTokenLevel(trade.platform_uuid) !== TradeTokenLevel.TRADE_AVAILABLE
  ) {
    return ['trades.notify.token_not_available', pair];
  }
  if (!getPinCode(trade.platform_uuid)) return ['trades.notify.pin_not_set', pair];
  if (trade.trade_in_server_side === TradeSide.SERVER) return undefined;
  if (!platformsStore.platform_dict[trade.platform_uuid]) return ['trades.notify.platform_not_found', pair];
  if (!authStore.user) return ['notification.current_user_not_found'];
  if (!readTokenEnvelope(trade.platform_uuid)) return ['notification.trade_token_not_found', pair];
  return undefined;
}

/**
 * Closes a trade (SPEC.md §4 "Closing a trade") the way it was opened: its own trade_in_server_side picks the
 * mode, since a client-mode position can only be closed with the token in this browser and a server-mode one
 * only by the server. A trade being closed cannot be closed again. True when the trade was closed.
 */
export async function closeTrade(
  tradeUuid: string,
  status: ClosingTradeStatus = TradeStatus.MANUAL_CLOSE,
): Promise<boolean> {
  const live = tradesStore.trade_by_uuid_dict[tradeUuid];
  if (!live || tradesStore.processing_by_uuid[tradeUuid]) return false;
  const trade: TradeCopy = {
    trade_uuid: live.trade_uuid,
    platform_uuid: live.platform_uuid,
    trade_in_server_side: live.trade_in_server_side,
    trade_direction: live.trade_direction,
    trade_quantity: live.trade_quantity,
    trade_leverage: live.trade_leverage,
    trade_stop_order_id: live.trade_stop_order_id,
    trade_order_id: live.trade_order_id,
    symbol_pair: live.symbol.symbol_pair,
    exits_held: exitsHeldByExchange(live.trade_exits),
  };
  const blocker = closeBlocker(trade);
  if (blocker) {
    notifyError(blocker);
    return false;
  }
  setTradeProcessing(tradeUuid, true);
  try {
    if (trade.trade_in_server_side === TradeSide.SERVER) {
      await closeServerTrade({
        trade_uuid: tradeUuid,
        trade_status: status,
        pin_code: getPinCode(trade.platform_uuid) ?? '',
      });
      notifySuccess('notification.trade_closed');
    } else {
      await closeInClientMode(trade, status);
    }
  } catch (error) {
    setTradeProcessing(tradeUuid, false);
    notifyFailure('trades.notify.close_failed', error, [trade.symbol_pair]);
    return false;
  }
  // The server has recorded the close: the row goes now, and the list is read again to confirm.
  removeTrade(tradeUuid);
  scheduleOpenTradesRefetch();
  return true;
}

async function closeInClientMode(trade: TradeCopy, status: ClosingTradeStatus): Promise<void> {
  const closed = await withPlatformExchange(trade.platform_uuid, (client) =>
    closePosition(client, {
      symbol_pair: trade.symbol_pair,
      trade_direction: trade.trade_direction,
      trade_quantity: trade.trade_quantity,
      trade_leverage: trade.trade_leverage,
      trade_stop_order_id: trade.trade_stop_order_id,
      trade_order_id: trade.trade_order_id,
      trade_status: status,
      trade_exits_held: trade.exits_held,
    }),
  );
  await closeClientTrade({
    trade_uuid: trade.trade_uuid,
    trade_status: closed.trade_status,
    ...(closed.trade_close_price === undefined ? {} : { trade_close_price: closed.trade_close_price }),
    ...(closed.trade_close_price === undefined || closed.trade_close_commission === undefined
      ? {}
      : { trade_close_commission: closed.trade_close_commission }),
  });
  notifySuccess('notification.trade_closed');
  if (closed.stop_cancelled) notifySuccess('notification.stop_loss_cancelled');
}

/**
 * Resets an open trade to open with no UI status (SPEC.md §4: a click on the pulsing button, a
 * direction_signal countdown at 0, or a lit status whose time ran out while automatic closing is OFF).
 */
export async function resetTradeStatus(tradeUuid: string): Promise<boolean> {
  const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
  if (!trade || tradesStore.processing_by_uuid[tradeUuid]) return false;
  const pair = trade.symbol.symbol_pair;
  setTradeProcessing(tradeUuid, true);
  try {
    await updateTradeStatus({ trade_uuid: tradeUuid, trade_status: TradeStatus.OPEN });
    clearTradeUiStatus(tradeUuid);
    return true;
  } catch (error) {
    notifyFailure('trades.notify.status_reset_failed', error, [pair]);
    return false;
  } finally {
    setTradeProcessing(tradeUuid, false);
  }
}
