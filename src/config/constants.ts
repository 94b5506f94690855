// Business constants of SPEC.md §9, with the unit in every name.
export const APP_VERSION = '1.0.6';
export const API_TIMEOUT_MS = 5000;
/**
 * The what-if replay's wait (issue 42): a cold 30-day replay takes about a second alone and longer on a busy
 * server (and waits for a worker behind others'); the page's questions go one at a time, so giving up at
 * API_TIMEOUT_MS would send the next question while the server still runs this one (429).
 */
export const WHAT_IF_TIMEOUT_MS = 60_000;
export const BITCOIN_REFRESH_MS = 5000;
export const LANGUAGES = ['en', 'ua'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Translation namespaces: common (the shell and trading) and insights (dashboard, analysis, main, about). */
export const I18N_NAMESPACES = ['common', 'insights'] as const;
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

/** The PIN's length (SPEC.md §5, §9), in characters; the sign-up rules are the contracts' (contracts/auth.ts). */
export const PIN_CODE_LENGTH = 5;

/** Stepper defaults (SPEC.md §2, §9). */
export const STEPPER_DEFAULT_MIN = 0;
export const STEPPER_DEFAULT_MAX = 10;
export const STEPPER_DEFAULT_STEP = 1;
export const STEPPER_DEFAULT_DECIMALS = 0;

/** The seeded paper-exchange platform (DESIGN.md "How things run"): it offers 'Create paper account'. */
export const PAPER_PLATFORM_NAME = 'Paper Futures';

/** Below this width (px) the sidebar is an overlay and starts closed on first visit. */
export const SIDEBAR_OVERLAY_MAX_WIDTH_PX = 900;

/** Websocket reconnect: capped exponential backoff, first delay doubling up to the cap (ms). */
export const WS_RECONNECT_MIN_MS = 1000;
export const WS_RECONNECT_MAX_MS = 30_000;

/** Price ticker: every interval the oldest queued price is dropped and the first is shown (SPEC.md §4, §9). */
export const PRICE_TICKER_INTERVAL_MS = 1150;
/** At most this many prices wait in the ticker queue; one per symbol is kept (the newest). */
export const PRICE_QUEUE_MAX_COUNT = 50;

/** Signal card countdown (SPEC.md §4 "Signal card", §9), in seconds, ticking every second. */
export const SIGNAL_COUNTDOWN_S = 99;
export const SIGNAL_TICK_MS = 1000;
/** The countdowns on screen (signal cards, UI-status buttons) redraw once a second (SPEC.md §4, §9). */
export const SECOND_CLOCK_MS = 1000;
/** Signal-info header bar stays visible this long after the info disappears (SPEC.md §2, §9). */
export const SIGNAL_INFO_HIDE_DELAY_MS = 2000;

/** Displayed decimals (SPEC.md §9): bitcoin price 0, trend 2, accuracy and percentages 2. */
export const BITCOIN_PRICE_DECIMALS = 0;
export const TREND_DECIMALS = 2;
/**
 * Trend colour threshold, percent (SPEC.md §9 "Colour thresholds for the trend depend on a constant whose value
 * is not shown: above it green, below its negative red, above 0 yellow, below 0 orange"). Decision (docs/spa.md
 * "SPEC.md audit (issue 40)"): 0.2 % — the trend the app shows as a number is trend_prediction, bitcoin's
 * forecast move over the next 30 minutes in percent (server/src/engine/prediction.ts), mostly within ±0.5 %. A
 * forecast beyond 0.2 % is about twice the round trip of taker fees (2 × 0.05 %) and about half of a typical
 * 30-minute bitcoin move: a call worth acting on (green / red); inside it the sign is only a lean (yellow /
 * orange). trend_moment (-1, 0, 1) always lies at 0 or beyond the threshold: green, gray or red.
 */
export const TREND_COLOUR_THRESHOLD_PERCENT = 0.2;
export const PERCENT_DECIMALS = 2;

/** Open trades are read again this long after a trade is opened or closed (SPEC.md §4, §9). */
export const TRADE_REFETCH_DELAY_MS = 1000;
/** PNL, ROE and SL percent of trades, margins and the footer badges: 2 decimals (SPEC.md §9). */
export const PNL_DECIMALS = 2;
export const MARGIN_DECIMALS = 2;
/** The pulsing UI-status button alternates label and counter, and counts down, once a second (SPEC.md §4). */
export const TRADE_STATUS_TICK_MS = 1000;
/**
 * Issue 35: seconds after a take profit or trailing stop the exchange holds is flagged before the page reads the
 * platform's balance, whose reconciliation records the exchange's close (the exchange fires on the same mark
 * price the monitor flagged; this leaves it time to fill).
 */
export const EXCHANGE_EXIT_CHECK_S = 2;
/**
 * Seconds a UI status stays lit when trade_auto_close_delay is 0 (OFF) (SPEC.md §4, §9 defaults): then it
 * resets to open and Signaldesk never closes the trade by itself. See README "Automatic closing".
 */
export const TRADE_UI_STATUS_DEFAULT_S = {
  TAKE_PROFIT: 50,
  STOP_LOSS: 50,
  TREILING_STOP: 50,
  REVERSE_SIGNAL: 50,
  DIRECTION_SIGNAL: 30,
} as const;
/** Trade history read (SPEC.md §7, §9): one page of up to this many rows from offset 0. */
export const TRADE_HISTORY_LIMIT_ROWS = 100_000;
export const TRADE_HISTORY_OFFSET_DEFAULT = 0;
/** A history day runs from 00:00:00.000 to 23:59:59.099 local time (SPEC.md §5, §9). */
export const DAY_END_MS_OF_SECOND = 99;

/**
 * From this many open trades the /trading table holds only the rows near the screen
 * (open-trades-table.tsx; docs/spa.md "Performance (issue 9)"): with 500 rows every frame of live numbers
 * laid out, painted and hit-tested the whole table, and a click waited over 100 ms for its next paint
 * (bench/spa/trading.ts). Below it every row is in the page, so the browser's find and a screen reader's table
 * navigation see them all.
 */
export const VIRTUAL_ROWS_FROM = 100;

/**
 * SPEC.md §9 "Cached API data is kept 60 s when unused by default": an entry of API data kept for one screen
 * (a detail modal's trend data, lib/unused-data.ts) is dropped this long after the last component showing it
 * went away.
 */
export const CACHED_DATA_UNUSED_MS = 60_000;
/**
 * SPEC.md §9 "Chunk load time-out 120 s": a lazy chunk not loaded this long after it was asked for fails like
 * a chunk that could not be loaded (lib/chunk-reload.ts: the page reloads once, then the error page).
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
