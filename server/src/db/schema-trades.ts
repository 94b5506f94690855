// Drizzle schema of trades (SPEC.md §3 Trade; contracts/trades.ts): one row per trade a user opened from a
// signal, open or closed. Money is `numeric` (exact decimals, read back as strings), never floating point.
// Columns the exchange has not confirmed yet (price, quantity, stop) are null while a server-mode open runs
// (trade_phase 'opening') or when the open stopped half-way (trade_error 'open_incomplete').
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  jsonb,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ExitHold, TradeExits } from '../../../contracts';
import { platforms, symbols, users } from './schema';

export const trades = pgTable(
  'trades',
  {
    trade_uuid: uuid('trade_uuid').primaryKey(),
    user_uuid: uuid('user_uuid')
      .notNull()
      .references(() => users.user_uuid, { onDelete: 'cascade' }),
    platform_uuid: uuid('platform_uuid')
      .notNull()
      .references(() => platforms.platform_uuid, { onDelete: 'cascade' }),
    /** No foreign key: the signal engine may prune a signal, the trade made from it stays. */
    signal_uuid: uuid('signal_uuid').notNull(),
    symbol_uuid: uuid('symbol_uuid')
      .notNull()
      .references(() => symbols.symbol_uuid, { onDelete: 'cascade' }),
    /** 'BUY' or 'SELL', the signal's direction. */
    trade_direction: text('trade_direction').notNull(),
    /** 0 client mode, 1 server mode. */
    trade_in_server_side: integer('trade_in_server_side').notNull(),
    /** 'opening' while the server's exchange calls of a server-mode open run, 'ready' after. */
    trade_phase: text('trade_phase').notNull().default('ready'),
    trade_open_price: numeric('trade_open_price'),
    trade_quantity: numeric('trade_quantity'),
    trade_margin: numeric('trade_margin').notNull(),
    trade_leverage: integer('trade_leverage').notNull(),
    trade_stop_loss_percent: doublePrecision('trade_stop_loss_percent').notNull(),
    trade_take_profit_percent: doublePrecision('trade_take_profit_percent').notNull(),
    trade_treiling_stop_percent: doublePrecision('trade_treiling_stop_percent').notNull(),
    trade_stop_price: numeric('trade_stop_price'),
    trade_order_id: text('trade_order_id'),
    trade_stop_order_id: text('trade_stop_order_id'),
    /**
     * Where the take profit and the trailing stop are held (contracts TradeExits, issue 35): an algo order on
     * the exchange or Signaldesk's monitor. Null: the monitor holds both (preference off, or an older trade).
     */
    trade_exits: jsonb('trade_exits').$type<TradeExits>(),
    /** The stop's market backstop (issue 54; contracts Trade.trade_backstop). */
    trade_backstop: jsonb('trade_backstop').$type<ExitHold>(),
    /**
     * Orders of a closed trade still waiting on the exchange (issue 37): the user data stream recorded the close
     * but cannot cancel (it holds no secret); the next call with the key cancels them (client order ids).
     */
    trade_exits_waiting: jsonb('trade_exits_waiting').$type<string[]>(),
    /**
     * Why a manual_close happened when the exchange closed the position outside Signaldesk (issue 37, the user
     * data stream): contracts TradeCloseCause ('by_hand', 'liquidation', 'adl'); null otherwise.
     */
    trade_close_cause: text('trade_close_cause'),
    /** contracts TradeError, null when the trade is sound. */
    trade_error: text('trade_error'),
    trade_status: text('trade_status').notNull().default('open'),
    trade_ui_status: text('trade_ui_status'),
    trade_current_price: numeric('trade_current_price'),
    /** -1, 0 or 1: direction of the last price change. */
    trade_last_update_price: integer('trade_last_update_price').notNull().default(0),
    trade_pnl_current: numeric('trade_pnl_current').notNull().default('0'),
    trade_roe_current: numeric('trade_roe_current').notNull().default('0'),
    trade_treiling_stop_percent_current: numeric('trade_treiling_stop_percent_current').notNull(),
    /** Trailing state of the monitor: the best ROE (percent, 2 decimals) seen while open. */
    trade_best_roe: numeric('trade_best_roe'),
    /**
     * Edge-trigger state of the monitor: bit 1 take profit, 2 stop loss, 4 trailing stop — the conditions
     * that held at the last price, so a UI status fires only when its condition becomes true.
     */
    monitor_conditions: integer('monitor_conditions').notNull().default(0),
    trade_close_price: numeric('trade_close_price'),
    // The cockpit (issue 18; contracts/trades.ts): null when the exchange did not tell, and for trades recorded
    // before it.
    /** Commission of the opening fill as the exchange reported it (USDT). */
    trade_open_commission: numeric('trade_open_commission'),
    /** Closing commission: the estimate at the last price while open (the monitor), as charged once closed. */
    trade_close_commission: numeric('trade_close_commission'),
    /** PNL and ROE net of both commissions, as trade_pnl_current and trade_roe_current. */
    trade_pnl_net: numeric('trade_pnl_net'),
    trade_roe_net: numeric('trade_roe_net'),
    /** Maintenance margin rate and amount of the leverage bracket of the position's notional at the open. */
    trade_maint_margin_rate: numeric('trade_maint_margin_rate'),
    trade_maint_amount: numeric('trade_maint_amount'),
    /** The isolated liquidation price, computed once from the columns above when the position is recorded. */
    trade_liquidation_price: numeric('trade_liquidation_price'),
    trade_create_timestamp: timestamp('trade_create_timestamp', { withTimezone: true })
      .notNull()
      .defaultNow(),
    trade_update_timestamp: timestamp('trade_update_timestamp', { withTimezone: true })
      .notNull()
      .defaultNow(),
    trade_close_timestamp: timestamp('trade_close_timestamp', { withTimezone: true }),
    /**
     * Issue 53, "while you were away": false for a close the server recorded on its own (the account's stream,
     * the exchange's exits, the reconciler, the server's monitor) until a page of the trader claims it and says
     * so; true for one a page asked for (that page told its trader); null for closes from before issue 53.
     */
    trade_close_announced: boolean('trade_close_announced'),
  },
  (table) => [
    // One trade per signal per user: a retried create never opens a second position.
    uniqueIndex('trades_user_signal_key').on(table.user_uuid, table.signal_uuid),
    index('trades_user_created_idx').on(table.user_uuid, table.trade_create_timestamp),
    // The day's realized loss of a trader (risk limits, services/risk-limits.ts) reads by close time.
    index('trades_user_closed_idx').on(table.user_uuid, table.trade_close_timestamp),
    index('trades_open_idx')
      .on(table.trade_status)
      .where(sql`${table.trade_status} = 'open'`),
  ],
);

export type TradeRow = typeof trades.$inferSelect;
export type NewTradeRow = typeof trades.$inferInsert;
