// Open trades (SPEC.md §3 "Trade store", §4 "Trade status and UI status"): the trades of GET
// /trade/get_trades/open/, kept current by trade_updated_response_from_core. current_pnl and possible_loss are
// exact decimal strings from trade-core, summed once when the list is read and adjusted by each update.
// Trade objects keep their identity across reads (they are merged in place), so a table row can subscribe to
// its own trade and redraw alone when that trade changes.
import { proxy } from 'valtio';
import { TradeStatus, type Trade, type TradeCalculated, type TradeTrendData } from '../../../contracts';
import { TRADE_REFETCH_DELAY_MS } from '../../config/constants';
import { addDecimals, possibleLoss, subDecimals, sumDecimals } from '../../../shared-core/trade-core';
import { getOpenTrades } from './api/get-open-trades';
import { getTradeTrendByUuid } from './api/get-trade-trend-by-uuid';
import { announceTradeErrors } from './trade-error-notices';
import { createUnusedDataCache } from '../../lib/unused-data';

interface TradesState {
  trade_by_uuid_dict: Record<string, Trade>;
  /**
   * symbol_uuid → trade_uuid of its open trades (SPEC.md §3's index; a list, because a trader may hold several
   * open trades on one symbol and every one of them is recomputed on that symbol's price).
   */
  trade_uuid_by_symbol_uuid_dict: Record<string, string[]>;
  /** How many trades trade_by_uuid_dict holds (the title and the table heading read this, not its keys). */
  open_trade_count: number;
  /** Sum of trade_pnl_current over the open trades, USDT, exact. */
  current_pnl: string;
  /** The same sum net of the trades' commissions (trade_pnl_net; a trade without it counts gross), exact. */
  current_pnl_net: string;
  /** Sum of trade_margin × trade_treiling_stop_percent_current × 0.01 over the open trades, USDT, exact. */
  possible_loss: string;
  /** True once the open trades were read at least once. */
  is_loaded: boolean;
  is_loading: boolean;
  /** Trades being closed or reset: their buttons show processing and cannot be used twice. */
  processing_by_uuid: Record<string, boolean>;
  /** Epoch ms at which each trade's current UI status was first seen; its countdown runs from here. */
  ui_status_since_by_uuid: Record<string, number>;
  /** Detail data of the 'Trade Trend Data' modal, keyed by trade_uuid. */
  trade_trend_data: Record<string, TradeTrendData>;
  detail_loading_by_uuid: Record<string, boolean>;
  detail_error_by_uuid: Record<string, string>;
}

function initialState(): TradesState {
  return {
    trade_by_uuid_dict: {},
    trade_uuid_by_symbol_uuid_dict: {},
    open_trade_count: 0,
    current_pnl: '0',
    current_pnl_net: '0',
    possible_loss: '0',
    is_loaded: false,
    is_loading: false,
    processing_by_uuid: {},
    ui_status_since_by_uuid: {},
    trade_trend_data: {},
    detail_loading_by_uuid: {},
    detail_error_by_uuid: {},
  };
}

export const tradesStore = proxy<TradesState>(initialState());

/**
 * A Close that needs the PIN first (issue 36): the trade whose Close was pressed while its platform's token is
 * locked (no PIN after a reload, or a wrong one). The app asks for the PIN where the trader is and then closes.
 */
export const closeRequestStore = proxy<{ trade_uuid: string | null }>({ trade_uuid: null });

export function requestPinToClose(tradeUuid: string): void {
  closeRequestStore.trade_uuid = tradeUuid;
}

/**
 * Close (×) asks first (issue 39): the trade whose Close waits for the trader's yes in the confirm dialog, unless
 * the trader turned on one-click close (trade_one_click_close).
 */
export const closeConfirmStore = proxy<{ trade_uuid: string | null }>({ trade_uuid: null });

export function requestCloseConfirm(tradeUuid: string): void {
  closeConfirmStore.trade_uuid = tradeUuid;
}

