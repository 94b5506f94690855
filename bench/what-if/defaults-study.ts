// Issue 42 item 4: new-trader defaults chosen with the what-if replay on one period and checked on another.
// The paper exchange's market (its generator, the market the house and new traders trade) is generated for
// 2 × DAYS days and run through the signal engine minute by minute, as the backfill runs it; the signals and the
// candles are kept in the replay's compact form; then the one replay (engine/what-if.ts runWhatIf, the endpoint's
// code) runs every candidate of the grid on the FIRST period (fitting) and the best few, and the current defaults,
// on the SECOND (checking). Margin and leverage stay as they are (they scale the money, not the rules).
// Prints a table per period, sorted by net PNL after fees.
//   npx tsx bench/what-if/defaults-study.ts [--seed 7] [--days 30] [--wide]
import { generateHistory, SYMBOLS } from '../../paper-exchange/src/index';
import { compareDecimals, initTradeCore } from '../../shared-core/trade-core-node';
import { DEFAULT_TAKER_RATE } from '../../shared-core/trade-fees';
import { candleFromHistory } from '../../server/src/engine/candles';
import { SignalEngine } from '../../server/src/engine/signal-engine';
import {
  CANDLE_FIELDS,
  DAY_MS,
  MINUTES_PER_DAY,
  runWhatIf,
  scaledValue,
  type WhatIfDay,
  type WhatIfSymbol,
} from '../../server/src/engine/what-if';
import { EXCHANGE_ORDER_FILTERS, type ReplaySettings } from '../../server/src/engine/trade-replay';
import {
  DEFAULT_PLATFORM_PREFERENCES,
  DEFAULT_TRADE_PREFERENCES,
} from '../../server/src/services/preferences';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const SEED = option('--seed', 7);
const DAYS = option('--days', 30);
const MINUTE_MS = 60_000;

await initTradeCore();
const endTime = Math.floor(Date.UTC(2026, 10, 1) / DAY_MS) * DAY_MS;
// One day more in front: the engine's track records fill before the first period starts.
const history = generateHistory({ seed: SEED, days: 2 * DAYS + 1, endTime });
const pairs = SYMBOLS.map((spec) => spec.symbol);
const symbols: WhatIfSymbol[] = SYMBOLS.map((spec, index) => ({
  pair: spec.symbol,
  symbol_uuid: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
  symbol_name: spec.symbol.replace('USDT', ''),
  symbol_price_precision: spec.pricePrecision,
  symbol_quantity_precision: spec.quantityPrecision,
}));

