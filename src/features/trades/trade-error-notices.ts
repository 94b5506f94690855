// An open trade that needs the trader (its trade_error: the open did not complete, the position has no stop loss
// on the exchange, or the exchange no longer has the position) is marked on its row, and announced once per page
// session with a warning that stays until closed (docs/spa.md "Faults"). Such a trade can appear without
// anything this page did: an open the server completed after a restart, a reconciliation or a repair, another
// tab. A marked row alone is easy to miss, and an unprotected position must never go unseen. So is an exit the
// exchange could not hold (issue 35): Signaldesk follows it, but only a page can close it.
import type { Trade, TradeError } from '../../../contracts';
import { addNotification, NotificationType } from '../../stores/notifications-store';

/** `${signal_uuid}:${trade_error}` of the trades announced in this page session. */
const announced = new Set<string>();

const keyOf = (signalUuid: string, tradeError: string) => `${signalUuid}:${tradeError}`;

/**
 * Warns of every open trade with a trade_error, or with an exit the exchange could not hold, not announced yet
 * (called with each read of the open trades).
 */
export function announceTradeErrors(
  trades: readonly Pick<Trade, 'signal_uuid' | 'trade_error' | 'symbol' | 'trade_exits'>[],
): void {
  for (const trade of trades) {
    for (const exit of ['take_profit', 'trailing'] as const) {
      const hold = trade.trade_exits?.[exit];
      const key = keyOf(trade.signal_uuid, `exit:${exit}`);
      if (hold?.held_by !== 'signaldesk' || announced.has(key)) continue;
      announced.add(key);
      addNotification(
        NotificationType.WARNING,
        ['trades.notify.exit_on_signaldesk', trade.symbol.symbol_pair, `trades.exits.${exit}`, hold.reason],
        { isOnlyManualClose: true },
      );
    }
    if (!trade.trade_error) continue;
    const key = keyOf(trade.signal_uuid, trade.trade_error);
    if (announced.has(key)) continue;
    announced.add(key);
    addNotification(
      NotificationType.WARNING,
      ['trades.notify.needs_attention', trade.symbol.symbol_pair, `trades.trade_error.${trade.trade_error}`],
      { isOnlyManualClose: true },
    );
  }
}

/** The trade's error was told already (the open that made it said so): the list read does not repeat it. */
export function markTradeErrorAnnounced(signalUuid: string, tradeError: TradeError): void {
  announced.add(keyOf(signalUuid, tradeError));
}

/** Logout (and tests): forget what was announced. */
export function resetTradeErrorNotices(): void {
  announced.clear();
}
