// The one place that routes websocket events to feature actions (DESIGN.md layout, "How data flows").
// The socket is open while a user exists (SPEC.md §4 "Live data") and closed on logout; its status
// becomes the notifications of SPEC.md §8.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { TradeStatus, type ServerEvent } from '../../contracts';
import { authStore, takeWebsocketToken } from '../stores/auth-store';
import { setBitcoinInformation } from '../features/bitcoin/bitcoin-store';
import { addNotification, NotificationType } from '../stores/notifications-store';
import { pushSymbolPrice } from '../stores/prices-store';
import { loadRecentSignals, pushSignals } from '../features/signals/signals-store';
import {
  applyTradeCalculated,
  findOpenTradeUuidsBySymbol,
  loadOpenTrades,
  scheduleOpenTradesRefetch,
  tradesStore,
  TradeUpdateResult,
} from '../features/trades/trades-store';
import { useTradeStatusTimers } from '../features/trades/use-trade-status-timers';
import { noteClientClose } from '../features/trades/account-follow';
import { CloseTelling, tellUnannouncedCloses } from '../features/trades/away-closes';
import { loadBalance } from './platform-keys';
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
 * How long a recompute request of a trade may stay unanswered before a new price asks again. While one is
 * out, further prices of the symbol do not ask for that trade: the answer is computed at the server's latest
 * price anyway, and with many open trades and fast prices the requests would otherwise outrun the answers
 * (500 trades at 100 prices a second are 6,000 requests a second) and queue up in the socket and the server.
 */
export const RECOMPUTE_WAIT_MS = 2000;

/**
 * The least time between two recompute requests of one trade. The exchange sends a symbol's mark price once a
 * second (`<symbol>@markPrice@1s`), so at that cadence every price still asks (the margin absorbs the
 * stream's jitter); faster prices (a busy feed, a replay, bench/spa/trading.ts's 12.5 a second per symbol) ask
 * for each trade at most this often, so the answers a page must apply grow with its open trades, not with
 * trades × prices.
 */
export const RECOMPUTE_MIN_INTERVAL_MS = 750;

/** When each trade's last recompute request was sent (Date.now()), and which are still unanswered. */
const recomputeAskedAt = new Map<string, number>();
const recomputeInFlight = new Set<string>();

/** Forgets the requests in flight (a new connection: their answers will not come). */
export function resetRecomputeRequests(): void {
  recomputeAskedAt.clear();
  recomputeInFlight.clear();
}

/** Whether a price arriving `now` asks the server to recompute the trade. */
function mayAskRecompute(tradeUuid: string, now: number): boolean {
  const askedAt = recomputeAskedAt.get(tradeUuid);
  if (askedAt === undefined) return true;
  const wait = recomputeInFlight.has(tradeUuid) ? RECOMPUTE_WAIT_MS : RECOMPUTE_MIN_INTERVAL_MS;
  return now - askedAt >= wait;
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
      const now = Date.now();
      for (const tradeUuid of findOpenTradeUuidsBySymbol(item.symbol_uuid)) {
        if (!mayAskRecompute(tradeUuid, now)) continue;
        const sent = client.send({
          event: 'update_trade_by_current_price_from_client',
          message: { trade_uuid: tradeUuid },
        });
        if (sent) {
          recomputeAskedAt.set(tradeUuid, now);
          recomputeInFlight.add(tradeUuid);
        }
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
      recomputeInFlight.delete(trade_uuid);
      if (trade_update_calculated.trade_status !== TradeStatus.OPEN) {
        recomputeAskedAt.delete(trade_uuid);
        // Closed by the server (issue 37: the exchange closed it while followed): its symbol may have orders
        // left waiting, which the page cancels before its next open there.
        const known = tradesStore.trade_by_uuid_dict[trade_uuid];
        if (known) noteClientClose(known);
        // A close this page did not ask for (issue 53) is told once, with its status and net PNL.
        void tellUnannouncedCloses(CloseTelling.LIVE);
      }
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

/**
 * Frames are applied together, at most this often. With hundreds of open trades the server answers thousands
 * of recomputes a second; applied one task each, every frame would notify the stores and re-render on its own
 * (bench/spa/trading.ts measured the page falling behind). One batch is one store notification and one render,
 * and a store render is synchronous (useSyncExternalStore): it interrupts a transition in progress, which React
 * then starts again. At 16 ms (60 renders a second) a modal's chart, drawn as a transition, could barely finish
 * between two batches; 100 ms is still under what a trader can tell from at once, and the exchange's mark
 * price comes once a second.
 */
export const LIVE_BATCH_MS = 100;

/** Collects events and routes them in arrival order, all in one task, LIVE_BATCH_MS after the first. */
function createEventBatch(route: (event: ServerEvent) => void) {
  let queue: ServerEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const events = queue;
    queue = [];
    for (const event of events) route(event);
  };
  return {
    push(event: ServerEvent) {
      queue.push(event);
      timer ??= setTimeout(flush, LIVE_BATCH_MS);
    },
    drop() {
      clearTimeout(timer);
      timer = undefined;
      queue = [];
    },
  };
}

/** Closes the open socket and drops its pending events. */
let stopActive: (() => void) | undefined;

/** Opens the socket for the logged-in user; returns the function that closes it. */
export function startLiveEvents(options: Partial<WsClientOptions> = {}): () => void {
  stopLiveEvents();
  const batch = createEventBatch((event) => routeServerEvent(event, client));
  const client: WsClient = createWsClient({
    renewToken: takeWebsocketToken,
    onEvent: (event) => batch.push(event),
    onStatus: (status, detail) => {
      notifyConnectionStatus(status, detail);
      // Updates sent while the socket was down are lost: every (re)connection reads the open trades again,
      // and the recent signals, so the cards of signals still counting down come back after a reload.
      if (status === WsStatus.CONNECTED) {
        resetRecomputeRequests();
        void loadOpenTrades();
        void loadRecentSignals();
        // What closed while no page was connected (issue 53): told once, in the bell's history too.
        void tellUnannouncedCloses(CloseTelling.AWAY);
      }
    },
    ...options,
  });
  const stop = () => {
    client.close();
    batch.drop();
    resetRecomputeRequests();
    if (stopActive === stop) stopActive = undefined;
  };
  stopActive = stop;
  client.start();
  return stop;
}

/** Closes the socket (logout closes it before the stores are reset). */
export function stopLiveEvents(): void {
  stopActive?.();
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
  useTradeStatusTimers(userUuid !== undefined, checkExchangeExit);
}

/** An exit the exchange holds was flagged: the balance read's reconciliation records the exchange's close. */
function checkExchangeExit(platformUuid: string): void {
  void loadBalance(platformUuid);
}
