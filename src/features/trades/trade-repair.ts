// 'Repair error trades' (SPEC.md §2 Trade preferences, §7 DELETE /trade/delete_trade_errors/). Client-mode
// error trades are first reconciled with the exchange from this browser (only it holds their token), and the
// client-mode opens a closed page left unfinished are completed (client-open-journal.ts); then the server
// repairs the error trades, reconciling server-mode ones with the PINs the SPA holds.
import type { TFunction } from 'i18next';
import { TradeSide } from '../../../contracts';
import { ApiError, ApiErrorKind, UNKNOWN_ERROR_MESSAGE } from '../../lib/api-client';
import { translateError } from '../../lib/i18n';
import { authStore } from '../auth/auth-store';
import { platformsStore } from '../platforms/platforms-store';
import { pinCodeStore } from '../trade-tokens/pin-code-store';
import { readTokenEnvelope } from '../trade-tokens/token-storage';
import { withTradeTokenContent } from '../trade-tokens/token-vault';
import { ExchangeClient } from '../../lib/exchange-client';
import { deleteTradeErrors } from './api/delete-trade-errors';
import { platformsWithLeftClientOpens, resumeClientOpens } from './client-open-journal';
import { clientTradesToCheck, reconcileClientTrades } from './trade-reconcile';
import { loadOpenTrades, tradesStore } from './trades-store';

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
 * Best effort: the opens a page left unfinished are completed and the error trades checked; a platform without
 * PIN, token or user is left to the server's repair; failures are logged.
 */
async function reconcileClientErrorTrades(): Promise<void> {
  const user = authStore.user;
  if (!user) return;
  const platforms = new Set([...platformsWithLeftClientOpens(), ...platformsWithClientErrorTrades()]);
  for (const platformUuid of platforms) {
    const platform = platformsStore.platform_dict[platformUuid];
    const pinCode = pinCodeStore.pin_code_by_platform_uuid[platformUuid];
    const envelope = readTokenEnvelope(platformUuid);
    if (!platform || !pinCode || !envelope) continue;
    try {
      await withTradeTokenContent(
        envelope,
        { pinCode, platformUuid, userTradeTokenKey: user.user_trade_token_key },
        async (credentials) => {
          await resumeClientOpens(
            platformUuid,
            new ExchangeClient({ baseUrl: platform.platform_url, credentials }),
          );
          await reconcileClientTrades(
            platform.platform_url,
            credentials,
            clientTradesToCheck(platformUuid, true),
          );
        },
      );
    } catch (error) {
      console.error(error);
    }
  }
}

/** Repairs the error trades; resolves to result.count, throws the call's error. */
export async function repairTradeErrors(): Promise<number> {
  if (!tradesStore.is_loaded) await loadOpenTrades();
  await reconcileClientErrorTrades();
  const count = await deleteTradeErrors({
    pin_code_by_platform_uuid: { ...pinCodeStore.pin_code_by_platform_uuid },
  });
  void loadOpenTrades();
  return count;
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