/**
 * A trade as setOpenTrades takes it: the wire Trade. Callers that only index and count (the page title's
 * tests) may pass just the index fields; the sums read missing money fields as 0.
 */
export type OpenTradeInput = Pick<Trade, 'trade_uuid' | 'platform_uuid'> & {
  symbol: Pick<Trade['symbol'], 'symbol_uuid'>;
} & Partial<Omit<Trade, 'trade_uuid' | 'platform_uuid' | 'symbol'>>;

type MoneyFields = Partial<
  Pick<Trade, 'trade_pnl_current' | 'trade_pnl_net' | 'trade_margin' | 'trade_treiling_stop_percent_current'>
>;

function pnlOf(trade: MoneyFields): string {
  return trade.trade_pnl_current ?? '0';
}

/** PNL net of both commissions (issue 18); the gross PNL while the commissions are not known. */
function pnlNetOf(trade: MoneyFields): string {
  return trade.trade_pnl_net ?? pnlOf(trade);
}

/** SPEC.md §3: margin × trade_treiling_stop_percent_current × 0.01 (trade-core possibleLoss). */
function possibleLossOf(trade: MoneyFields): string {
  if (trade.trade_margin === undefined || trade.trade_treiling_stop_percent_current === undefined) return '0';
  return possibleLoss(trade.trade_margin, trade.trade_treiling_stop_percent_current);
}

function recomputeTotals(): void {
  const trades: MoneyFields[] = Object.values(tradesStore.trade_by_uuid_dict);
  tradesStore.current_pnl = sumDecimals(trades.map(pnlOf));
  tradesStore.current_pnl_net = sumDecimals(trades.map(pnlNetOf));
  tradesStore.possible_loss = sumDecimals(trades.map(possibleLossOf));
}

/**
 * Deletes a key of a store record only when it is there: a valtio proxy announces every `delete`, even of a
 * missing key, to everything that reads the record (every row reads processing_by_uuid and
 * ui_status_since_by_uuid).
 */
function removeKey(record: Record<string, unknown>, key: string): void {
  if (key in record) delete record[key];
}

function noteUiStatus(
  trade: Pick<Trade, 'trade_uuid' | 'trade_ui_status'>,
  previous: string | null | undefined,
) {
  const since = tradesStore.ui_status_since_by_uuid;
  if (!trade.trade_ui_status) {
    removeKey(since, trade.trade_uuid);
  } else if (trade.trade_ui_status !== previous || since[trade.trade_uuid] === undefined) {
    since[trade.trade_uuid] = Date.now();
  }
}

/**
 * Replaces the open trades: trades already known are updated in place (rows keep their subscription), new
 * ones are added, the others removed; the symbol index and both sums are rebuilt.
 */
export function setOpenTrades(trades: readonly OpenTradeInput[]): void {
  const dict = tradesStore.trade_by_uuid_dict;
  const incoming = new Set(trades.map((trade) => trade.trade_uuid));
  for (const tradeUuid of Object.keys(dict)) {
    if (!incoming.has(tradeUuid)) forgetTrade(tradeUuid);
  }
  const bySymbol: Record<string, string[]> = {};
  for (const input of trades) {
    const trade = input as Trade;
    const existing = dict[trade.trade_uuid];
    const previousUiStatus = existing?.trade_ui_status;
    if (existing) Object.assign(existing, trade);
    else dict[trade.trade_uuid] = trade;
    (bySymbol[trade.symbol.symbol_uuid] ??= []).push(trade.trade_uuid);
    noteUiStatus(trade, previousUiStatus);
  }
  tradesStore.trade_uuid_by_symbol_uuid_dict = bySymbol;
  tradesStore.open_trade_count = Object.keys(dict).length;
  recomputeTotals();
}

