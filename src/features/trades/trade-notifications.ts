// How trading failures become notifications (SPEC.md §8, DESIGN.md "Errors that a user can act on become a
// notification with a translated message"). Description lines are message keys or plain strings.
import { ApiError } from '../../lib/api-client';
import { ExchangeError, ExchangeFailure } from '../../../shared-core/exchange-client';
import { translateError, translateExchangeText } from '../../lib/i18n';
import { addNotification, NotificationType } from '../../stores/notifications-store';

/** The codes of SPEC.md §8 whose texts have a translation (exchange_error.{code} in the locales). */
const TRANSLATED_EXCHANGE_CODES: ReadonlySet<number> = new Set([
  -4046, -4059, -2015, -4164, -4140, -4014, -4003, -4067, -2019, -2011,
]);

/** The line that tells an exchange error: the translated catalogue text when there is one, else its text. */
export function exchangeErrorLine(error: ExchangeError): string {
  if (error.failure === ExchangeFailure.TIMEOUT) return 'errors.timeout';
  // -4164 names the symbol's own minimum (exchange-errors.ts): its text, translated with that number.
  if (error.code === -4164) return translateExchangeText(error.text) ?? error.text;
  if (error.code !== undefined && TRANSLATED_EXCHANGE_CODES.has(error.code)) {
    return `exchange_error.${error.code}`;
  }
  return translateExchangeText(error.text) ?? error.text;
}

/** The line that tells any failure of a trading step. */
export function failureLine(error: unknown): string {
  if (error instanceof ExchangeError) return exchangeErrorLine(error);
  if (error instanceof ApiError) return translateError(error);
  return error instanceof Error ? error.message : String(error);
}

/**
 * An Error notification headed by `headKey` with the failure's text. Exchange errors whose catalogue entry is
 * hidden (SPEC.md §8 "Shown": no) are not shown.
 */
export function notifyFailure(headKey: string, error: unknown, extra: readonly string[] = []): void {
  console.error(error);
  if (error instanceof ExchangeError && !error.shown) return;
  addNotification(NotificationType.ERROR, [headKey, ...extra, failureLine(error)]);
}

export function notifyError(lines: string | string[]): void {
  addNotification(NotificationType.ERROR, lines);
}

export function notifySuccess(lines: string | string[]): void {
  addNotification(NotificationType.SUCCESS, lines);
}
