// Opening a trade from a signal card (SPEC.md §4 "Opening a trade"): a rule across features, so the app's. It
// reads the card (signals), the platform's PIN, token level and trade settings (stores), runs the exchange steps
// of shared-core/trade-flow.ts in client mode or asks the server in server mode, records the trade (trades), and
// removes the card of a traded signal, whoever learns of the trade (trades-store onSignalTraded). The signal
// cards get openTradeFromSignal from here (app/routes/trading-page.tsx, app/layout.tsx); failures become
// notifications (trades/trade-notifications.ts).
import {
  TradeError,
  TradeSide,
  exitsHeldByExchange,
  type PlatformPreferences,
  type Signal,
} from '../../contracts';
import { ApiError, ApiErrorKind } from '../lib/api-client';
import { riskLimitLine } from '../lib/i18n';
import { riskLimitRefusal } from '../../contracts';
import { OpenFailure, openPosition, TradeOpenError } from '../../shared-core/trade-flow';
import { removeSignal, signalsStore } from '../features/signals/signals-store';
import { isPlaceable, placementLine, signalPlacement } from '../features/signals/signal-placement';
import type { OpenTradeOptions } from '../features/signals/trade-from-signal';
import { bracketsOf } from '../stores/brackets-store';
import { pricesStore } from '../stores/prices-store';
import i18n from 'i18next';
import { pointToNewTrade } from './new-trade-pointer';
import { clientTradeRecord, createClientTrade } from '../features/trades/api/create-client-trade';
import { createServerTrade } from '../features/trades/api/create-server-trade';
import {
  CLIENT_OPEN_RESUME_AFTER_MS,
  readClientOpens,
  runNotedClientOpen,
} from '../features/trades/client-open-journal';
import { markTradeErrorAnnounced } from '../features/trades/trade-error-notices';
import { clientTradesToCheck, reconcileClientTrades } from '../features/trades/trade-reconcile';
import { cancelWaitingOrders, mayHaveWaitingOrders } from '../features/trades/account-follow';
import {
  exchangeErrorLine,
  failureLine,
  notifyError,
  notifyFailure,
  notifySuccess,
} from '../features/trades/trade-notifications';
import {
  findOpenTradeUuidsBySymbol,
  onSignalTraded,
  scheduleOpenTradesRefetch,
  tradesStore,
} from '../features/trades/trades-store';
import { authStore } from '../stores/auth-store';
import { addNotification, NotificationType } from '../stores/notifications-store';
import { getPinCode } from '../stores/pin-code-store';
import { withPlatformExchange } from '../stores/platform-exchange';
import { platformsStore } from '../stores/platforms-store';
import { loadPlatformPreferences, preferencesStore, tradeSide } from '../stores/preferences-store';
import { symbolsStore } from '../stores/symbols-store';
import { TradeTokenLevel } from '../stores/token-level';
import { loadRiskLimitState } from '../stores/risk-limits-store';
import { readTokenEnvelope } from '../stores/token-storage';
import { getTradeTokenLevel } from '../stores/trade-tokens-store';

let removingTradedCards: (() => void) | undefined;

/**
 * The card of a signal that has a trade goes (SPEC.md §4 "Opening a trade"): whenever the trades feature learns
 * of one (a read of the open trades, an open a closed page left unfinished). Installed once by the app.
 */
export function removeCardsOfTradedSignals(): void {
  removingTradedCards ??= onSignalTraded(removeSignal);
}

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
export function openTradeFromSignal(signalUuid: string, options?: OpenTradeOptions): Promise<void> {
  if (!riskLimitsOn() || tradeSide() === TradeSide.SERVER) return openChecked(signalUuid, options);
  // Client mode with a risk limit on: one open after another, each checking the limits afresh once the one
  // before is recorded, so two cards whose timers fire in the same second cannot both pass "max open trades"
  // (server mode has the same queue on the server, services/risk-limits.ts).
  const next = clientOpens.then(() => openChecked(signalUuid, options));
  clientOpens = next.catch(() => undefined);
  return next;
}
let clientOpens: Promise<unknown> = Promise.resolve();

/** A risk limit is on (issue 18), or the preferences are not known yet (then the limits are checked too). */
function riskLimitsOn(): boolean {
  const limits = preferencesStore.trade_preferences;
  return !limits || limits.trade_max_open_trades > 0 || limits.trade_daily_loss_limit > 0;
}

/**
 * One trade per symbol and exchange account (issue 36): symbol_uuid (one platform's pair) → the signal whose open
 * this page runs there, kept until the open trades list it (or SYMBOL_HOLD_MS at most). A signal that finds a
 * trade on its symbol (listed, opening here, or opening in another tab: its note in the client-open journal)
 * opens nothing: the trade monitor flags that trade instead (SPEC.md §4 direction / reverse signal), so two
 * opposite signals in one second never open two positions that net on the exchange. The server refuses a
 * server-mode open on such a symbol too.
 */