function forgetTrade(tradeUuid: string): void {
  const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
  if (!trade) return;
  removeKey(tradesStore.trade_by_uuid_dict, tradeUuid);
  tradesStore.open_trade_count -= 1;
  const symbolUuid = trade.symbol.symbol_uuid;
  const others = (tradesStore.trade_uuid_by_symbol_uuid_dict[symbolUuid] ?? []).filter(
    (uuid) => uuid !== tradeUuid,
  );
  if (others.length > 0) tradesStore.trade_uuid_by_symbol_uuid_dict[symbolUuid] = others;
  else removeKey(tradesStore.trade_uuid_by_symbol_uuid_dict, symbolUuid);
  removeKey(tradesStore.processing_by_uuid, tradeUuid);
  removeKey(tradesStore.ui_status_since_by_uuid, tradeUuid);
}

/** Removes a trade that is no longer open (closed by this SPA, by the server, or by the exchange). */
export function removeTrade(tradeUuid: string): void {
  const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
  if (!trade) return;
  const pnl = pnlOf(trade);
  const pnlNet = pnlNetOf(trade);
  const loss = possibleLossOf(trade);
  forgetTrade(tradeUuid);
  tradesStore.current_pnl = subDecimals(tradesStore.current_pnl, pnl);
  tradesStore.current_pnl_net = subDecimals(tradesStore.current_pnl_net, pnlNet);
  tradesStore.possible_loss = subDecimals(tradesStore.possible_loss, loss);
}

export const TradeUpdateResult = { APPLIED: 'applied', REMOVED: 'removed', UNKNOWN: 'unknown' } as const;
export type TradeUpdateResult = (typeof TradeUpdateResult)[keyof typeof TradeUpdateResult];

/**
 * Applies a recalculation (trade_updated_response_from_core, SPEC.md §4): the calculated fields are replaced
 * and the two sums adjusted by the difference; a status other than open removes the trade. A trade this list
 * does not know yet is left to the next read of the open trades (UNKNOWN).
 */
export function applyTradeCalculated(tradeUuid: string, calculated: TradeCalculated): TradeUpdateResult {
  const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
  if (!trade) return TradeUpdateResult.UNKNOWN;
  if (calculated.trade_status !== TradeStatus.OPEN) {
    removeTrade(tradeUuid);
    return TradeUpdateResult.REMOVED;
  }
  const pnlBefore = pnlOf(trade);
  const pnlNetBefore = pnlNetOf(trade);
  const lossBefore = possibleLossOf(trade);
  const uiStatusBefore = trade.trade_ui_status;
  Object.assign(trade, calculated);
  const pnlAfter = pnlOf(trade);
  const pnlNetAfter = pnlNetOf(trade);
  const lossAfter = possibleLossOf(trade);
  if (pnlAfter !== pnlBefore) {
    tradesStore.current_pnl = addDecimals(subDecimals(tradesStore.current_pnl, pnlBefore), pnlAfter);
  }
  if (pnlNetAfter !== pnlNetBefore) {
    tradesStore.current_pnl_net = addDecimals(
      subDecimals(tradesStore.current_pnl_net, pnlNetBefore),
      pnlNetAfter,
    );
  }
  if (lossAfter !== lossBefore) {
    tradesStore.possible_loss = addDecimals(subDecimals(tradesStore.possible_loss, lossBefore), lossAfter);
  }
  noteUiStatus(trade, uiStatusBefore);
  return TradeUpdateResult.APPLIED;
}

/** The trade is open again with no UI status (a click on the pulsing button, or its countdown ran out). */
export function clearTradeUiStatus(tradeUuid: string): void {
  const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
  if (!trade) return;
  trade.trade_status = TradeStatus.OPEN;
  trade.trade_ui_status = null;
  removeKey(tradesStore.ui_status_since_by_uuid, tradeUuid);
}

export function setTradeProcessing(tradeUuid: string, isProcessing: boolean): void {
  if (isProcessing) tradesStore.processing_by_uuid[tradeUuid] = true;
  else removeKey(tradesStore.processing_by_uuid, tradeUuid);
}

const NO_TRADES: readonly string[] = [];

/** The open trades of a symbol (live-events asks this for every price). */
export function findOpenTradeUuidsBySymbol(symbolUuid: string): readonly string[] {
  return tradesStore.trade_uuid_by_symbol_uuid_dict[symbolUuid] ?? NO_TRADES;
}

