// Business constants of SPEC.md §9, with the unit in every name.
export const APP_VERSION = '1.0.6';
export const API_TIMEOUT_MS = 5000;
export const BITCOIN_REFRESH_MS = 5000;
export const LANGUAGES = ['en', 'ua'] as const;
export type Language = (typeof LANGUAGES)[number];
export const I18N_NAMESPACES = ['common'] as const;
/** Translation reads: up to 5 retries, first delay 350 ms doubling, at most 10 reads in parallel (SPEC.md §7). */
export const LOCALE_MAX_RETRIES = 5;
export const LOCALE_RETRY_DELAY_MS = 350;
export const LOCALE_MAX_PARALLEL_READS = 10;

/** Footer links (SPEC.md §1): the official news channel and the community chat. */
export const NEWS_CHANNEL_URL = 'https://t.me/signaldesk_news';
export const COMMUNITY_CHAT_URL = 'https://t.me/signaldesk_chat';

/** Modal closing state before it unmounts (SPEC.md §2, §9). */
export const MODAL_CLOSE_MS = 300;

/** Notifications (SPEC.md §4, §9). */
export const NOTIFICATION_AUTO_CLOSE_MS = 6000;
export const NOTIFICATION_ERROR_AUTO_CLOSE_MS = 10_000;
export const NOTIFICATION_LIST_MAX_COUNT = 500;
/** Relative time switches from 'Now' to '{n} min ago' after one minute. */
export const NOTIFICATION_NOW_THRESHOLD_MS = 60_000;
/** How often the relative times of the history panel are redrawn. */
export const NOTIFICATION_CLOCK_TICK_MS = 15_000;

/** Preference editing: save after this long without further edits (SPEC.md §4, §9). */
export const PREFERENCE_SAVE_DEBOUNCE_MS = 2000;

/** Account balance refresh per platform (SPEC.md §9). */
export const BALANCE_REFRESH_MS = 30_000;
/** Balance display decimals (SPEC.md §9). */
export const BALANCE_DECIMALS = 2;

/** Validation lengths (SPEC.md §5, §9), in characters. */
export const PIN_CODE_LENGTH = 5;
export const PASSWORD_MIN_LENGTH = 6;
export const NICKNAME_MIN_LENGTH = 4;

/** Stepper defaults (SPEC.md §2, §9). */
export const STEPPER_DEFAULT_MIN = 0;
export const STEPPER_DEFAULT_MAX = 10;
export const STEPPER_DEFAULT_STEP = 1;
export const STEPPER_DEFAULT_DECIMALS = 0;

/** The seeded paper-exchange platform (DESIGN.md "How things run"): it offers 'Create paper account'. */
export const PAPER_PLATFORM_NAME = 'Paper Futures';

/** Below this width (px) the sidebar is an overlay and starts closed on first visit. */
export const SIDEBAR_OVERLAY_MAX_WIDTH_PX = 900;
