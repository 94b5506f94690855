// The what-if replay's computation (issue 42; docs/server.md "The what-if replay"): the stored signals and
// candles of a range, in the compact form the loader (what-if-data.ts) keeps them in, traded minute by minute by
// the one replay (trade-replay.ts) with a trader's settings, and summed up. Pure and synchronous: it runs in a
// worker thread (worker-entry.ts), never on the server's event loop.
//
// Candles travel as integers: each price is its decimal text with the point removed (97000.10 at scale 2 is
// 9700010), exact in a float64 up to 2^53, and turned back into the same decimal text before any math — the money
// math is trade-core's, on the exchange's own strings.
import {
  WHAT_IF_CURVE_POINTS,
  type SignalDirection,
  type WhatIfResult,
  type WhatIfTally,
} from '../../../contracts';
import {
  addDecimals,
  compareDecimals,
  divDecimals,
  mulDecimals,
  roundDecimal,
  subDecimals,
  sumDecimals,
} from '../../../shared-core/trade-core-node';
import { MINUTE_MS } from './candles';
import {
  TradeReplay,
  type OrderFilter,
  type ReplayedTrade,
  type ReplaySettings,
  type ReplaySignal,
} from './trade-replay';

export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;
/** Numbers per minute in a day's candle array: high, low, close. */
export const CANDLE_FIELDS = 3;

export interface WhatIfSymbol {
  pair: string;
  symbol_uuid: string;
  symbol_name: string;
  symbol_price_precision: number;
  symbol_quantity_precision: number;
}

/** A stored signal: time (its created_at, ms), symbol index, uuids, direction, entry price, accuracy. */
export interface WhatIfSignal {
  t: number;
  s: number;
  u: string;
  n: string;
  d: SignalDirection;
  p: string;
  a: number | null;
}

/** One UTC day of data. */
export interface WhatIfDay {
  /** ms of 00:00 UTC. */
  start: number;
  /**
   * By symbol index: MINUTES_PER_DAY × (high, low, close) as scaled integers, NaN for a minute with no candle;
   * null for a symbol with no candle that day.
   */
  candles: (Float64Array | null)[];
  /** By symbol index: the decimals the integers are scaled by. */
  scales: number[];
  /** Sorted by time, then symbol index, then the engine's neuron order. */
  signals: WhatIfSignal[];
}

export interface WhatIfInput {
  userUuid: string;
  platformUuid: string;
  /** Minutes whose candle opens in [fromMs, toMs), signals made in (fromMs, toMs]. Whole minutes. */
  fromMs: number;
  toMs: number;
  symbols: WhatIfSymbol[];
  /** Neuron uuid → tag name. */
  neurons: Record<string, string>;
  /** The days overlapping the range, oldest first. */
  days: WhatIfDay[];
  settings: ReplaySettings;
  /** Order filters by pair (the exchange's minimums), where known. */
  orderFilters?: Readonly<Record<string, OrderFilter>>;
}

/** The decimal text of a scaled integer (9700010 at scale 2 → "97000.10"). */
export function scaledText(value: number, scale: number): string {
  const digits = String(Math.abs(value)).padStart(scale + 1, '0');
  const sign = value < 0 ? '-' : '';
  return scale === 0 ? sign + digits : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** The scaled integer of a decimal text at `scale` (≥ its decimals): exact below 2^53. */
export function scaledValue(text: string, scale: number): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole + fraction.padEnd(scale, '0'));
}

/** Decimals of a decimal text. */
export const decimalsIn = (text: string): number => text.split('.')[1]?.length ?? 0;

const percent = (part: number | string, whole: number | string): string =>
  roundDecimal(mulDecimals(divDecimals(part, whole, 12), 100), 2);

/** The replay's answer. */
export function runWhatIf(input: WhatIfInput): WhatIfResult {
  const { replay, data } = replayWhatIf(input);
  return summarise(input, replay, data);
}

/** The replay of the input's range: its trades, and what it read. */
export function replayWhatIf(input: WhatIfInput): {
  replay: TradeReplay;
  data: { candles: number; signals: number };
} {
  const { symbols, days, settings } = input;
  const symbolMap = new Map(symbols.map((symbol) => [symbol.pair, symbol]));
  const indexOf = new Map(symbols.map((symbol, index) => [symbol.pair, index]));
  const replay = new TradeReplay({
    userUuid: input.userUuid,
    platformUuid: input.platformUuid,
    symbolMap,
    settings,
    orderFilters: input.orderFilters,
    tradeUuidOf: (signalUuid) => signalUuid,
  });
  const dayAt = new Map(days.map((day) => [day.start, day]));
  const signals = days.flatMap((day) => day.signals).filter((s) => s.t > input.fromMs && s.t <= input.toMs);
  let candleCount = 0;
  for (const day of days) {
    const from = (Math.max(day.start, input.fromMs) - day.start) / MINUTE_MS;
    const to = (Math.min(day.start + DAY_MS, input.toMs) - day.start) / MINUTE_MS;
    for (const list of day.candles) {
      if (!list) continue;
      for (let m = from; m < to; m++) if (!Number.isNaN(list[m * CANDLE_FIELDS])) candleCount += 1;
    }
  }

  let next = 0;
  let minute = input.fromMs;
  while (minute < input.toMs) {
    // Nothing open: nothing moves until the next signal's minute.
    if (replay.openCount === 0) {
      const signal = signals[next];
      if (!signal) break;
      minute = Math.max(minute, signal.t - MINUTE_MS);
    }
    const dayStart = Math.floor(minute / DAY_MS) * DAY_MS;
    const day = dayAt.get(dayStart);
    const slot = ((minute - dayStart) / MINUTE_MS) * CANDLE_FIELDS;
    for (const pair of [...replay.heldSymbols()]) {
      const index = indexOf.get(pair) as number;
      const list = day?.candles[index];
      const high = list?.[slot];
      if (!list || high === undefined || Number.isNaN(high)) continue;
      const scale = day!.scales[index] as number;
      replay.onCandle(pair, {
        high: scaledText(high, scale),
        low: scaledText(list[slot + 1] as number, scale),
        close: scaledText(list[slot + 2] as number, scale),
        closeTime: minute + MINUTE_MS - 1,
      });
    }
    const end = minute + MINUTE_MS;
    while (next < signals.length && (signals[next] as WhatIfSignal).t <= end) {
      const first = signals[next] as WhatIfSignal;
      const step: ReplaySignal[] = [];
      while (next < signals.length && signals[next]!.t === first.t && signals[next]!.s === first.s) {
        const signal = signals[next] as WhatIfSignal;
        step.push({
          signalUuid: signal.u,
          neuronUuid: signal.n,
          symbol: symbols[signal.s]!.pair,
          direction: signal.d,
          priceEnter: signal.p,
          accuracy: signal.a,
        });
        next += 1;
      }
      replay.onStep(first.t, { symbol: symbols[first.s]!.pair, signals: step });
    }
    minute = end;
  }
  return { replay, data: { candles: candleCount, signals: signals.length } };
}

