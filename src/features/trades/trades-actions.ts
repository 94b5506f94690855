// Opening and closing trades (SPEC.md §4 "Opening a trade", "Closing a trade") in client mode (the SPA runs
// the exchange steps of lib/trade-flow.ts with the decrypted token, then records the result) and server mode
// (the server runs the same steps with the token opened by pin_code). Failures become notifications
// (trade-notifications.ts); the open trades are read again TRADE_REFETCH_DELAY_MS after each open or close.
import {
  TradeError,
  TradeSide,
  TradeStatus,
  type ClosingTradeStatus,
  type PlatformPreferences,
  type Trade,
} from '../../../contracts';
import { ApiError, ApiErrorKind } from '../../lib/api-client';
import { closePosition, OpenFailure, openPosition, TradeOpenError } from '../../../shared-core/trade-flow';
import { authStore } from '../../stores/auth-store';
import { addNotification, NotificationType } from '../../stores/notifications-store';
import { platformsStore } from '../../stores/platforms-store';
import { loadPlatformPreferences, preferencesStore, tradeSide } from '../../stores/preferences-store';
import { removeSignal, signalsStore } from '../signals/signals-store';
import { symbolsStore } from '../../stores/symbols-store';
import { getPinCode } from '../../stores/pin-code-store';
import { TradeTokenLevel } from '../../stores/token-level';
import { withPlatformExchange } from '../../stores/platform-exchange';
import { readTokenEnvelope } from '../../stores/token-storage';
import { getTradeTokenLevel } from '../../stores/trade-tokens-store';
import { closeClientTrade } from './api/close-client-trade';
import { closeServerTrade } from './api/close-server-trade';
import { clientTradeRecord, createClientTrade } from './api/create-client-trade';
import { createServerTrade } from './api/create-server-trade';
import { updateTradeStatus } from './api/update-trade-status';
import { runNotedClientOpen } from './client-open-journal';
import { markTradeErrorAnnounced } from './trade-error-notices';
import {
  exchangeErrorLine,
  failureLine,
  notifyError,
  notifyFailure,
  notifySuccess,
} from './trade-notifications';
import {
  clearTradeUiStatus,
  removeTrade,
  scheduleOpenTradesRefetch,
  setTradeProcessing,
  tradesStore,
} from './trades-store';

/** The trade settings of a platform (SPEC.md §4 "trade settings exist"), read when not known yet. */
async function platformPreferencesOf(platformUuid: string): Promise<PlatformPreferences | undefined> {
  const known = preferencesStore.platform_preferences_by_uuid[platformUuid];
  if (known) return { ...known };
  await loadPlatformPreferences(platformUuid);
  const loaded = preferencesStore.platform_preferences_by_uuid[platformUuid];
  return loaded ? { ...loaded } : undefined;
}

/**
 * Opens a trade from a signal (SPEC.md §4 "Opening a trade"). Without a PIN, without token level
 * TRADE_AVAILABLE or without the platform's trade settings it silently does nothing. The mode is the global
 * preference trade_in_server_side. On success: 'Trade opened', the card goes, the open trades are read again.
 */
export async function openTradeFromSignal(signalUuid: string): Promise<void> {
  const signal = signalsStore.signal_by_uuid[signalUuid];
  if (!signal) return;
  const platformUuid = signal.platform_uuid;
  const pinCode = getPinCode(platformUuid);
  if (!pinCode || getTradeTokenLevel(platformUuid) !== TradeTokenLevel.TRADE_AVAILABLE) return;
  const preferences = await platformPreferencesOf(platformUuid);
  if (!preferences) return;
  const base = { signal_uuid: signalUuid, ...preferences };
  try {
    if (tradeSide() === TradeSide.SERVER) {
      const answered = await createServerTradeOrTimeout({ ...base, pin_code: pinCode });
      if (!answered) return;
    } else {
      const opened = await openInClientMode(signalUuid, preferences);
      if (!opened) return;
    }
  } catch (error) {
    if (error instanceof TradeOpenError) {
      notifyOpenFailure(error);
      // The position was opened and closed again: the card goes. Its signal's order ids are spent, and trading
      // it again would find the filled opening order and record a position that no longer exists.
      if (error.failure === OpenFailure.STOP_REJECTED_POSITION_CLOSED) removeSignal(signalUuid);
    } else notifyFailure('trades.notify.open_failed', error, [signal.symbol.symbol_pair]);
    return;
  }
  notifySuccess('notification.trade_opened');
  removeSignal(signalUuid);
  scheduleOpenTradesRefetch();
}

/**
 * Server mode: the server runs the exchange steps, which can take longer than this page waits for an answer
 * (each exchange call may take its own time-out). A time-out here says nothing about the trade: the server
 * may still open it, and then tells every socket of the trader, so it shows in the list. Neither does a
 * connection lost while the server works (the server stopped half-way; after its restart the open is completed
 * or undone by reconciliation, docs/decisions.md "Faults"). The trader is told exactly that, and the card stays
 * (trading it again is refused while that trade exists). False on either; other failures are thrown.
 */
