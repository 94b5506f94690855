// Drizzle schema: one definition for PGlite and PostgreSQL. Column names are the wire names of SPEC.md §3
// where an entity has them. Times are timestamptz; secrets are stored only hashed or sealed.
import {
  boolean,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Server-wide secrets generated once (the access-token signing key), shared by every instance. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: createdAt(),
});

export const users = pgTable(
  'users',
  {
    user_uuid: uuid('user_uuid').primaryKey(),
    /** Stored lower-cased: e-mail addresses are compared case-insensitively. */
    user_email: text('user_email').notNull(),
    user_nickname: text('user_nickname').notNull(),
    /** scrypt$N$r$p$salt$hash (services/password.ts). */
    password_hash: text('password_hash').notNull(),
    /** 64 hex characters: the per-user key of the trade token envelope (DESIGN.md "Token vault"). */
    user_trade_token_key: text('user_trade_token_key').notNull(),
    created_at: createdAt(),
  },
  (table) => [uniqueIndex('users_user_email_key').on(table.user_email)],
);

/** Opaque refresh tokens, stored as SHA-256; a family is one login, rotated on every use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    family_uuid: uuid('family_uuid').notNull(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the token was exchanged for a new one; a later reuse is a theft signal. */
    rotated_at: timestamp('rotated_at', { withTimezone: true }),
    /** Set when the whole family was revoked (logout, detected reuse). */
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('refresh_tokens_family_idx').on(table.family_uuid)],
);

/** Single-use websocket tokens (SPEC.md §7 /auth/create_websocket_token/), stored as SHA-256. */
export const websocketTokens = pgTable(
  'websocket_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    /** The login (refresh-token family, an access token's sid) it was issued to: logout revokes it (issue 38). */
    family_uuid: uuid('family_uuid'),
  },
  (table) => [index('websocket_tokens_expires_idx').on(table.expires_at)],
);

/** Failed attempts counted by the rate limiter (scope 'login' per e-mail, 'pin' per user and platform). */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    scope: text('scope').notNull(),
    subject: text('subject').notNull(),
    created_at: createdAt(),
  },
  (table) => [index('rate_limit_events_lookup_idx').on(table.scope, table.subject, table.created_at)],
);

export const platforms = pgTable('platforms', {
  platform_uuid: uuid('platform_uuid').primaryKey(),
  platform_name: text('platform_name').notNull(),
  platform_background: text('platform_background').notNull(),
  /** TradeTokenLevel scale; 3 = TRADE_AVAILABLE (SPEC.md §3). */
  level: integer('level').notNull(),
  trade_leverage_max: integer('trade_leverage_max').notNull(),
  /** REST base URL; the paper platform's is rewritten at each start to the running paper exchange. */
  base_url: text('base_url').notNull(),
  /** false hides the platform (the paper platform when no paper exchange runs). */
  enabled: boolean('enabled').notNull().default(true),
  /**
   * The exchange answers browser origins (CORS), so client mode may call it straight from the page; false for
   * Binance, whose signed endpoints refuse them: client mode goes through the relay (docs/relay.md).
   */
  allows_browser: boolean('allows_browser').notNull().default(false),
  /**
   * The user data stream's address (issue 37; binance-fapi.md §9), with `{listenKey}` and `{events}` where they
   * go: Binance's production form `wss://fstream.binance.com/private/ws?listenKey={listenKey}&events={events}`,
   * the legacy `…/ws/{listenKey}` on demo and testnet. Empty: the platform's accounts are not followed.
   */
  user_stream_url: text('user_stream_url').notNull().default(''),
  sort_order: integer('sort_order').notNull().default(0),
});

export const symbols = pgTable(
  'symbols',
  {
    symbol_uuid: uuid('symbol_uuid').primaryKey(),
    symbol_name: text('symbol_name').notNull(),
    symbol_pair: text('symbol_pair').notNull(),
    symbol_quantity_precision: integer('symbol_quantity_precision').notNull(),
    symbol_price_precision: integer('symbol_price_precision').notNull(),
    // The order filters a market order must pass (issue 53; binance-fapi.md §4): LOT_SIZE's minQty, the lower
    // of LOT_SIZE's and MARKET_LOT_SIZE's maxQty, MIN_NOTIONAL's notional. Null until the exchange listed them.
    symbol_min_quantity: numeric('symbol_min_quantity'),
    symbol_max_quantity: numeric('symbol_max_quantity'),
    symbol_min_notional: numeric('symbol_min_notional'),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('symbols_symbol_pair_key').on(table.symbol_pair)],
);

export const platformPreferences = pgTable(
  'platform_preferences',
  {
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    platform_uuid: uuid('platform_uuid')
      .notNull()
      .references(() => platforms.platform_uuid, { onDelete: 'cascade' }),
    trade_margin: doublePrecision('trade_margin').notNull(),
    trade_leverage: integer('trade_leverage').notNull(),
    trade_stop_loss_percent: doublePrecision('trade_stop_loss_percent').notNull(),
    trade_take_profit_percent: doublePrecision('trade_take_profit_percent').notNull(),
    trade_treiling_stop_percent: doublePrecision('trade_treiling_stop_percent').notNull(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.user_uuid, table.platform_uuid] })],
);

