// Seeded platforms (DESIGN.md "How things run"): the embedded paper exchange and Binance USDⓈ-M mainnet
// and demo with their real base URLs. Fixed uuids keep a platform_uuid stable across restarts and
// databases, so a browser's client-mode token (stored under it, SPEC.md §3) keeps its platform.
import { asc, eq } from 'drizzle-orm';
import { TradeTokenLevel, type Platform, type PlatformDict } from '../../../contracts';
import type { Database } from '../db';
import { platforms } from '../db/schema';

export const PAPER_PLATFORM_UUID = '489c420e-f95d-473e-82a0-53e86496aa5b';
export const BINANCE_PLATFORM_UUID = '64a83a9d-c1ba-4000-a482-bb0c4d55af1c';
export const BINANCE_DEMO_PLATFORM_UUID = 'f2b92fe0-c4e6-487f-a42c-6fba34fc09a0';

/**
 * 50×: with the largest margin of SPEC.md §5 (1000 USDT) the notional stays within every symbol's 50×
 * leverage bracket on the paper exchange, and 50× is offered on Binance's major perpetuals.
 */
export const DEFAULT_LEVERAGE_MAX = 50;

type PlatformRow = typeof platforms.$inferInsert;

/**
 * The private user data stream as Binance's production serves it since 2026-04-23 (binance-fapi.md §9): the
 * listen key as a query parameter and the events listed, else nothing is delivered.
 */
const PRIVATE_STREAM_PATH = '/private/ws?listenKey={listenKey}&events={events}';

export interface SeedOptions {
  /** Base URL of the running embedded paper exchange; the paper platform is hidden without one. */
  paperExchangeUrl?: string;
  /** The paper exchange answers browsers (its CORS flag): client mode may call it directly. */
  paperExchangeAllowsBrowsers?: boolean;
}

function seedRows({ paperExchangeUrl, paperExchangeAllowsBrowsers }: SeedOptions): PlatformRow[] {
  const common = { level: TradeTokenLevel.TRADE_AVAILABLE, trade_leverage_max: DEFAULT_LEVERAGE_MAX };
  return [
    {
      ...common,
      platform_uuid: PAPER_PLATFORM_UUID,
      platform_name: 'Paper Futures',
      platform_background: '#7e57c2',
      base_url: paperExchangeUrl ?? '',
      // The paper exchange serves user data as Binance's production does (docs/paper-exchange.md).
      user_stream_url: paperExchangeUrl
        ? `${paperExchangeUrl.replace(/^http/, 'ws')}${PRIVATE_STREAM_PATH}`
        : '',
      enabled: !!paperExchangeUrl,
      allows_browser: !!paperExchangeUrl && !!paperExchangeAllowsBrowsers,
      sort_order: 0,
    },
    {
      ...common,
      platform_uuid: BINANCE_PLATFORM_UUID,
      platform_name: 'Binance USDⓈ-M',
      platform_background: '#f0b90b',
      base_url: 'https://fapi.binance.com',
      user_stream_url: `wss://fstream.binance.com${PRIVATE_STREAM_PATH}`,
      sort_order: 1,
    },
    {
      ...common,
      platform_uuid: BINANCE_DEMO_PLATFORM_UUID,
      platform_name: 'Binance USDⓈ-M Demo',
      platform_background: '#c99400',
      base_url: 'https://demo-fapi.binance.com',
      // Demo and testnet keep the legacy form (binance-fapi.md §9).
      user_stream_url: 'wss://fstream.binancefuture.com/ws/{listenKey}',
      sort_order: 2,
    },
  ];
}

/** Inserts or refreshes the seeded platforms; the paper platform follows the running paper exchange. */
export async function seedPlatforms(db: Database, options: SeedOptions): Promise<void> {
  for (const row of seedRows(options)) {
    const { platform_uuid: _uuid, ...update } = row;
    await db
      .insert(platforms)
      .values(row)
      .onConflictDoUpdate({ target: platforms.platform_uuid, set: update });
  }
}

export type PlatformRecord = typeof platforms.$inferSelect;

function toWire(row: PlatformRecord): Platform {
  return {
    platform_uuid: row.platform_uuid,
    platform_name: row.platform_name,
    platform_background: row.platform_background,
    level: row.level as Platform['level'],
    trade_leverage_max: row.trade_leverage_max,
    platform_url: row.base_url,
    platform_allows_browser: row.allows_browser,
  };
}

export async function listPlatforms(db: Database): Promise<PlatformDict> {
  const rows = await db
    .select()
    .from(platforms)
    .where(eq(platforms.enabled, true))
    .orderBy(asc(platforms.sort_order));
  return Object.fromEntries(rows.map((row) => [row.platform_uuid, toWire(row)]));
}

/** An enabled platform, or undefined. */
export async function findPlatform(db: Database, platformUuid: string): Promise<PlatformRecord | undefined> {
  const [row] = await db.select().from(platforms).where(eq(platforms.platform_uuid, platformUuid));
  return row?.enabled ? row : undefined;
}

/** The base URLs of the platforms a page may call directly (client mode where the exchange allows browsers). */
export async function listBrowserPlatformUrls(db: Database): Promise<string[]> {
  return Object.values(await listPlatforms(db))
    .filter((platform) => platform.platform_allows_browser)
    .map((platform) => platform.platform_url);
}
