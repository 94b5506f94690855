// Client mode while the trader is away (issue 37; docs/server.md "The account followed"). With "Follow my account
// while I'm away" on (the default, trade_follow_when_away), the page hands the server its token's API key —
// never the secret — once per key and session, after a balance read with it succeeded (the relay then has the key
// bound to this trader, which the server requires). The server then holds the account's user data stream while
// no page is open and records the closes the exchange makes. It cannot cancel what such a close left waiting on
// the exchange (the stop or an exit): it marks those orders, and the page cancels them with the key — at each
// balance read, and before an open on the symbol when a close arrived from the server since (or nothing was
// read yet this session), so no leftover acts on the new position.
import { z } from 'zod';
import {
  TradeSide,
  clearWaitingOrdersAnswer,
  waitingOrdersAnswer,
  type WaitingOrders,
} from '../../../contracts';
import type { ExchangeClient } from '../../../shared-core/exchange-client';
import { cancelExitQuietly, cancelQuietly } from '../../../shared-core/trade-flow-common';
import { ApiError, apiGet, apiPost } from '../../lib/api-client';
import { preferencesStore } from '../../stores/preferences-store';
import { unlockedApiKey, withPlatformExchange } from '../../stores/platform-exchange';

/** Platform → the API key handed over this session (or refused: not bound, following off). */
const handedOver = new Map<string, string>();
/** Symbols ("platform:pair") a close arrived for since the last read of the waiting orders. */
const closedSince = new Set<string>();
/** The waiting orders were read once this session (before that, any symbol may have some). */
let readOnce = false;

/** Hands the unlocked API key of a client-mode platform to the server, once per key (best effort). */
export async function followAccountWhenAway(platformUuid: string): Promise<void> {
  if (preferencesStore.trade_preferences?.trade_follow_when_away === 0) {
    // Off: the server forgot the key; switched on again, the next read hands it over again.
    handedOver.delete(platformUuid);
    return;
  }
  const apiKey = unlockedApiKey(platformUuid);
  if (!apiKey || handedOver.get(platformUuid) === apiKey) return;
  handedOver.set(platformUuid, apiKey);
  try {
    await apiPost(
      'trade_token/follow_account/',
      { platform_uuid: platformUuid, api_key: apiKey },
      z.unknown(),
    );
  } catch (error) {
    // Refused (409: the key is not bound to this trader — a platform the page calls directly binds none) it is
    // not asked again this session; not reached, the next read tries again. The page still checks the account
    // whenever it reads the balance, as without following.
    if (!(error instanceof ApiError && error.status === 409)) handedOver.delete(platformUuid);
    console.warn(error);
  }
}

/** The following may start again with the next read (the preference was switched on, a new session). */
export function resetAccountFollow(): void {
  for (const timer of soon.values()) clearTimeout(timer);
  soon.clear();
  handedOver.clear();
  closedSince.clear();
  readOnce = false;
}

/** Platforms whose waiting orders are read soon (a close arrived from the server). */
const soon = new Map<string, ReturnType<typeof setTimeout>>();
/** A close's push comes right after its record, with the marks: read them this long after. */
const AFTER_CLOSE_MS = 300;

/**
 * A close of a client-mode trade arrived from the server (issue 37: the exchange closed it while the account was
 * followed): its symbol may have orders left waiting. With the key at hand the page cancels them at once; else
 * before its next open on the symbol, or at the next balance read with the PIN.
 */
export function noteClientClose(trade: {
  platform_uuid: string;
  trade_in_server_side: number;
  symbol: { symbol_pair: string };
}): void {
  if (trade.trade_in_server_side !== TradeSide.CLIENT) return;
  const platformUuid = trade.platform_uuid;
  closedSince.add(`${platformUuid}:${trade.symbol.symbol_pair}`);
  if (!unlockedApiKey(platformUuid) || soon.has(platformUuid)) return;
  soon.set(
    platformUuid,
    setTimeout(() => {
      soon.delete(platformUuid);
      withPlatformExchange(platformUuid, (client) => cancelWaitingOrders(platformUuid, client)).catch(
        (error: unknown) => console.warn(error),
      );
    }, AFTER_CLOSE_MS),
  );
}

/** Before an open on a symbol: whether its waiting orders must be read (and cancelled) first. */
export function mayHaveWaitingOrders(platformUuid: string, symbolPair: string): boolean {
  return !readOnce || closedSince.has(`${platformUuid}:${symbolPair}`);
}

/**
 * Cancels the orders the server marked as left waiting by closed client-mode trades of the platform (of one
 * symbol when given), then clears the marks of those the exchange no longer holds. Answers how many were
 * cleared. A cancel of an order already gone is quiet (the exchange's error); a failure to reach the exchange
 * keeps the mark for the next try.
 */
export async function cancelWaitingOrders(
  platformUuid: string,
  client: ExchangeClient,
  symbolPair?: string,
): Promise<number> {
  const { waiting } = (await apiGet('trade/get_waiting_orders/', waitingOrdersAnswer)).result;
  readOnce = true;
  for (const key of [...closedSince]) {
    if (key.startsWith(`${platformUuid}:`) && (!symbolPair || key.endsWith(`:${symbolPair}`)))
      closedSince.delete(key);
  }
  const mine = waiting.filter(
    (item: WaitingOrders) =>
      item.platform_uuid === platformUuid && (symbolPair === undefined || item.symbol_pair === symbolPair),
  );
  let cleared = 0;
  for (const item of mine) {
    await Promise.all(
      item.order_ids.map((id) =>
        id.startsWith('sds') ? cancelQuietly(client, item.symbol_pair, id) : cancelExitQuietly(client, id),
      ),
    );
    await apiPost(
      'trade/clear_waiting_orders/',
      { trade_uuid: item.trade_uuid, order_ids: item.order_ids },
      clearWaitingOrdersAnswer,
    );
    cleared += item.order_ids.length;
  }
  return cleared;
}
