// The one place that routes websocket events to feature actions (DESIGN.md layout, "How data flows").
// The socket is open while a user exists (SPEC.md §4 "Live data") and closed on logout; its status
// becomes the notifications of SPEC.md §8.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { TradeStatus, type ServerEvent } from '../../contracts';
import { authStore, takeWebsocketToken } from '../features/auth/auth-store';
import { setBitcoinInformation } from '../features/bitcoin/bitcoin-store';
import { addNotification, NotificationType } from '../features/notifications/notifications-store';
import { pushSymbolPrice } from '../features/prices/prices-store';
import { loadRecentSignals, pushSignals } from '../features/signals/signals-store';
import {
  applyTradeCalculated,
  findOpenTradeUuidsBySymbol,
  loadOpenTrades,
  scheduleOpenTradesRefetch,
  TradeUpdateResult,
} from '../features/trades/trades-store';
import { useTradeStatusTimers } from '../features/trades/use-trade-status-timers';
import { createWsClient, WsStatus, type WsClient, type WsClientOptions } from '../lib/ws-client';

/** The notification of each connection status (SPEC.md §8). */
const STATUS_NOTIFICATION: Readonly<Record<WsStatus, { type: NotificationType; key: string }>> = {
  [WsStatus.CONNECTED]: { type: NotificationType.SUCCESS, key: 'notification.websocket_connected' },
  [WsStatus.CLOSED]: { type: NotificationType.INFORMATION, key: 'notification.websocket_closed' },
  [WsStatus.ERROR]: { type: NotificationType.ERROR, key: 'notification.websocket_error' },
  [WsStatus.MESSAGE_ERROR]: { type: NotificationType.ERROR, key: 'notification.websocket_onmessage_error' },
  [WsStatus.EVENT_ERROR]: { type: NotificationType.ERROR, key: 'notification.websocket_receive_event_error' },
};

export function notifyConnectionStatus(status: WsStatus, detail?: string): void {
  const { type, key } = STATUS_NOTIFICATION[status];
  addNotification(type, detail ? [key, detail] : key);
}

/**
 * Applies one server event to the stores. `send` carries the client's answer: a price for a symbol with an
 * open trade asks the server to recompute that trade (SPEC.md §7).
 */
export function routeServerEvent(event: ServerEvent, client: Pick<WsClient, 'send' | 'isOpen'>): void {
  switch (event.event) {
    case 'bitcoin_public_information_from_core':
      setBitcoinInformation(event.message.bitcoin_public_information);
      return;
    case 'symbol_price_base_from_core': {
      const item = event.message.symbol_price_base;
      pushSymbolPrice(item);
      if (!client.isOpen()) return;
      for (const tradeUuid of findOpenTradeUuidsBySymbol(item.symbol_uuid)) {
        client.send({
          event: 'update_trade_by_current_price_from_client',
          message: { trade_uuid: tradeUuid },
        });
      }
      return;
    }
    case 'signal_from_core':
      // A signal on a symbol with an open trade also flags that trade DIRECTION_SIGNAL or REVERSE_SIGNAL
      // (SPEC.md §4). The server's trade monitor is the one source of those flags: it pushes
      // trade_updated_response_from_core, which the case below applies. A card counts down from when the
      // signal was made, its age measured on the server's clock (sent_at).
      pushSignals(event.message.signal_by_uuid, Date.now(), event.message.sent_at);
      return;
    case 'trade_updated_response_from_core': {
      const { trade_uuid, trade_update_calculated } = event.message;
      const result = applyTradeCalculated(trade_uuid, trade_update_calculated);
      // An open trade this list does not know yet (opened in another tab or device): read the list again.
      if (result === TradeUpdateResult.UNKNOWN && trade_update_calculated.trade_status === TradeStatus.OPEN) {
        scheduleOpenTradesRefetch();
      }
      return;
    }
    case 'bad_event':
      notifyConnectionStatus(WsStatus.EVENT_ERROR, event.message.detail);
      return;
  }
}

let activeClient: WsClient | undefined;

/** Opens the socket for the logged-in user; returns the function that closes it. */
export function startLiveEvents(options: Partial<WsClientOptions> = {}): () => void {
  stopLiveEvents();
  const client: WsClient = createWsClient({
    renewToken: takeWebsocketToken,
    onEvent: (event) => routeServerEvent(event, client),
    onStatus: (status, detail) => {
      notifyConnectionStatus(status, detail);
      // Updates sent while the socket was down are lost: every (re)connection reads the open trades again,
      // and the recent signals, so the cards of signals still counting down come back after a reload.
      if (status === WsStatus.CONNECTED) {
        void loadOpenTrades();
        void loadRecentSignals();
      }
    },
    ...options,
  });
  activeClient = client;
  client.start();
  return () => {
    client.close();
    if (activeClient === client) activeClient = undefined;
  };
}

/** Closes the socket (logout closes it before the stores are reset). */
export function stopLiveEvents(): void {
  activeClient?.close();
  activeClient = undefined;
}

/**
 * The layout's hook: a socket while a user exists, and the clock of the UI statuses the socket delivers, so
 * their countdowns run whichever page is shown (SPEC.md §4; trades/use-trade-status-timers.ts).
 */
export function useLiveEvents(): void {
  const { user } = useSnapshot(authStore);
  const userUuid = user?.user_uuid;
  useEffect(() => {
    if (!userUuid) return;
    return startLiveEvents();
  }, [userUuid]);
  useTradeStatusTimers(userUuid !== undefined);
}