async function createServerTradeOrTimeout(body: Parameters<typeof createServerTrade>[0]): Promise<boolean> {
  try {
    await createServerTrade(body);
    return true;
  } catch (error) {
    const unknownOutcome: Partial<Record<string, string>> = {
      [ApiErrorKind.TIMEOUT_ERROR]: 'trades.notify.server_open_timeout',
      [ApiErrorKind.FETCH_ERROR]: 'trades.notify.server_open_lost',
    };
    const key = error instanceof ApiError ? unknownOutcome[error.kind] : undefined;
    if (!key) throw error;
    console.error(error);
    addNotification(NotificationType.WARNING, key, { isOnlyManualClose: true });
    return false;
  }
}

/** Client mode: the exchange steps with the decrypted token, then the record. False when a check failed. */
async function openInClientMode(signalUuid: string, preferences: PlatformPreferences): Promise<boolean> {
  const signal = signalsStore.signal_by_uuid[signalUuid];
  const platform = signal ? platformsStore.platform_dict[signal.platform_uuid] : undefined;
  if (!signal || !platform) return false;
  const user = authStore.user;
  if (!user) {
    notifyError('notification.current_user_not_found');
    return false;
  }
  if (!readTokenEnvelope(signal.platform_uuid)) {
    notifyError(['notification.trade_token_not_found', signal.symbol.symbol_pair]);
    return false;
  }
  const symbol = symbolsStore.symbol_dict[signal.symbol.symbol_uuid];
  if (!symbol) {
    notifyError(['trades.notify.symbol_not_found', signal.symbol.symbol_pair]);
    return false;
  }
  const note = {
    signal_uuid: signalUuid,
    ...preferences,
    user_uuid: user.user_uuid,
    platform_uuid: signal.platform_uuid,
    symbol_pair: symbol.symbol_pair,
    symbol_price_precision: symbol.symbol_price_precision,
    trade_direction: signal.signal_direction_created,
  };
  // Noted before the market order, so a page closed before the record leaves the open to be completed at the
  // next balance read (client-open-journal.ts).
  const opened = await runNotedClientOpen(note, async () => {
    const position = await withPlatformExchange(signal.platform_uuid, (client) =>
      openPosition(client, {
        symbol_pair: symbol.symbol_pair,
        trade_direction: signal.signal_direction_created,
        trade_margin: preferences.trade_margin,
        trade_leverage: preferences.trade_leverage,
        trade_stop_loss_percent: preferences.trade_stop_loss_percent,
        symbol_price_precision: symbol.symbol_price_precision,
        symbol_quantity_precision: symbol.symbol_quantity_precision,
        signal_uuid: signalUuid,
      }),
    );
    try {
      await createClientTrade(clientTradeRecord(signalUuid, preferences, position));
    } catch (error) {
      // The position is open on the exchange but not recorded: the note stays, so the next balance read
      // records it; opening from the same card again also finds the filled order by its client id and records
      // it instead of opening a second position (lib/trade-flow.ts).
      console.error(error);
      addNotification(
        NotificationType.ERROR,
        ['trades.notify.record_failed', symbol.symbol_pair, failureLine(error)],
        { isOnlyManualClose: true },
      );
      return undefined;
    }
    return position;
  });
  if (!opened) return false;
  if (opened.trade_stop_order_id === null) {
    // The position is open without its exchange-side stop: this must stay in view until the trader acts.
    markTradeErrorAnnounced(signalUuid, TradeError.STOP_MISSING);
    addNotification(
      NotificationType.WARNING,
      [
        'trades.notify.opened_without_stop',
        symbol.symbol_pair,
        ...(opened.stop_error ? [exchangeErrorLine(opened.stop_error)] : []),
      ],
      { isOnlyManualClose: true },
    );
  }
  return true;
}

/** The market order was sent but the open did not complete (lib/trade-flow.ts OpenFailure). */
function notifyOpenFailure(error: TradeOpenError): void {
  console.error(error);
  if (error.failure === OpenFailure.STOP_REJECTED_POSITION_CLOSED) {
    notifyError(['trades.notify.stop_rejected_position_closed', exchangeErrorLine(error.cause)]);
    return;
  }
  // ORDER_UNCONFIRMED: the position may or may not exist and nothing is recorded (no entry price is known), so
  // Repair cannot see it. Trading the same card again looks the order up by its client id and records the
  // position if it was filled, never opening a second one (lib/trade-flow.ts); the card is kept for that.
  addNotification(
    NotificationType.ERROR,
    ['trades.notify.order_unconfirmed', exchangeErrorLine(error.cause)],
    { isOnlyManualClose: true },
  );
}

type TradeCopy = Pick<
  Trade,
  | 'trade_uuid'
  | 'platform_uuid'
  | 'trade_in_server_side'
  | 'trade_direction'
  | 'trade_quantity'
  | 'trade_leverage'
  | 'trade_stop_order_id'
> & { symbol_pair: string };

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
    symbol_pair: live.symbol.symbol_pair,
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
      trade_status: status,
    }),
  );
  await closeClientTrade({
    trade_uuid: trade.trade_uuid,
    trade_status: closed.trade_status,
    ...(closed.trade_close_price === undefined ? {} : { trade_close_price: closed.trade_close_price }),
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
