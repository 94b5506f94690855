// A trader's settings as a replay of signals takes them (engine/trade-replay.ts ReplaySettings): the platform's
// preferences, the global minimal accuracy, the exits on the exchange and the risk limits, and the fee rate —
// one rate source for the what-if replay, the house's backfill and the money-first fee flag of the page: the
// taker rate the exchange charged the trader's newest trade on that platform whose opening commission is known
// (shared-core/trade-fees.ts chargedTakerRate), else DEFAULT_TAKER_RATE (Binance's base taker rate, 0.05 %).
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { chargedTakerRate, DEFAULT_TAKER_RATE } from '../../../shared-core/trade-fees';
import type { Database } from '../db';
import { trades } from '../db/schema-trades';
import type { ReplaySettings } from './trade-replay';
import { getPlatformPreferences, getTradePreferences } from '../services/preferences';

/** The taker rate of the trader's newest trade on the platform with a known opening commission, else the default. */
export async function takerRateOf(db: Database, userUuid: string, platformUuid: string): Promise<string> {
  const [newest] = await db
    .select({
      trade_open_commission: trades.trade_open_commission,
      trade_quantity: trades.trade_quantity,
      trade_open_price: trades.trade_open_price,
    })
    .from(trades)
    .where(
      and(
        eq(trades.user_uuid, userUuid),
        eq(trades.platform_uuid, platformUuid),
        isNotNull(trades.trade_open_commission),
        isNotNull(trades.trade_quantity),
        isNotNull(trades.trade_open_price),
      ),
    )
    .orderBy(desc(trades.trade_create_timestamp))
    .limit(1);
  const charged =
    newest &&
    chargedTakerRate({
      trade_open_commission: newest.trade_open_commission,
      trade_quantity: newest.trade_quantity as string,
      trade_open_price: newest.trade_open_price as string,
    });
  return charged ?? DEFAULT_TAKER_RATE;
}

/** The trader's saved settings (the defaults where nothing is saved) for a replay on `platform`. */
export async function replaySettingsOf(
  db: Database,
  userUuid: string,
  platform: { platform_uuid: string; trade_leverage_max: number },
): Promise<ReplaySettings> {
  const [preferences, global, takerRate] = await Promise.all([
    getPlatformPreferences(db, userUuid, platform),
    getTradePreferences(db, userUuid),
    takerRateOf(db, userUuid, platform.platform_uuid),
  ]);
  return {
    preferences,
    minimalAccuracy: global.minimal_accuracy,
    exitsOnExchange: global.trade_exits_on_exchange === 1,
    maxOpenTrades: global.trade_max_open_trades,
    dailyLossLimit: global.trade_daily_loss_limit,
    takerRate,
  };
}