const symbolsOpening = new Map<string, string>();
const SYMBOL_HOLD_MS = 60_000;
let releasingListedSymbols: (() => void) | undefined;

/**
 * A client-mode trade whose exits the exchange holds may have been closed there meanwhile: it does not count
 * here; the client-mode open checks it on the exchange first (openInClientMode), and a server-mode one lets the
 * server decide (it checks its own such trades).
 */
/** Logout (and tests): no open of this page holds a symbol any more. */
export function resetSymbolHolds(): void {
  symbolsOpening.clear();
}

function symbolTaken(signal: Signal): boolean {
  const symbolUuid = signal.symbol.symbol_uuid;
  // The signal's own earlier open (an unconfirmed order traded again finds its order instead of a second one).
  const holder = symbolsOpening.get(symbolUuid);
  if (holder !== undefined && holder !== signal.signal_uuid) return true;
  const listed = findOpenTradeUuidsBySymbol(symbolUuid).map((uuid) => tradesStore.trade_by_uuid_dict[uuid]);
  const mayBeGone = (trade: (typeof listed)[number]) =>
    trade?.trade_in_server_side === tradeSide() && exitsHeldByExchange(trade.trade_exits);
  if (listed.some((trade) => trade?.signal_uuid !== signal.signal_uuid && !mayBeGone(trade))) return true;
  const now = Date.now();
  return readClientOpens().some(
    (open) =>
      open.platform_uuid === signal.platform_uuid &&
      open.symbol_pair === signal.symbol.symbol_pair &&
      open.signal_uuid !== signal.signal_uuid &&
      now - open.started_at < CLIENT_OPEN_RESUME_AFTER_MS,
  );
}

/** The open on the symbol is done: the hold goes once the trade is listed (or at once when nothing opened). */
function releaseSymbol(symbolUuid: string, signalUuid: string, opened: boolean): void {
  const release = () => {
    if (symbolsOpening.get(symbolUuid) === signalUuid) symbolsOpening.delete(symbolUuid);
  };
  if (!opened) return release();
  releasingListedSymbols ??= onSignalTraded((traded) => {
    for (const [symbol, signal] of symbolsOpening) if (signal === traded) symbolsOpening.delete(symbol);
  });
  setTimeout(release, SYMBOL_HOLD_MS);
}

async function openChecked(signalUuid: string, options?: OpenTradeOptions): Promise<void> {
  const signal = signalsStore.signal_by_uuid[signalUuid];
  if (!signal) return;
  const platformUuid = signal.platform_uuid;
  const pinCode = getPinCode(platformUuid);
  if (!pinCode || getTradeTokenLevel(platformUuid) !== TradeTokenLevel.TRADE_AVAILABLE) return;
  // Taken or claimed before the first await: two signals of one second cannot both pass.
  const symbolUuid = signal.symbol.symbol_uuid;
  const taken = symbolTaken(signal);
  if (!taken) symbolsOpening.set(symbolUuid, signalUuid);
  // (Held by this signal already: a second run of it, as the first may still be running, releases nothing.)
  let opened = false;
  try {
    opened = await openOnSymbol(signal, pinCode, taken, options);
  } finally {
    if (!taken) releaseSymbol(symbolUuid, signalUuid, opened);
  }
}