/** Count of open trades, for the page title (SPEC.md §1) and the table's heading. */
export function countOpenTrades(state: Pick<TradesState, 'open_trade_count'>): number {
  return state.open_trade_count;
}

/**
 * Told the signal_uuid of each trade this page learns exists (every open trade of a read, and an open a closed
 * page left unfinished once recorded). The app removes that signal's card (app/signal-trading.ts, SPEC.md §4
 * "Opening a trade"); the trades feature knows no signal card.
 */
type SignalTradedListener = (signalUuid: string) => void;
const signalTradedListeners = new Set<SignalTradedListener>();

/** Adds a listener of traded signals; returns the function that removes it. */
export function onSignalTraded(listener: SignalTradedListener): () => void {
  signalTradedListeners.add(listener);
  return () => signalTradedListeners.delete(listener);
}

/** Tells the listeners that `signalUuid` has a trade now. */
export function announceSignalTraded(signalUuid: string): void {
  for (const listener of signalTradedListeners) listener(signalUuid);
}

// The one pending re-read of the open trades; a timer, so not store state (DESIGN.md).
let refetchTimer: ReturnType<typeof setTimeout> | undefined;
// Answers of reads started before the latest one are dropped.
let readGeneration = 0;

/** Reads the open trades; failures are only logged and the list stays as it was (SPEC.md §8). */
export async function loadOpenTrades(): Promise<void> {
  readGeneration += 1;
  const generation = readGeneration;
  tradesStore.is_loading = true;
  try {
    const trades = await getOpenTrades();
    if (generation !== readGeneration) return;
    setOpenTrades(trades);
    announceTradeErrors(trades);
    // A card whose signal has a trade goes (SPEC.md §4 "Opening a trade"), also when the trade was opened
    // after this page stopped waiting, or in another tab.
    for (const trade of trades) announceSignalTraded(trade.signal_uuid);
    tradesStore.is_loaded = true;
  } catch (error) {
    console.error(error);
  } finally {
    if (generation === readGeneration) tradesStore.is_loading = false;
  }
}

/** Reads the open trades again TRADE_REFETCH_DELAY_MS from now (SPEC.md §4: after an open or a close). */
export function scheduleOpenTradesRefetch(): void {
  if (refetchTimer !== undefined) clearTimeout(refetchTimer);
  refetchTimer = setTimeout(() => {
    refetchTimer = undefined;
    void loadOpenTrades();
  }, TRADE_REFETCH_DELAY_MS);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A trade's trend data (and its read's error) is cached API data (SPEC.md §9, lib/unused-data.ts): dropped
 * CACHED_DATA_UNUSED_MS after its modal's body last showed it.
 */
export const tradeDetailCache = createUnusedDataCache((tradeUuid) => {
  removeKey(tradesStore.trade_trend_data, tradeUuid);
  removeKey(tradesStore.detail_error_by_uuid, tradeUuid);
});

/** Reads the trend data of a trade for its modal; the previous copy shows meanwhile. */
export async function loadTradeDetail(tradeUuid: string): Promise<void> {
  tradesStore.detail_loading_by_uuid[tradeUuid] = true;
  try {
    tradesStore.trade_trend_data[tradeUuid] = await getTradeTrendByUuid(tradeUuid);
    removeKey(tradesStore.detail_error_by_uuid, tradeUuid);
  } catch (error) {
    console.error(error);
    tradesStore.detail_error_by_uuid[tradeUuid] = errorText(error);
  } finally {
    removeKey(tradesStore.detail_loading_by_uuid, tradeUuid);
    tradeDetailCache.written(tradeUuid);
  }
}

export function resetTradesStore(): void {
  tradeDetailCache.reset();
  closeRequestStore.trade_uuid = null;
  if (refetchTimer !== undefined) clearTimeout(refetchTimer);
  refetchTimer = undefined;
  readGeneration += 1;
  Object.assign(tradesStore, initialState());
}
