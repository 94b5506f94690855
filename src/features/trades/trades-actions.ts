// Trade actions. Opening a trade from a signal (SPEC.md §4 "Opening a trade") is the trading issue's work:
// the signal card's trade button and its auto-open timer already call openTradeFromSignal, so that issue
// only fills this function in.

/**
 * Opens a trade from a signal. TRADING ISSUE: not implemented yet — intentionally does nothing (no fake
 * trade, no error), so the signal cards, their buttons and auto-open are wired end to end.
 */
export async function openTradeFromSignal(_signalUuid: string): Promise<void> {
  // TRADING ISSUE: check PIN, token level TRADE_AVAILABLE and platform preferences, open the trade in
  // client or server mode, remove the signal, refetch open trades after 1 s (SPEC.md §4).
}
