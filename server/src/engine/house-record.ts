// On what terms the public record is made (contracts/statistics.ts houseRecord; docs/server.md "The house's
// terms on the dashboard"). The house trades with the new-trader defaults (services/preferences.ts), so a change
// of the defaults changes the record from the day it is deployed, and the house's trades book fees from the day
// the replay and the live house began to (issue 42). Both days are read from the house's own trades, which store
// the settings each was opened with and its opening commission: no date is written by hand, and a fresh
// backfill (every trade with today's settings and fees) says so as truly as a record that lived through a change.
import { and, asc, desc, eq, gt, isNotNull, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { HouseRecord, HouseTradeSettings } from '../../../contracts';
import type { Database } from '../db';
import { tradeTokens } from '../db/schema';
import { trades } from '../db/schema-trades';
import { HOUSE_USER_UUID } from '../services/house';
import { findPlatform } from '../services/platforms';
import { getPlatformPreferences, getTradePreferences } from '../services/preferences';
import { utcDate } from './statistics';

const NO_RECORD: HouseRecord = {
  house_settings: null,
  settings_since: null,
  previous_settings: null,
  fees_since: null,
};

const SETTING_COLUMNS = {
  trade_margin: trades.trade_margin,
  trade_leverage: trades.trade_leverage,
  trade_stop_loss_percent: trades.trade_stop_loss_percent,
  trade_take_profit_percent: trades.trade_take_profit_percent,
  trade_treiling_stop_percent: trades.trade_treiling_stop_percent,
} as const;

/**
 * The day of the first house trade on the platform after the newest one matching `other` (every trade when none
 * does), among the trades matching `own`; and that newest other trade's settings.
 */
async function sinceLastOther(
  db: Database,
  platformUuid: string,
  own: SQL | undefined,
  other: SQL | undefined,
): Promise<{ since: string | null; previous: HouseTradeSettings | null }> {
  const ofHouse = and(eq(trades.user_uuid, HOUSE_USER_UUID), eq(trades.platform_uuid, platformUuid));
  const [last] = await db
    .select({ at: trades.trade_create_timestamp, ...SETTING_COLUMNS })
    .from(trades)
    .where(and(ofHouse, other))
    .orderBy(desc(trades.trade_create_timestamp))
    .limit(1);
  const [first] = await db
    .select({ at: trades.trade_create_timestamp })
    .from(trades)
    .where(and(ofHouse, own, last ? gt(trades.trade_create_timestamp, last.at) : undefined))
    .orderBy(asc(trades.trade_create_timestamp))
    .limit(1);
  const previous = last
    ? {
        // numeric in the database (a setting shown, not money computed with).
        trade_margin: Number(last.trade_margin),
        trade_leverage: last.trade_leverage,
        trade_stop_loss_percent: last.trade_stop_loss_percent,
        trade_take_profit_percent: last.trade_take_profit_percent,
        trade_treiling_stop_percent: last.trade_treiling_stop_percent,
      }
    : null;
  return { since: first ? utcDate(first.at.getTime()) : null, previous };
}

/** The house's terms: its settings today, since which day its trades carry them, and since which day fees. */
export async function houseRecordOf(db: Database): Promise<HouseRecord> {
  const [token] = await db
    .select({ platform_uuid: tradeTokens.platform_uuid })
    .from(tradeTokens)
    .where(eq(tradeTokens.user_uuid, HOUSE_USER_UUID))
    .orderBy(desc(tradeTokens.created_at))
    .limit(1);
  const platform = token && (await findPlatform(db, token.platform_uuid));
  if (!platform) return NO_RECORD;
  const [preferences, global] = await Promise.all([
    getPlatformPreferences(db, HOUSE_USER_UUID, platform),
    getTradePreferences(db, HOUSE_USER_UUID),
  ]);
  const differs = or(
    ...Object.entries(SETTING_COLUMNS).map(([name, column]) =>
      ne(column, String(preferences[name as keyof typeof SETTING_COLUMNS])),
    ),
  );
  const same = and(
    ...Object.entries(SETTING_COLUMNS).map(([name, column]) =>
      eq(column, String(preferences[name as keyof typeof SETTING_COLUMNS])),
    ),
  );
  // A trade with a position (an open price) books its opening fee, or it does not; one without never filled.
  const filled = isNotNull(trades.trade_open_price);
  const [settings, fees] = await Promise.all([
    sinceLastOther(db, platform.platform_uuid, same, differs),
    sinceLastOther(
      db,
      platform.platform_uuid,
      and(filled, isNotNull(trades.trade_open_commission)),
      and(filled, isNull(trades.trade_open_commission)),
    ),
  ]);
  return {
    house_settings: {
      ...preferences,
      minimal_accuracy: global.minimal_accuracy,
      trade_exits_on_exchange: global.trade_exits_on_exchange === 1,
    },
    settings_since: settings.since,
    previous_settings: settings.previous,
    fees_since: fees.since,
  };
}