// The engine over the whole history; the days in the replay's form.
const engine = new SignalEngine();
const lists = pairs.map((pair) => history.get(pair)!);
const minutes = Math.min(...lists.map((list) => list.length));
const days = new Map<number, WhatIfDay>();
let signalCount = 0;
const started = performance.now();
for (let m = 0; m < minutes; m++) {
  for (let i = 0; i < pairs.length; i++) {
    const spec = SYMBOLS[i]!;
    const candle = candleFromHistory(lists[i]![m]!, spec.pricePrecision);
    const dayStart = Math.floor(candle.openTime / DAY_MS) * DAY_MS;
    let day = days.get(dayStart);
    if (!day) {
      day = {
        start: dayStart,
        candles: pairs.map(() => new Float64Array(MINUTES_PER_DAY * CANDLE_FIELDS).fill(Number.NaN)),
        scales: SYMBOLS.map((item) => item.pricePrecision),
        signals: [],
      };
      days.set(dayStart, day);
    }
    const slot = ((candle.openTime - dayStart) / MINUTE_MS) * CANDLE_FIELDS;
    const list = day.candles[i]!;
    list[slot] = scaledValue(candle.high, spec.pricePrecision);
    list[slot + 1] = scaledValue(candle.low, spec.pricePrecision);
    list[slot + 2] = scaledValue(candle.close, spec.pricePrecision);
    const step = engine.onCandle(pairs[i]!, candle);
    for (const signal of step?.signals ?? []) {
      const signalDay = days.get(Math.floor(signal.createdAt / DAY_MS) * DAY_MS) ?? day;
      signalDay.signals.push({
        t: signal.createdAt,
        s: i,
        u: `00000000-0000-4000-9000-${String(++signalCount).padStart(12, '0')}`,
        n: signal.neuronUuid,
        d: signal.direction,
        p: signal.priceEnter,
        a: signal.accuracy,
      });
    }
  }
}
for (const day of days.values()) day.signals.sort((a, b) => a.t - b.t || a.s - b.s);
const origin = Math.min(...days.keys());
console.log(
  `engine: ${minutes} minutes of ${pairs.length} symbols, ${signalCount} signals in ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const first = { fromMs: origin + DAY_MS, toMs: origin + (DAYS + 1) * DAY_MS };
const second = { fromMs: first.toMs, toMs: first.toMs + DAYS * DAY_MS };
const dayList = [...days.values()].sort((a, b) => a.start - b.start);

interface Candidate {
  trade_stop_loss_percent: number;
  trade_take_profit_percent: number;
  trade_treiling_stop_percent: number;
  minimal_accuracy: number;
}

function replay(candidate: Candidate, range: { fromMs: number; toMs: number }) {
  const settings: ReplaySettings = {
    preferences: { ...DEFAULT_PLATFORM_PREFERENCES, ...candidate },
    minimalAccuracy: candidate.minimal_accuracy,
    exitsOnExchange: DEFAULT_TRADE_PREFERENCES.trade_exits_on_exchange === 1,
    maxOpenTrades: 0,
    dailyLossLimit: 0,
    takerRate: DEFAULT_TAKER_RATE,
  };
  const result = runWhatIf({
    userUuid: '00000000-0000-4000-8000-0000000000aa',
    platformUuid: '00000000-0000-4000-8000-0000000000bb',
    ...range,
    symbols,
    neurons: {},
    days: dayList.filter((day) => day.start + DAY_MS > range.fromMs && day.start < range.toMs),
    settings,
    orderFilters: EXCHANGE_ORDER_FILTERS,
  });
  return result.total;
}

const describe = (c: Candidate) =>
  `SL ${c.trade_stop_loss_percent} TP ${c.trade_take_profit_percent} trail ${c.trade_treiling_stop_percent} acc ${c.minimal_accuracy}`;
const line = (c: Candidate, t: ReturnType<typeof replay>) =>
  `${describe(c).padEnd(34)} trades ${String(t.trades).padStart(5)}  won ${(t.win_rate ?? '—').padStart(6)} %  ` +
  `net ${t.pnl_net.padStart(12)} $  drawdown ${t.max_drawdown.padStart(10)} $  roe/trade ${t.roe_net ?? '—'} %`;

const current: Candidate = {
  trade_stop_loss_percent: DEFAULT_PLATFORM_PREFERENCES.trade_stop_loss_percent,
  trade_take_profit_percent: DEFAULT_PLATFORM_PREFERENCES.trade_take_profit_percent,
  trade_treiling_stop_percent: DEFAULT_PLATFORM_PREFERENCES.trade_treiling_stop_percent,
  minimal_accuracy: DEFAULT_TRADE_PREFERENCES.minimal_accuracy,
};
// SPEC.md §5's ranges: stop loss 5–100, take profit 2–100, trailing 2–100 (steps of 0.5), accuracy 60–100.
// --wide looks past the first grid's edge (its best had the largest take profit and trailing stop).
const wide = args.includes('--wide');
const grid: Candidate[] = [];
for (const sl of wide ? [10] : [5, 10, 15, 20])
  for (const tp of wide ? [12, 20, 30, 40] : [3, 5, 8, 12, 20])
    for (const tr of wide ? [5, 8, 12, 16] : [2, 3, 5, 8])
      for (const acc of wide ? [60] : [60, 65, 70])
        grid.push({
          trade_stop_loss_percent: sl,
          trade_take_profit_percent: tp,
          trade_treiling_stop_percent: tr,
          minimal_accuracy: acc,
        });

const fitStarted = performance.now();
const fitted = grid
  .map((candidate) => ({ candidate, total: replay(candidate, first) }))
  .sort((a, b) => compareDecimals(b.total.pnl_net, a.total.pnl_net));
console.log(
  `\nFIRST period (fitting), ${grid.length} candidates in ${((performance.now() - fitStarted) / 1000).toFixed(0)} s; the best 8 and the current defaults:`,
);
for (const { candidate, total } of fitted.slice(0, 8)) console.log(line(candidate, total));
const currentFirst = fitted.find(({ candidate }) => describe(candidate) === describe(current));
console.log(`current: ${line(current, currentFirst?.total ?? replay(current, first))}`);

console.log('\nSECOND period (checking): the same 8 and the current defaults:');
for (const { candidate } of fitted.slice(0, 8)) console.log(line(candidate, replay(candidate, second)));
console.log(`current: ${line(current, replay(current, second))}`);
