// The trading chart's focus (issue 18): the symbol of the signal card or open-trade row last hovered or
// clicked on /trading, and that row's trade; BTC until then. The page hands its pointer events here (one
// delegated listener: cards and rows carry data-signal-uuid / data-trade-uuid), so neither feature knows of
// the chart.
import type { PointerEvent, MouseEvent } from 'react';
import { proxy } from 'valtio';
import { signalsStore } from '../../features/signals/signals-store';
import { tradesStore } from '../../features/trades/trades-store';

interface ChartFocusState {
  /** Unset: the default symbol (BTC). */
  symbol_uuid: string | undefined;
  /** The open trade whose lines are drawn: a hovered row's, else the first open trade of the symbol. */
  trade_uuid: string | undefined;
}

export const chartFocusStore = proxy<ChartFocusState>({ symbol_uuid: undefined, trade_uuid: undefined });

function focus(symbolUuid: string, tradeUuid: string | undefined): void {
  // valtio announces only real changes, so a pointer moving within one row costs nothing downstream.
  chartFocusStore.symbol_uuid = symbolUuid;
  chartFocusStore.trade_uuid = tradeUuid;
}

/** Focuses the symbol of the card or row an event happened in, if any. */
export function focusChartFromEvent(event: PointerEvent | MouseEvent): void {
  const target = event.target as Element | null;
  const item = target?.closest?.('[data-trade-uuid], [data-signal-uuid]');
  if (!item) return;
  const tradeUuid = item.getAttribute('data-trade-uuid');
  if (tradeUuid) {
    const trade = tradesStore.trade_by_uuid_dict[tradeUuid];
    if (trade) focus(trade.symbol.symbol_uuid, tradeUuid);
    return;
  }
  const signalUuid = item.getAttribute('data-signal-uuid');
  const signal = signalUuid ? signalsStore.signal_by_uuid[signalUuid] : undefined;
  if (signal) focus(signal.symbol.symbol_uuid, undefined);
}

/** The page's handlers: spread on the element around the cards and the open-trades table. */
export const chartFocusHandlers = { onPointerOver: focusChartFromEvent, onClick: focusChartFromEvent };

export function resetChartFocus(): void {
  chartFocusStore.symbol_uuid = undefined;
  chartFocusStore.trade_uuid = undefined;
}
