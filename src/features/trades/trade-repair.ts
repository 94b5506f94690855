// 'Repair error trades' (SPEC.md §2 Trade preferences, §7 DELETE /trade/delete_trade_errors/). Client-mode
// error trades are first reconciled with the exchange from this browser (only it holds their token), and the
// client-mode opens a closed page left unfinished are completed (client-open-journal.ts); then the server
// repairs the error trades, reconciling server-mode ones with the PINs the SPA holds. PINs go to the server
// only while the page is in server mode: a PIN entered in client mode unlocks a token kept in this browser,
// and client mode's promise is that it stays here (issue 17).
import type { TFunction } from 'i18next';
import { TradeError, TradeSide } from '../../../contracts';
import { ApiError, ApiErrorKind, UNKNOWN_ERROR_MESSAGE } from '../../lib/api-client';
import type { ExchangeClient } from '../../../shared-core/exchange-client';
import { translateError } from '../../lib/i18n';
import { protectPosition } from '../../../shared-core/trade-flow';
import { authStore } from '../../stores/auth-store';
import { platformsStore } from '../../stores/platforms-store';
import { tradeSide } from '../../stores/preferences-store';
import { pinCodeStore } from '../../stores/pin-code-store';
import { withPlatformExchange } from '../../stores/platform-exchange';
import { readTokenEnvelope } from '../../stores/token-storage';
import { deleteTradeErrors } from './api/delete-trade-errors';
import { setClientTradeStop } from './api/set-client-trade-stop';
import { platformsWithLeftClientOpens, resumeClientOpens } from './client-open-journal';
import { clientTradesToCheck, reconcileClientTrades } from './trade-reconcile';
import { loadOpenTrades, tradesStore } from './trades-store';

/**
 * Places the missing stop of the platform's open client-mode stop_missing trades from this browser (only it
 * holds their token), the stop their open would have placed (lib/trade-flow.ts protectPosition), and records
 * it (set_trade_stop). Refused again, the trade keeps its mark. Returns how many got their stop.
 */
async function protectClientTrades(platformUuid: string, client: ExchangeClient): Promise<number> {
  const unprotected = Object.values(tradesStore.trade_by_uuid_dict).filter(
    (trade) =>
      trade.platform_uuid === platformUuid &&
      trade.trade_in_server_side === TradeSide.CLIENT &&
      trade.trade_error === TradeError.STOP_MISSING &&
      trade.trade_stop_order_id === null &&
      !tradesStore.processing_by_uuid[trade.trade_uuid],
  );
  let count = 0;
  for (const trade of unprotected) {
    const stop = await protectPosition(client, {
      symbol_pair: trade.symbol.symbol_pair,
      trade_direction: trade.trade_direction === 'SELL' ? 'SELL' : 'BUY',
      trade_quantity: trade.trade_quantity,
      trade_open_price: trade.trade_open_price,
      trade_leverage: trade.trade_leverage,
      trade_stop_loss_percent: trade.trade_stop_loss_percent,
      symbol_price_precision: trade.symbol.symbol_price_precision,
      signal_uuid: trade.signal_uuid,
    });
    if (stop.trade_stop_order_id === null) {
      console.error(`repair: the stop of ${trade.symbol.symbol_pair} was refused again`, stop.stop_error);
      continue;
    }
    await setClientTradeStop({
      trade_uuid: trade.trade_uuid,
      trade_stop_order_id: stop.trade_stop_order_id,
      trade_stop_price: stop.trade_stop_price,
      ...(stop.trade_backstop && { trade_backstop: stop.trade_backstop }),
    });
    count += 1;
  }
  return count;
}

/** Platforms with open client-mode trades that carry a trade_error. */
function platformsWithClientErrorTrades(): string[] {
  const uuids = new Set<string>();
  for (const trade of Object.values(tradesStore.trade_by_uuid_dict)) {
    if (trade.trade_in_server_side === TradeSide.CLIENT && trade.trade_error !== null) {
      uuids.add(trade.platform_uuid);
    }
  }
  return [...uuids];
}

/**
 * Best effort: the opens a page left unfinished are completed, the error trades checked, and the open ones
 * still without a stop get it; a platform without PIN, token or user is left to the server's repair; failures
 * are logged. Returns how many trades were repaired here (opens completed, stops placed).
 */
async function reconcileClientErrorTrades(): Promise<number> {
  const user = authStore.user;
  if (!user) return 0;
  let repaired = 0;
  const platforms = new Set([...platformsWithLeftClientOpens(), ...platformsWithClientErrorTrades()]);
  for (const platformUuid of platforms) {
    const platform = platformsStore.platform_dict[platformUuid];
    const pinCode = pinCodeStore.pin_code_by_platform_uuid[platformUuid];
    const envelope = readTokenEnvelope(platformUuid);
    if (!platform || !pinCode || !envelope) continue;
    try {
      await withPlatformExchange(platformUuid, async (client) => {
        repaired += await resumeClientOpens(platformUuid, client);
        await reconcileClientTrades(client, clientTradesToCheck(platformUuid, true));
        repaired += await protectClientTrades(platformUuid, client);
      });
    } catch (error) {
      console.error(error);
    }
  }
  return repaired;
}

/**
 * Repairs the error trades; resolves to the count repaired (the server's result.count, plus the client-mode
 * opens completed and stops placed from this browser), throws the call's error.
 */
export async function repairTradeErrors(): Promise<number> {
  // A fresh list: the client-mode trades to check are taken from it, and one opened a moment ago may not be
  // in the list this page read last.
  await loadOpenTrades();
  const repairedHere = await reconcileClientErrorTrades();
  // In client mode the server repairs without PINs (it deletes what never reached the exchange and closes
  // what the exchange no longer has); server-mode trades are checked fully once the page is in server mode.
  const pins = tradeSide() === TradeSide.SERVER ? { ...pinCodeStore.pin_code_by_platform_uuid } : {};
  const count = await deleteTradeErrors({ pin_code_by_platform_uuid: pins });
  void loadOpenTrades();
  return count + repairedHere;
}

/**
 * The red failure text of SPEC.md §8: the server's detail if present, else 'HTTP error {status}', else the
 * error message, else 'Unknown error'.
 */
export function repairFailureText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.kind === ApiErrorKind.HTTP_ERROR) {
    if (error.message && error.message !== UNKNOWN_ERROR_MESSAGE) return translateError(error);
    if (error.status) return t('errors.http', { status: error.status });
  }
  if (error instanceof Error && error.message) return error.message;
  return t('errors.unknown');
}
