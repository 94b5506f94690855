// i18next with translations read from /locales/{lng}/{ns}.json (SPEC.md §2, §7 retry policy).
import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import {
  I18N_NAMESPACES,
  LANGUAGES,
  LOCALE_MAX_PARALLEL_READS,
  LOCALE_MAX_RETRIES,
  LOCALE_RETRY_DELAY_MS,
  type Language,
} from '../config/constants';
import { parseOpenFailureText, parseRiskLimitText, type RiskLimitRefusal } from '../../contracts';
import { StorageKey } from '../config/storage-keys';
import { ApiError, ApiErrorKind } from './api-client';
import {
  BRACKET_CAP_TEXT,
  EXCHANGE_ERROR_CATALOGUE,
  MIN_NOTIONAL_TEXT,
} from '../../shared-core/exchange-errors';

function storedLanguage(): Language {
  const stored = localStorage.getItem(StorageKey.LANGUAGE);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : 'en';
}

/** The HTML lang of an app language ('ua' is the app's code for Ukrainian, whose ISO code is 'uk'). */
export function htmlLang(language: string): string {
  return language === 'ua' ? 'uk' : 'en';
}

export async function initI18n(): Promise<typeof i18n> {
  const lng = storedLanguage();
  await i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      ns: [...I18N_NAMESPACES],
      defaultNS: 'common',
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      // i18next retries a failed read with a doubling delay: 350, 700, 1400 … ms.
      maxRetries: LOCALE_MAX_RETRIES,
      retryTimeout: LOCALE_RETRY_DELAY_MS,
      maxParallelReads: LOCALE_MAX_PARALLEL_READS,
      interpolation: { escapeValue: false },
    });
  document.documentElement.lang = htmlLang(lng);
  return i18n;
}

export async function changeLanguage(language: Language): Promise<void> {
  localStorage.setItem(StorageKey.LANGUAGE, language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = htmlLang(language);
}

/**
 * A translated text for an error a user sees (login, signup, token and preference failures): transport
 * classes get their own text, a server `detail` is translated when the catalogue knows it (server_error.*)
 * and shown as it is otherwise.
 */
export function translateError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === ApiErrorKind.TIMEOUT_ERROR) return i18n.t('errors.timeout');
    if (error.kind === ApiErrorKind.FETCH_ERROR) return i18n.t('errors.network');
    if (error.kind === ApiErrorKind.PARSING_ERROR) return i18n.t('errors.parsing');
    const known = i18n.t('server_error', { returnObjects: true }) as unknown;
    const catalogue = typeof known === 'object' && known !== null ? (known as Record<string, unknown>) : {};
    const whole = catalogue[error.message];
    if (typeof whole === 'string') return whole;
    // A server-mode open a risk limit refused (contracts/risk-limits.ts).
    const refusal = parseRiskLimitText(error.message);
    if (refusal) return riskLimitLine(refusal);
    // A failed server-mode open: its sentence around the exchange's failure, both translated.
    const openFailure = parseOpenFailureText(error.message);
    if (openFailure) {
      // Without the operation's name, as an exchange failure is shown anywhere else.
      const cause = /^\w+: (.+)$/s.exec(openFailure.cause)?.[1] ?? openFailure.cause;
      return i18n.t(`server_open_failure.${openFailure.kind}`, {
        cause: translateExchangeText(cause) ?? cause,
      });
    }
    // Validation details name the field first: 'user_email: Incorrect email'.
    const field = /^([\w.]+): (.+)$/s.exec(error.message);
    const message = field?.[2] !== undefined ? catalogue[field[2]] : undefined;
    if (typeof message === 'string') return message;
    // A server-mode exchange failure names the operation first: 'placeMarketOrder: Margin is insufficient'.
    const exchangeText = field?.[2] !== undefined ? translateExchangeText(field[2]) : undefined;
    if (exchangeText !== undefined) return exchangeText;
    if (error.message === 'unknown error' && error.status)
      return i18n.t('errors.http', { status: error.status });
    return error.message;
  }
  return error instanceof Error ? error.message : i18n.t('errors.unknown');
}

/** The trader's text of a risk limit that refuses a new trade (issue 18; contracts/risk-limits.ts). */
export function riskLimitLine(refusal: RiskLimitRefusal): string {
  return refusal.kind === 'maxOpenTrades'
    ? i18n.t('risk_limit.maxOpenTrades', { open: refusal.open, max: refusal.max })
    : i18n.t('risk_limit.dailyLossLimit', { loss: refusal.loss, limit: refusal.limit });
}

/**
 * The trader's text of an exchange failure's text (SPEC.md §8), the same in both modes: a catalogued code's
 * translation, the time-out's, or 'Unknown error: <the exchange's message> (code <n>)' with its own words
 * translated. Undefined for any other text.
 */
export function translateExchangeText(text: string): string | undefined {
  if (text === 'Timeout') return i18n.t('errors.timeout');
  const minNotional = MIN_NOTIONAL_TEXT.exec(text);
  if (minNotional) return i18n.t('exchange_error.-4164', { notional: minNotional[1] });
  const cap = BRACKET_CAP_TEXT.exec(text);
  if (cap) return i18n.t('exchange_error.bracket_cap', { notional: cap[1], leverage: cap[2] });
  for (const [code, entry] of Object.entries(EXCHANGE_ERROR_CATALOGUE)) {
    if (entry.text === text && i18n.exists(`exchange_error.${code}`)) return i18n.t(`exchange_error.${code}`);
  }
  const unknown = /^Unknown error: (.*) \(code (-?\d+)\)$/s.exec(text);
  if (unknown) return i18n.t('exchange_error.unknown', { message: unknown[1], code: unknown[2] });
  return undefined;
}

/**
 * The app's date formats (Intl.DateTimeFormat options). Times are 24-hour in every language (issue 40: a trader's
 * tool, and Ukrainian writes 24-hour times; an en-US browser would otherwise show AM/PM on some pages only).
 */
const DATE_FORMATS = {
  /** Token created / last used, a trade's opening. */
  date_time: { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' },
  /** Hours and minutes: chart axes. */
  time_of_day: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  /** Hours, minutes and seconds: the signal feed, and when a trade's UI status runs out (its button's name). */
  time_of_day_seconds: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  /** The history's day. */
  day: { dateStyle: 'medium' },
  /** The analysis' day picker. */
  weekday_day: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateFormat = keyof typeof DATE_FORMATS;

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A date in the current language and one of the app's formats. Each formatter is made once per language and
 * format: making one costs far more than formatting with it (a chart's axis formats every tick).
 */
export function formatDate(format: DateFormat, date: Date | number): string {
  const language = htmlLang(i18n.language);
  const key = `${language} ${format}`;
  let formatter = dateFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, DATE_FORMATS[format]);
    dateFormatters.set(key, formatter);
  }
  return formatter.format(date);
}

/** A date and time in the current language (token created / last used). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatDate('date_time', date);
}

/** Hours and minutes of an epoch ms in the current language (chart axes). */
export function formatTimeOfDay(epochMs: number): string {
  return formatDate('time_of_day', epochMs);
}
