// Drizzle schema of the signal engine (SPEC.md §3 Signal, Neuron): the neurons, and every signal a neuron made
// with its outcome. A signal row belongs to one platform; the engine's one signal on a symbol becomes a row
// per platform that follows the feed's exchange (same created_at, same outcome).
import {
  primaryKey,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { platforms, symbols } from './schema';

export const neurons = pgTable('neurons', {
  neuron_uuid: uuid('neuron_uuid').primaryKey(),
  neuron_tag_name: text('neuron_tag_name').notNull(),
  description: text('description').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const signals = pgTable(
  'signals',
  {
    signal_uuid: uuid('signal_uuid').primaryKey(),
    platform_uuid: uuid('platform_uuid')
      .notNull()
      .references(() => platforms.platform_uuid, { onDelete: 'cascade' }),
    symbol_uuid: uuid('symbol_uuid')
      .notNull()
      .references(() => symbols.symbol_uuid, { onDelete: 'cascade' }),
    neuron_uuid: uuid('neuron_uuid')
      .notNull()
      .references(() => neurons.neuron_uuid, { onDelete: 'cascade' }),
    /** 'BUY' or 'SELL' (signal_direction_created). */
    direction: text('direction').notNull(),
    /** Exchange decimal string, kept exact. */
    price_enter: numeric('price_enter').notNull(),
    /** Hit rate (0..1) when made; null while the neuron had too few resolved signals (never sent). */
    accuracy: doublePrecision('accuracy'),
    trend_moment: integer('trend_moment').notNull(),
    /** End of the 1-minute candle it was made on. */
    created_at: timestamp('created_at', { withTimezone: true }).notNull(),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    /** 'hit' or 'miss'; null while open. */
    outcome: text('outcome'),
    price_exit: numeric('price_exit'),
  },
  (table) => [
    index('signals_track_idx').on(
      table.neuron_uuid,
      table.symbol_uuid,
      table.platform_uuid,
      table.created_at,
    ),
    index('signals_created_idx').on(table.created_at),
  ],
);

/**
 * Closed 1-minute candles of the followed symbols (issue 42), one row per symbol and UTC day: four arrays of
 * CANDLE_DAY_MINUTES prices (slot 1 is 00:00, NULL where no candle was stored) as the exchange wrote them. The
 * leader's signal core fills in the candles the market feed gives it (live and REST-filled), the backfill stores
 * the history it replayed; kept CANDLE_KEEP_DAYS (engine/candle-store.ts). The what-if replay reads them: a day is
 * a handful of rows, where a row per minute made a first start's backfill 5 s slower and a month's read 2.6 s.
 */
export const marketCandleDays = pgTable(
  'market_candle_days',
  {
    symbol_uuid: uuid('symbol_uuid')
      .notNull()
      .references(() => symbols.symbol_uuid, { onDelete: 'cascade' }),
    /** 00:00 UTC of the day. */
    day: timestamp('day', { withTimezone: true }).notNull(),
    open: numeric('open').array().notNull(),
    high: numeric('high').array().notNull(),
    low: numeric('low').array().notNull(),
    close: numeric('close').array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.symbol_uuid, table.day] })],
);
