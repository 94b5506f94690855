// Symbols from the exchange's exchangeInfo (SPEC.md §3; binance-fapi.md §4): USDT-margined perpetuals that
// trade. The symbol_uuid is made once per symbol_pair and kept, so signals and trades can refer to it.
import { randomUUID } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { symbolFilterValue, type SymbolDict } from '../../../contracts';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { compareDecimals } from '../../../shared-core/trade-core-node';
import { exchangeBudget } from './exchange-budget';
import { budgetedFetch } from './exchange-transport';

const EXCHANGE_INFO_TIMEOUT_MS = 5000;

interface ExchangeInfoSymbol {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  contractType?: string;
  status: string;
  filters: {
    filterType: string;
    tickSize?: string;
    stepSize?: string;
    minQty?: string;
    maxQty?: string;
    notional?: string;
  }[];
}

/** Decimal places of a step such as '0.0010' (3) or '1' (0): the precision an order value must keep. */
export function decimalsOfStep(step: string): number {
  const plain = /e/i.test(step) ? Number(step).toFixed(20) : step;
  const fraction = plain.split('.')[1]?.replace(/0+$/, '') ?? '';
  return fraction.length;
}

/** A filter value the contract accepts (bounded, above 0), else null: an odd value never reaches the table. */
function filterValue(value: unknown): string | null {
  const parsed = symbolFilterValue.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The lower of two filter values that may be missing (the market order's own maxQty and LOT_SIZE's). */
function lowerOf(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return compareDecimals(a, b) <= 0 ? a : b;
}

/** The order filters of a symbol (issue 53): what a market order's quantity and notional must pass. */
export function orderFilters(filters: ExchangeInfoSymbol['filters']) {
  const lot = filters.find((f) => f.filterType === 'LOT_SIZE');
  const market = filters.find((f) => f.filterType === 'MARKET_LOT_SIZE');
  const minNotional = filters.find((f) => f.filterType === 'MIN_NOTIONAL');
  return {
    symbol_min_quantity: filterValue(lot?.minQty),
    symbol_max_quantity: lowerOf(filterValue(lot?.maxQty), filterValue(market?.maxQty)),
    symbol_min_notional: filterValue(minNotional?.notional),
  };
}

interface RateLimit {
  rateLimitType: string;
  interval: string;
  intervalNum: number;
  limit: number;
}

export async function fetchExchangeSymbols(exchangeUrl: string) {
  const response = await budgetedFetch(`${exchangeUrl}/fapi/v1/exchangeInfo`, {
    signal: AbortSignal.timeout(EXCHANGE_INFO_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`exchangeInfo answered HTTP ${response.status}`);
  const info = (await response.json()) as { symbols?: ExchangeInfoSymbol[]; rateLimits?: RateLimit[] };
  // The exchange's own request-weight limit of our address is the budget's (services/exchange-budget.ts).
  const weight = info.rateLimits?.find(
    (limit) =>
      limit.rateLimitType === 'REQUEST_WEIGHT' && limit.interval === 'MINUTE' && limit.intervalNum === 1,
  );
  if (weight) exchangeBudget.setLimit(exchangeUrl, weight.limit);
  return (info.symbols ?? [])
    .filter(
      (s) =>
        s.status === 'TRADING' && s.quoteAsset === 'USDT' && (s.contractType ?? 'PERPETUAL') === 'PERPETUAL',
    )
    .map((s) => {
      const tickSize = s.filters.find((f) => f.filterType === 'PRICE_FILTER')?.tickSize;
      const stepSize = s.filters.find((f) => f.filterType === 'LOT_SIZE')?.stepSize;
      if (!tickSize || !stepSize) return undefined;
      return {
        symbol_name: s.baseAsset,
        symbol_pair: s.symbol,
        symbol_quantity_precision: decimalsOfStep(stepSize),
        symbol_price_precision: decimalsOfStep(tickSize),
        ...orderFilters(s.filters),
      };
    })
    .filter((s) => s !== undefined);
}

/** Upserts the exchange's symbols; returns how many it listed. Symbols it no longer lists are kept. */
export async function syncSymbols(db: Database, exchangeUrl: string): Promise<number> {
  const listed = await fetchExchangeSymbols(exchangeUrl);
  for (const item of listed) {
    await db
      .insert(symbols)
      .values({ symbol_uuid: randomUUID(), ...item })
      .onConflictDoUpdate({
        target: symbols.symbol_pair,
        set: {
          symbol_name: item.symbol_name,
          symbol_quantity_precision: item.symbol_quantity_precision,
          symbol_price_precision: item.symbol_price_precision,
          symbol_min_quantity: item.symbol_min_quantity,
          symbol_max_quantity: item.symbol_max_quantity,
          symbol_min_notional: item.symbol_min_notional,
          updated_at: sql`now()`,
        },
      });
  }
  return listed.length;
}

/**
 * A stored filter as the contract writes it: numeric columns read back as PostgreSQL writes them (trailing zeros
 * kept); a value the contract would refuse is dropped, so one odd row never fails the symbol list.
 */
const storedFilter = (value: string | null): string | null => (value === null ? null : filterValue(value));

export async function listSymbols(db: Database): Promise<SymbolDict> {
  const rows = await db.select().from(symbols).orderBy(asc(symbols.symbol_pair));
  return Object.fromEntries(
    rows.map((row) => [
      row.symbol_uuid,
      {
        symbol_uuid: row.symbol_uuid,
        symbol_name: row.symbol_name,
        symbol_pair: row.symbol_pair,
        symbol_quantity_precision: row.symbol_quantity_precision,
        symbol_price_precision: row.symbol_price_precision,
        symbol_min_quantity: storedFilter(row.symbol_min_quantity),
        symbol_max_quantity: storedFilter(row.symbol_max_quantity),
        symbol_min_notional: storedFilter(row.symbol_min_notional),
      },
    ]),
  );
}

const SYNC_RETRY_MS = 30_000;

/**
 * Syncs the symbols now and, while the exchange cannot be reached, again every SYNC_RETRY_MS, so a server
 * started before its exchange still fills the symbol list. `firstAttempt` never rejects.
 */
export function keepSymbolsSynced(
  db: Database,
  exchangeUrl: string,
  log: { info(msg: string): void; warn(obj: object, msg: string): void },
): { firstAttempt: Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async (): Promise<void> => {
    try {
      const listed = await syncSymbols(db, exchangeUrl);
      log.info(`symbols: ${listed} listed by ${exchangeUrl}`);
    } catch (error) {
      log.warn({ err: error }, `symbols: exchangeInfo of ${exchangeUrl} unavailable, retrying`);
      if (!stopped) timer = setTimeout(() => void attempt(), SYNC_RETRY_MS).unref();
    }
  };
  return {
    firstAttempt: attempt(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