export const tradePreferences = pgTable('trade_preferences', {
  user_uuid: uuid('user_uuid')
    .primaryKey()
    .references(() => users.user_uuid, { onDelete: 'cascade' }),
  trade_auto_open_delay: integer('trade_auto_open_delay').notNull(),
  trade_auto_close_delay: integer('trade_auto_close_delay').notNull(),
  minimal_accuracy: doublePrecision('minimal_accuracy').notNull(),
  trade_in_server_side: integer('trade_in_server_side').notNull(),
  /** Risk limits (issue 18), 0 = OFF: open trades at most, and the day's realized loss in USDT. */
  trade_max_open_trades: integer('trade_max_open_trades').notNull().default(0),
  trade_daily_loss_limit: integer('trade_daily_loss_limit').notNull().default(0),
  /** Issue 35: 1 (default) the exchange holds each trade's take profit and trailing stop, 0 the monitor does. */
  trade_exits_on_exchange: integer('trade_exits_on_exchange').notNull().default(1),
  /**
   * Issue 37: 1 (default) the server follows the accounts of the trader's client-mode trades on the exchange's
   * user data stream while no page is open (the API key only; it can place no order), 0 it does not.
   */
  trade_follow_when_away: integer('trade_follow_when_away').notNull().default(1),
  /**
   * Issue 54: 0 (default) the server holds no key of a server-mode token without the PIN; 1 it keeps a second
   * seal (followed_accounts.unattended_sealed) and may sign protective orders while the trader is away.
   */
  trade_server_acts_when_away: integer('trade_server_acts_when_away').notNull().default(0),
  /** Issue 39: 0 (default) Close (×) asks first, 1 "one-click close". */
  trade_one_click_close: integer('trade_one_click_close').notNull().default(0),
  /** Issue 41: what the trader's subscribed devices are told (Web Push), each 1 (default) on, 0 off. */
  push_signals: integer('push_signals').notNull().default(1),
  push_trade_opened: integer('push_trade_opened').notNull().default(1),
  push_trade_closed: integer('push_trade_closed').notNull().default(1),
  push_unprotected: integer('push_unprotected').notNull().default(1),
  push_refusals: integer('push_refusals').notNull().default(1),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Server-mode trade tokens: the trade-core envelope and the non-secret record fields (SPEC.md §3). */
export const tradeTokens = pgTable(
  'trade_tokens',
  {
    trade_token_uuid: uuid('trade_token_uuid').primaryKey(),
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    platform_uuid: uuid('platform_uuid')
      .notNull()
      .references(() => platforms.platform_uuid, { onDelete: 'cascade' }),
    envelope: text('envelope').notNull(),
    message: text('message'),
    level: integer('level').notNull(),
    created_at: createdAt(),
    /** Last use of the token for an exchange call ('Last used', SPEC.md §2). */
    updated_at: timestamp('updated_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('trade_tokens_user_platform_key').on(table.user_uuid, table.platform_uuid)],
);

/**
 * Exchange API keys relayed for client mode (routes/exchange_relay, docs/relay.md): a key is bound to the
 * first trader whose request with it the exchange accepted, and the relay refuses it for anyone else, so an
 * IP-restricted key that allows our server's address cannot be used through us by a trader who got hold of
 * it. Only a keyed digest of platform and key is kept (SecretBox.digest), never the key.
 */
export const relayApiKeys = pgTable('relay_api_keys', {
  key_digest: text('key_digest').primaryKey(),
  user_uuid: uuid('user_uuid')
    .notNull()
    .references(() => users.user_uuid, { onDelete: 'cascade' }),
  created_at: createdAt(),
});

/**
 * Accounts the server follows while the trader is away (issue 37, services/followed-accounts.ts): the API key
 * of a trader's token on a platform — never the secret — sealed under a key derived from the master key and
 * bound to the user and platform, so any instance can hold the account's user data stream with no PIN. Stored
 * only for a key bound to this trader in relay_api_keys (key_digest is that binding's digest). Client-mode
 * trades are followed while the trader's trade_follow_when_away is on; server-mode ones always.
 */
export const followedAccounts = pgTable(
  'followed_accounts',
  {
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    platform_uuid: uuid('platform_uuid')
      .notNull()
      .references(() => platforms.platform_uuid, { onDelete: 'cascade' }),
    api_key_sealed: text('api_key_sealed').notNull(),
    key_digest: text('key_digest').notNull(),
    /**
     * Issue 54: the token's key and secret sealed once more under a key derived from the master key (never the
     * PIN), bound to the user and platform, while the trader lets the server act when away
     * (trade_server_acts_when_away); usable only for protective calls (services/unattended-keys.ts). Null when
     * the option is off, the key changed, or no PIN was given since it was switched on.
     */
    unattended_sealed: text('unattended_sealed'),
    created_at: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.user_uuid, table.platform_uuid] })],
);

/**
 * The exchange budget's breaker (services/exchange-budget.ts), shared by the instances behind one egress address
 * (services/exchange-pauses.ts): after an exchange's 429 or 418, nothing is sent to it until paused_until.
 */
export const exchangePauses = pgTable('exchange_pauses', {
  exchange_origin: text('exchange_origin').primaryKey(),
  paused_until: timestamp('paused_until', { withTimezone: true }).notNull(),
  status: integer('status').notNull(),
});

/**
 * Signed requests the relay forwarded (services/exchange-relay.ts): a digest of the platform, the API key and the
 * signature's decoded bytes, kept until the exchange can no longer accept the request; a second insert of one
 * digest is a replay, on any instance.
 */
export const relaySignatures = pgTable('relay_signatures', {
  signature_digest: text('signature_digest').primaryKey(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Web Push subscriptions (issue 41, services/web-push.ts): one row per device (its push service endpoint), of
 * one trader, tied to the login (refresh-token family) that subscribed it, so logout removes it. p256dh and
 * auth are the device's public key and authentication secret, which only encrypt what is sent to it; the
 * endpoint is a capability URL and is kept as the push service gave it. language: the page's language then.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    endpoint: text('endpoint').primaryKey(),
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    family_uuid: uuid('family_uuid'),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    language: text('language').notNull().default('en'),
    created_at: createdAt(),
  },
  (table) => [index('push_subscriptions_user').on(table.user_uuid)],
);
