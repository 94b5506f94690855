// Issue 53, "while you were away": closes the server recorded on its own (the account's stream, the exchange's
// exits, the server's monitor) are told once, as notifications that stay in the bell's history, with their
// status and net PNL. Claimed when the socket (re)connects (the visit: "while you were away") and after every
// close this page hears of (a close it did not ask for). The server marks each one told as it answers.
import type { Trade } from '../../../contracts';
import i18n from 'i18next';
import { compareDecimals } from '../../../shared-core/trade-core';
import { formatFixed } from '../../lib/format';
import { addNotification, NotificationType } from '../../stores/notifications-store';
import { claimUnannouncedCloses } from './api/claim-unannounced-closes';

export const CloseTelling = {
  /** Claimed at a (re)connection: the closes happened while no page of this trader was told. */
  AWAY: 'away',
  /** Claimed after a close event this page heard. */
  LIVE: 'live',
} as const;
export type CloseTelling = (typeof CloseTelling)[keyof typeof CloseTelling];

/** The notification of one close: its symbol, status (and why, when the exchange closed it), net PNL. */
export function tellClose(trade: Trade, telling: CloseTelling): void {
  const net = trade.trade_pnl_net ?? null;
  const pnl = net ?? trade.trade_pnl_current;
  const cause = trade.trade_close_cause ? `trade_close_cause.${trade.trade_close_cause}` : undefined;
  addNotification(compareDecimals(pnl, 0) >= 0 ? NotificationType.SUCCESS : NotificationType.WARNING, [
    telling === CloseTelling.AWAY ? 'trades.notify.closed_away' : 'notification.trade_closed',
    trade.symbol.symbol_pair,
    `trade_status.${trade.trade_status}`,
    ...(cause ? [cause] : []),
    net !== null
      ? i18n.t('trades.notify.closed_net', { pnl: formatFixed(net, 2) })
      : i18n.t('trades.notify.closed_gross', { pnl: formatFixed(pnl, 2) }),
  ]);
}

let claiming: Promise<void> | undefined;
let claimAgain = false;

/** Claims and tells the closes no page has told; one claim at a time (a request meanwhile claims after it). */
export function tellUnannouncedCloses(telling: CloseTelling): Promise<void> {
  if (claiming) {
    claimAgain = true;
    return claiming;
  }
  const run = async (): Promise<void> => {
    try {
      for (const trade of await claimUnannouncedCloses()) tellClose(trade, telling);
    } catch (error) {
      // Nothing is lost: what was not answered stays for the next claim.
      console.error(error);
    }
  };
  claiming = run().finally(() => {
    claiming = undefined;
    if (claimAgain) {
      claimAgain = false;
      void tellUnannouncedCloses(CloseTelling.LIVE);
    }
  });
  return claiming;
}
