// Platform preferences and global trade preferences (SPEC.md §3, §5). A user without saved values gets
// the defaults below (docs/server.md "Accounts and settings"); saving stores a row.
import { and, eq, sql } from 'drizzle-orm';
import {
  PLATFORM_PREFERENCE_BOUNDS,
  TRADE_PREFERENCE_BOUNDS,
  snapToStep,
  type PlatformPreferences,
  type SetTradePreferencesBody,
  type TradePreferences,
} from '../../../contracts';
import type { Database } from '../db';
import { platformPreferences, tradePreferences } from '../db/schema';
import { forgetClientModeKeys } from './followed-accounts';
import { forgetUnattendedKeys } from './unattended-keys';

/**
 * The new-trader defaults, chosen with the what-if replay on one month of the paper market and checked on the
 * next (docs/server.md "New-trader defaults, chosen with the replay"). The house trades with them, so a change
 * here changes the public record from the day it is deployed (the dashboard says from which day).
 */
export const DEFAULT_PLATFORM_PREFERENCES: PlatformPreferences = {
  trade_margin: 10,
  trade_leverage: 10,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 30,
  trade_treiling_stop_percent: 8,
};

export const DEFAULT_TRADE_PREFERENCES: TradePreferences = {
  trade_auto_open_delay: 0,
  trade_auto_close_delay: 0,
  minimal_accuracy: 60,
  trade_in_server_side: 0,
  trade_max_open_trades: 0,
  trade_daily_loss_limit: 0,
  trade_exits_on_exchange: 1,
  trade_follow_when_away: 1,
  trade_server_acts_when_away: 0,
  trade_one_click_close: 0,
  push_signals: 1,
  push_trade_opened: 1,
  push_trade_closed: 1,
  push_unprotected: 1,
  push_refusals: 1,
};

/** Saved values, or the defaults with the leverage capped by the platform's maximum. */
export async function getPlatformPreferences(
  db: Database,
  userUuid: string,
  platform: { platform_uuid: string; trade_leverage_max: number },
): Promise<PlatformPreferences> {
  const [row] = await db
    .select()
    .from(platformPreferences)
    .where(
      and(
        eq(platformPreferences.user_uuid, userUuid),
        eq(platformPreferences.platform_uuid, platform.platform_uuid),
      ),
    );
  if (!row) {
    const trade_leverage = Math.min(DEFAULT_PLATFORM_PREFERENCES.trade_leverage, platform.trade_leverage_max);
    return { ...DEFAULT_PLATFORM_PREFERENCES, trade_leverage };
  }
  return {
    trade_margin: row.trade_margin,
    trade_leverage: row.trade_leverage,
    trade_stop_loss_percent: row.trade_stop_loss_percent,
    trade_take_profit_percent: row.trade_take_profit_percent,
    trade_treiling_stop_percent: row.trade_treiling_stop_percent,
  };
}

/** Values already validated against SPEC.md §5; stored snapped to their steps. */
export async function setPlatformPreferences(
  db: Database,
  userUuid: string,
  platformUuid: string,
  values: PlatformPreferences,
): Promise<PlatformPreferences> {
  const P = PLATFORM_PREFERENCE_BOUNDS;
  const stored: PlatformPreferences = {
    trade_margin: snapToStep(values.trade_margin, P.trade_margin),
    trade_leverage: values.trade_leverage,
    trade_stop_loss_percent: snapToStep(values.trade_stop_loss_percent, P.trade_stop_loss_percent),
    trade_take_profit_percent: snapToStep(values.trade_take_profit_percent, P.trade_take_profit_percent),
    trade_treiling_stop_percent: snapToStep(
      values.trade_treiling_stop_percent,
      P.trade_treiling_stop_percent,
    ),
  };
  await db
    .insert(platformPreferences)
    .values({ user_uuid: userUuid, platform_uuid: platformUuid, ...stored })
    .onConflictDoUpdate({
      target: [platformPreferences.user_uuid, platformPreferences.platform_uuid],
      set: { ...stored, updated_at: sql`now()` },
    });
  return stored;
}