function tallyOf(trades: readonly ReplayedTrade[]): WhatIfTally {
  const closed = trades.filter((trade) => trade.closedAt !== undefined);
  const nets = closed.map((trade) => trade.row.trade_pnl_net as string);
  const won = nets.filter((net) => compareDecimals(net, 0) > 0).length;
  const lost = nets.filter((net) => compareDecimals(net, 0) < 0).length;
  return {
    trades: trades.length,
    won,
    lost,
    win_rate: closed.length ? percent(won, closed.length) : null,
    pnl_net: sumDecimals(nets),
  };
}

function groupBy(trades: readonly ReplayedTrade[], key: (trade: ReplayedTrade) => string) {
  const groups = new Map<string, ReplayedTrade[]>();
  for (const trade of trades) {
    const name = key(trade);
    const list = groups.get(name);
    if (list) list.push(trade);
    else groups.set(name, [trade]);
  }
  return groups;
}

function summarise(
  input: WhatIfInput,
  replay: TradeReplay,
  data: { candles: number; signals: number },
): WhatIfResult {
  const { settings } = input;
  const closed = replay.closed;
  const count = (status: string) => closed.filter((trade) => trade.row.trade_status === status).length;
  // The net realized PNL after each close, its highest point so far and the deepest fall from it.
  let equity = '0';
  let peak = '0';
  let drawdown = '0';
  let run = 0;
  let longestRun = 0;
  const curve: { time: number; pnl_net: string }[] = [];
  for (const trade of closed) {
    const net = trade.row.trade_pnl_net as string;
    equity = addDecimals(equity, net);
    if (compareDecimals(equity, peak) > 0) peak = equity;
    const fall = subDecimals(peak, equity);
    if (compareDecimals(fall, drawdown) > 0) drawdown = fall;
    run = compareDecimals(net, 0) < 0 ? run + 1 : 0;
    longestRun = Math.max(longestRun, run);
    curve.push({ time: trade.closedAt as number, pnl_net: equity });
  }
  const stride = Math.max(1, Math.ceil(curve.length / WHAT_IF_CURVE_POINTS));
  const equityCurve = curve.filter((_, index) => index % stride === 0 || index === curve.length - 1);
  const margins = sumDecimals(closed.map((trade) => trade.terms.margin));
  const total = tallyOf(replay.trades);
  const symbolOf = new Map(input.symbols.map((symbol) => [symbol.pair, symbol]));
  const prefs = settings.preferences;
  return {
    start_date: new Date(input.fromMs).toISOString(),
    end_date: new Date(input.toMs).toISOString(),
    settings: {
      ...prefs,
      minimal_accuracy: settings.minimalAccuracy,
      trade_exits_on_exchange: settings.exitsOnExchange ? 1 : 0,
      trade_max_open_trades: settings.maxOpenTrades,
      trade_daily_loss_limit: settings.dailyLossLimit,
      taker_rate: settings.takerRate,
    },
    total: {
      ...total,
      open: replay.trades.length - closed.length,
      closed: closed.length,
      by_status: {
        take_profit: count('take_profit'),
        stop_loss: count('stop_loss'),
        treiling_stop: count('treiling_stop'),
        reverse_signal: count('reverse_signal'),
      },
      pnl_gross: sumDecimals(closed.map((trade) => trade.row.trade_pnl_current as string)),
      fees: sumDecimals(
        closed.flatMap((trade) => [
          trade.row.trade_open_commission,
          trade.row.trade_close_commission as string,
        ]),
      ),
      roe_net: closed.length ? percent(total.pnl_net, margins) : null,
      max_drawdown: drawdown,
      longest_losing_run: longestRun,
      trades_per_day: roundDecimal(
        divDecimals(replay.trades.length, divDecimals(input.toMs - input.fromMs, DAY_MS, 12), 12),
        2,
      ),
    },
    skipped: { ...replay.skips },
    by_neuron: [...groupBy(replay.trades, (trade) => trade.neuronUuid)].map(([uuid, list]) => ({
      neuron_uuid: uuid,
      neuron_tag_name: input.neurons[uuid] ?? uuid,
      ...tallyOf(list),
    })),
    by_symbol: [...groupBy(replay.trades, (trade) => trade.pair)].map(([pair, list]) => ({
      symbol_uuid: symbolOf.get(pair)!.symbol_uuid,
      symbol_name: symbolOf.get(pair)!.symbol_name,
      ...tallyOf(list),
    })),
    equity: equityCurve,
    data,
  };
}