/** The checks after the symbol's, then the open in the trader's mode; true when a trade was opened. */
async function openOnSymbol(
  signal: Signal,
  pinCode: string,
  symbolTaken: boolean,
  options?: OpenTradeOptions,
): Promise<boolean> {
  const signalUuid = signal.signal_uuid;
  const settings = await platformPreferencesOf(signal.platform_uuid);
  if (!settings) return false;
  // The card's one click with the smallest margin the exchange takes (issue 53) replaces the margin only.
  const preferences =
    options?.margin === undefined ? settings : { ...settings, trade_margin: options.margin };
  const base = { signal_uuid: signalUuid, ...preferences };
  // The risk limits, read afresh (issue 18): a refused open touches no exchange, in either mode. The server
  // refuses a server-mode open past a limit itself too; a failed read leaves that to it.
  // Only while a limit is on: with both off the click waits on no request to our server before the exchange
  // calls (issue 16's two round trips).
  const limits = riskLimitsOn() ? await loadRiskLimitState() : undefined;
  const refusal = limits && riskLimitRefusal(limits);
  if (refusal) {
    notifyError(riskLimitLine(refusal));
    return false;
  }
  if (symbolTaken) {
    notifyError(['trades.notify.symbol_has_trade', signal.symbol.symbol_pair]);
    return false;
  }
  // An order the exchange must refuse (below its minimum, above its largest) touches no exchange (issue 53): at
  // the latest price, with no allowance (the card asked with one).
  const symbol = symbolsStore.symbol_dict[signal.symbol.symbol_uuid];
  const placement = signalPlacement(signal, preferences, symbol, {
    price: pricesStore.symbol_price_by_uuid[signal.symbol.symbol_uuid]?.current_price,
    allowancePercent: 0,
    brackets: bracketsOf(signal.platform_uuid, signal.symbol.symbol_pair),
  });
  if (placement && symbol && !isPlaceable(placement)) {
    notifyError([
      'trades.notify.open_failed',
      signal.symbol.symbol_pair,
      placementLine(i18n.t, placement, preferences.trade_leverage, symbol),
    ]);
    return false;
  }
  try {
    if (tradeSide() === TradeSide.SERVER) {
      const answered = await createServerTradeOrTimeout({ ...base, pin_code: pinCode });
      // Unknown outcome: the server may still open it, so the symbol stays held (until listed or the hold ends).
      if (!answered) return true;
    } else {
      const opened = await openInClientMode(signalUuid, preferences);
      if (!opened) return false;
    }
  } catch (error) {
    if (error instanceof TradeOpenError) {
      notifyOpenFailure(error);
      // The position was opened and closed again: the card goes. Its signal's order ids are spent, and trading
      // it again would find the filled opening order and record a position that no longer exists.
      if (error.failure === OpenFailure.STOP_REJECTED_POSITION_CLOSED) removeSignal(signalUuid);
    } else notifyFailure('trades.notify.open_failed', error, [signal.symbol.symbol_pair]);
    // An unconfirmed order may have opened the position: the symbol stays held until the list says.
    return error instanceof TradeOpenError && error.failure === OpenFailure.ORDER_UNCONFIRMED;
  }
  notifySuccess('notification.trade_opened');
  // Its row lands far below the cards: the trading page points to it while it is out of view (issue 53).
  pointToNewTrade(signalUuid);
  removeSignal(signalUuid);
  scheduleOpenTradesRefetch();
  void loadRiskLimitState();
  return true;
}

/**
 * Server mode: the server runs the exchange steps, which can take longer than this page waits for an answer
 * (each exchange call may take its own time-out). A time-out here says nothing about the trade: the server
 * may still open it, and then tells every socket of the trader, so it shows in the list. Neither does a
 * connection lost while the server works (the server stopped half-way; after its restart the open is completed
 * or undone by reconciliation, docs/spa.md "Faults"). The trader is told exactly that, and the card stays
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
  // Exits an earlier trade on the symbol left on the exchange would act on the new position (issue 35): a
  // trade the exchange closed is reported and its leftover exits cancelled first (no call when none). One still
  // open there keeps the symbol taken (issue 36).
  const held = clientTradesToCheck(signal.platform_uuid).filter(
    (trade) => trade.symbol_pair === symbol.symbol_pair && trade.trade_exits_held,
  );
  // Orders that closes the server recorded while the trader was away left on the exchange (issue 37) go first.
  if (mayHaveWaitingOrders(signal.platform_uuid, symbol.symbol_pair)) {
    await withPlatformExchange(signal.platform_uuid, (client) =>
      cancelWaitingOrders(signal.platform_uuid, client, symbol.symbol_pair),
    );
  }
  if (held.length > 0) {
    await withPlatformExchange(signal.platform_uuid, (client) => reconcileClientTrades(client, held));
    if (findOpenTradeUuidsBySymbol(symbol.symbol_uuid).length > 0) {
      notifyError(['trades.notify.symbol_has_trade', symbol.symbol_pair]);
      return false;
    }
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
        // The exchange holds the take profit and the trailing stop unless the trader turned it off (issue 35).
        ...(preferencesStore.trade_preferences?.trade_exits_on_exchange !== 0 && {
          exits: {
            trade_take_profit_percent: preferences.trade_take_profit_percent,
            trade_treiling_stop_percent: preferences.trade_treiling_stop_percent,
          },
        }),
      }),
    );
    try {
      await createClientTrade(clientTradeRecord(signalUuid, preferences, position));
    } catch (error) {
      // The position is open on the exchange but not recorded: the note stays, so the next balance read
      // records it; opening from the same card again also finds the filled order by its client id and records
      // it instead of opening a second position (shared-core/trade-flow.ts).
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

/** The market order was sent but the open did not complete (shared-core/trade-flow.ts OpenFailure). */
function notifyOpenFailure(error: TradeOpenError): void {
  console.error(error);
  if (error.failure === OpenFailure.STOP_REJECTED_POSITION_CLOSED) {
    notifyError(['trades.notify.stop_rejected_position_closed', exchangeErrorLine(error.cause)]);
    return;
  }
  // ORDER_UNCONFIRMED: the position may or may not exist and nothing is recorded (no entry price is known), so
  // Repair cannot see it. Trading the same card again looks the order up by its client id and records the
  // position if it was filled, never opening a second one (shared-core/trade-flow.ts); the card is kept for that.
  addNotification(
    NotificationType.ERROR,
    ['trades.notify.order_unconfirmed', exchangeErrorLine(error.cause)],
    { isOnlyManualClose: true },
  );
}
