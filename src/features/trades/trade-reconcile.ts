// Client-mode trades live on an exchange account only this browser can read, so only the SPA can learn that
// the exchange closed one (its stop fired, or the trader closed it on the exchange). After each client-mode
// balance read (the app hands reconcilePlatformAfterBalance to it: app/platform-keys.ts) and before a repair,
// the open client-mode trades of the platform are checked with shared-core/trade-flow.ts checkPositions and the
// ones the exchange closed are reported to the server. The balance read also completes the client-mode opens a
// closed page left unfinished (client-open-journal.ts), cancels the orders closes recorded by the server's user
// data stream left waiting, and hands the API key over for that stream (account-follow.ts, issue 37).
import { TradeSide, exitsHeldByExchange } from '../../../contracts';
import type { ExchangeClient } from '../../../shared-core/exchange-client';
import { checkPositions, type PositionCheckInput } from '../../../shared-core/trade-flow';
import { cancelWaitingOrders, followAccountWhenAway } from './account-follow';
import { closeClientTrade } from './api/close-client-trade';
import { resumeClientOpens } from './client-open-journal';
import { removeTrade, scheduleOpenTradesRefetch, tradesStore } from './trades-store';

// Platforms being checked now: a slow exchange must not stack checks of the same platform.
const checking = new Set<string>();

/** The open client-mode trades of a platform, as checkPositions takes them. */
export function clientTradesToCheck(platformUuid: string, onlyErrors = false): PositionCheckInput[] {
  return Object.values(tradesStore.trade_by_uuid_dict)
    .filter(
      (trade) =>
        trade.platform_uuid === platformUuid &&
        trade.trade_in_server_side === TradeSide.CLIENT &&
        !tradesStore.processing_by_uuid[trade.trade_uuid] &&
        (!onlyErrors || trade.trade_error !== null),
    )
    .map((trade) => ({
      trade_uuid: trade.trade_uuid,
      symbol_pair: trade.symbol.symbol_pair,
      trade_direction: trade.trade_direction,
      trade_stop_order_id: trade.trade_stop_order_id,
      trade_order_id: trade.trade_order_id,
      trade_exits_held: exitsHeldByExchange(trade.trade_exits),
    }));
}

/**
 * Checks the given trades on the exchange and reports each one the exchange closed (its status and close
 * price from the check). Returns how many were reported. Throws when the check itself fails.
 */
export async function reconcileClientTrades(
  client: ExchangeClient,
  trades: readonly PositionCheckInput[],
): Promise<number> {
  if (trades.length === 0) return 0;
  const checks = await checkPositions(client, trades);
  let reported = 0;
  for (const check of checks) {
    if (check.state !== 'closed') continue;
    try {
      await closeClientTrade({
        trade_uuid: check.trade_uuid,
        trade_status: check.trade_status,
        ...(check.trade_close_price === undefined ? {} : { trade_close_price: check.trade_close_price }),
        ...(check.trade_close_price === undefined || check.trade_close_commission === undefined
          ? {}
          : { trade_close_commission: check.trade_close_commission }),
      });
      removeTrade(check.trade_uuid);
      reported += 1;
    } catch (error) {
      console.error(error);
    }
  }
  if (reported > 0) scheduleOpenTradesRefetch();
  return reported;
}

/**
 * The balance hook: first the opens a page left unfinished are completed (client-open-journal.ts), then the
 * open trades are checked. Best effort, failures only logged (SPEC.md §8), at most one run per platform at a
 * time.
 */
export async function reconcilePlatformAfterBalance(
  platformUuid: string,
  client: ExchangeClient,
): Promise<void> {
  if (checking.has(platformUuid)) return;
  checking.add(platformUuid);
  try {
    await resumeClientOpens(platformUuid, client);
    await reconcileClientTrades(client, clientTradesToCheck(platformUuid));
    // Issue 37: what closes the server recorded from the account's stream left waiting is cancelled, and the
    // account is followed while the trader is away (the API key handed over once, when allowed).
    await cancelWaitingOrders(platformUuid, client);
    void followAccountWhenAway(platformUuid);
  } catch (error) {
    console.error(error);
  } finally {
    checking.delete(platformUuid);
  }
}