export async function getTradePreferences(db: Database, userUuid: string): Promise<TradePreferences> {
  const [row] = await db.select().from(tradePreferences).where(eq(tradePreferences.user_uuid, userUuid));
  if (!row) return { ...DEFAULT_TRADE_PREFERENCES };
  return {
    trade_auto_open_delay: row.trade_auto_open_delay,
    trade_auto_close_delay: row.trade_auto_close_delay,
    minimal_accuracy: row.minimal_accuracy,
    trade_in_server_side: row.trade_in_server_side === 1 ? 1 : 0,
    trade_max_open_trades: row.trade_max_open_trades,
    trade_daily_loss_limit: row.trade_daily_loss_limit,
    trade_exits_on_exchange: row.trade_exits_on_exchange === 0 ? 0 : 1,
    trade_follow_when_away: row.trade_follow_when_away === 0 ? 0 : 1,
    trade_server_acts_when_away: row.trade_server_acts_when_away === 1 ? 1 : 0,
    trade_one_click_close: row.trade_one_click_close === 1 ? 1 : 0,
    push_signals: row.push_signals === 0 ? 0 : 1,
    push_trade_opened: row.push_trade_opened === 0 ? 0 : 1,
    push_trade_closed: row.push_trade_closed === 0 ? 0 : 1,
    push_unprotected: row.push_unprotected === 0 ? 0 : 1,
    push_refusals: row.push_refusals === 0 ? 0 : 1,
  };
}

/** Saves the global preferences; risk limits and the exits' holder the body leaves out keep their stored values (or the defaults). */
export async function setTradePreferences(
  db: Database,
  userUuid: string,
  values: SetTradePreferencesBody,
): Promise<TradePreferences> {
  const current = await getTradePreferences(db, userUuid);
  const stored: TradePreferences = {
    ...values,
    minimal_accuracy: snapToStep(values.minimal_accuracy, TRADE_PREFERENCE_BOUNDS.minimal_accuracy),
    trade_max_open_trades: values.trade_max_open_trades ?? current.trade_max_open_trades,
    trade_daily_loss_limit: values.trade_daily_loss_limit ?? current.trade_daily_loss_limit,
    trade_exits_on_exchange: values.trade_exits_on_exchange ?? current.trade_exits_on_exchange,
    trade_follow_when_away: values.trade_follow_when_away ?? current.trade_follow_when_away ?? 1,
    trade_server_acts_when_away:
      values.trade_server_acts_when_away ?? current.trade_server_acts_when_away ?? 0,
    trade_one_click_close: values.trade_one_click_close ?? current.trade_one_click_close ?? 0,
    push_signals: values.push_signals ?? current.push_signals ?? 1,
    push_trade_opened: values.push_trade_opened ?? current.push_trade_opened ?? 1,
    push_trade_closed: values.push_trade_closed ?? current.push_trade_closed ?? 1,
    push_unprotected: values.push_unprotected ?? current.push_unprotected ?? 1,
    push_refusals: values.push_refusals ?? current.push_refusals ?? 1,
  };
  await db
    .insert(tradePreferences)
    .values({ user_uuid: userUuid, ...stored })
    .onConflictDoUpdate({ target: tradePreferences.user_uuid, set: { ...stored, updated_at: sql`now()` } });
  // Following switched off (issue 37): the API keys the pages handed over for client mode are forgotten; a
  // server-mode token's stays (server mode is followed always).
  if (stored.trade_follow_when_away === 0) await forgetClientModeKeys(db, userUuid);
  // Acting while away switched off (issue 54): every second seal of the trader's keys is deleted.
  if (stored.trade_server_acts_when_away === 0) await forgetUnattendedKeys(db, userUuid);
  return stored;
}
