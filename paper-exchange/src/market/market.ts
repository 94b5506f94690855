// The live market: continues the seeded price model second by second from where its history ends, keeps
// the 1-minute candles, and answers the mark price of every symbol. Prices can be pinned for tests (the admin
// price endpoint); when a pin is released the model continues multiplicatively from the pinned level.
import { D, type Dec } from '../num.js';
import {
  MINUTE_MS,
  candleFromPath,
  roundPrice,
  roundQty,
  roundingFor,
  type Candle1m,
  type Rounding,
} from './history.js';
import { lowerBound } from './klines.js';
import { PriceModel, type MinutePath } from './price-model.js';
import { SYMBOLS, type SymbolSpec, type SymbolStatus } from './symbols.js';

/** Half of the bid/ask spread around the mark, as a fraction of the price (0.5 bp), at least one tick. */
export const HALF_SPREAD_RATE = '0.00005';
/** Candles older than this are dropped from memory (klines then start later). */
const MAX_CANDLES = 90 * 1440;

export interface MarketDurable {
  originTime: number;
  /** First start of the exchange: generateHistory({ seed, days, endTime: historyEndTime }) is its history. */
  historyEndTime: number;
  factors: Record<string, number>;
  pins: Record<string, string>;
  statuses: Record<string, SymbolStatus>;
}

export interface SyntheticTrade {
  id: number;
  price: string;
  qty: string;
  buyerMaker: boolean;
  time: number;
}

export interface SymbolTick {
  symbol: string;
  time: number;
  mark: Dec;
  candle: Candle1m;
  closed: Candle1m[];
  trade: SyntheticTrade | undefined;
}

interface SymbolMarket {
  spec: SymbolSpec;
  rounding: Rounding;
  candles: Candle1m[];
  current: Candle1m;
  path: MinutePath;
  factor: number;
  pin: Dec | undefined;
  mark: Dec;
  status: SymbolStatus;
}

export class Market {
  readonly seed: number;
  readonly originTime: number;
  readonly historyEndTime: number;
  private readonly model: PriceModel;
  private readonly symbols = new Map<string, SymbolMarket>();
  /** Seconds elapsed in the current minute (0..60) that are already reflected in the marks. */
  private second = 0;
  private minuteStart: number;
  private tradeId = 1;

  constructor(seed: number, durable: MarketDurable, now: number) {
    this.seed = seed;
    this.originTime = durable.originTime;
    this.historyEndTime = durable.historyEndTime;
    this.model = new PriceModel(seed, SYMBOLS, durable.originTime / MINUTE_MS);
    const nowMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const candles = SYMBOLS.map(() => [] as Candle1m[]);
    const roundings = SYMBOLS.map(roundingFor);
    const firstKept = nowMinute - MAX_CANDLES * MINUTE_MS;
    // Whole minutes between the origin and now: the same fast path as generateHistory.
    for (let t = durable.originTime; t < nowMinute; t += MINUTE_MS) {
      const paths = this.model.step();
      if (t < firstKept) continue;
      paths.forEach((path, i) => {
        const factor = durable.factors[SYMBOLS[i]?.symbol ?? ''] ?? 1;
        (candles[i] as Candle1m[]).push(candleFromPath(scalePath(path, factor), t, roundings[i] as Rounding));
      });
    }
    this.minuteStart = Math.max(nowMinute, durable.originTime);
    const paths = this.model.step(true);
    SYMBOLS.forEach((spec, i) => {
      const rounding = roundings[i] as Rounding;
      const factor = durable.factors[spec.symbol] ?? 1;
      const path = scalePath(paths[i] as MinutePath, factor);
      const pinText = durable.pins[spec.symbol];
      const pin = pinText === undefined ? undefined : new D(pinText);
      const open = roundPrice(path.open, rounding);
      this.symbols.set(spec.symbol, {
        spec,
        rounding,
        candles: candles[i] as Candle1m[],
        current: openCandle(this.minuteStart, pin ? pin.toNumber() : open),
        path,
        factor,
        pin,
        mark: pin ?? new D(open),
        status: durable.statuses[spec.symbol] ?? 'TRADING',
      });
    });
    this.second = 0;
    this.advanceTo(now);
  }

  get(symbol: string): SymbolMarket {
    const market = this.symbols.get(symbol);
    if (!market) throw new Error(`unknown symbol ${symbol}`);
    return market;
  }

  mark(symbol: string): Dec {
    return this.get(symbol).mark;
  }

  status(symbol: string): SymbolStatus {
    return this.get(symbol).status;
  }

  setStatus(symbol: string, status: SymbolStatus): void {
    this.get(symbol).status = status;
  }

  /** 1-minute candles (closed ones, then the one in progress) whose openTime is within [from, to]. */
  candlesBetween(symbol: string, from: number, to = Number.MAX_SAFE_INTEGER): Candle1m[] {
    const market = this.get(symbol);
    const rows = market.candles.slice(lowerBound(market.candles, from), lowerBound(market.candles, to + 1));
    if (market.current.openTime >= from && market.current.openTime <= to) rows.push({ ...market.current });
    return rows;
  }

  /** Half-spread in price units for the current mark: 0.5 bp rounded up to whole ticks, at least one tick. */
  halfSpread(symbol: string): Dec {
    const market = this.get(symbol);
    const tick = new D(market.spec.tickSize);
    const raw = market.mark.times(HALF_SPREAD_RATE).div(tick).ceil();
    return D.max(raw, 1).times(tick);
  }

  /** Pins the mark (price given) or releases the pin (undefined) so the model resumes from the pinned level. */
  setPin(symbol: string, price: Dec | undefined): void {
    const market = this.get(symbol);
    if (price === undefined) {
      if (market.pin) {
        const modelNow = this.modelPrice(market) / market.factor;
        market.factor = market.pin.toNumber() / modelNow;
        market.path = scalePath(this.unscaledPath(market), market.factor);
      }
      market.pin = undefined;
      return;
    }
    market.pin = price;
    market.mark = price;
    this.touchCandle(market, price.toNumber());
  }

  durable(): MarketDurable {
    const factors: Record<string, number> = {};
    const pins: Record<string, string> = {};
    const statuses: Record<string, SymbolStatus> = {};
    for (const [symbol, market] of this.symbols) {
      if (market.factor !== 1) factors[symbol] = market.factor;
      if (market.pin) pins[symbol] = market.pin.toString();
      if (market.status !== 'TRADING') statuses[symbol] = market.status;
    }
    return { originTime: this.originTime, historyEndTime: this.historyEndTime, factors, pins, statuses };
  }

  /** Moves the market clock to `now`, second by second; returns what changed per symbol. */
  advanceTo(now: number): SymbolTick[] {
    const closed = new Map<string, Candle1m[]>();
    let moved = false;
    for (;;) {
      const target = Math.floor((now - this.minuteStart) / 1000);
      if (target <= this.second && target < 60) break;
      moved = true;
      if (target >= 60) {
        this.second = 60;
        this.applySecond();
        this.closeMinute(closed);
        continue;
      }
      this.second = target;
      this.applySecond();
    }
    if (!moved) return [];
    return SYMBOLS.map((spec) => {
      const market = this.get(spec.symbol);
      return {
        symbol: spec.symbol,
        time: now,
        mark: market.mark,
        candle: { ...market.current },
        closed: closed.get(spec.symbol) ?? [],
        trade: this.syntheticTrade(market, now),
      };
    });
  }

  private applySecond(): void {
    for (const market of this.symbols.values()) {
      if (market.pin) continue;
      const price = roundPrice(this.modelPrice(market), market.rounding);
      market.mark = new D(price);
      this.touchCandle(market, price);
    }
  }

  private touchCandle(market: SymbolMarket, price: number): void {
    const candle = market.current;
    candle.high = Math.max(candle.high, price);
    candle.low = Math.min(candle.low, price);
    candle.close = price;
    const finished = candleFromPath(market.path, candle.openTime, market.rounding);
    const share = this.second / 60;
    candle.volume = roundQty(finished.volume * share, market.rounding);
    candle.quoteVolume = Math.round(finished.quoteVolume * share * 1e4) / 1e4;
    candle.trades = Math.round(finished.trades * share);
    candle.takerBuyVolume = roundQty(finished.takerBuyVolume * share, market.rounding);
    candle.takerBuyQuoteVolume = Math.round(finished.takerBuyQuoteVolume * share * 1e4) / 1e4;
  }

  private closeMinute(closed: Map<string, Candle1m[]>): void {
    const paths = this.model.step(true);
    this.minuteStart += MINUTE_MS;
    this.second = 0;
    SYMBOLS.forEach((spec, i) => {
      const market = this.get(spec.symbol);
      market.candles.push(market.current);
      if (market.candles.length > MAX_CANDLES) market.candles.splice(0, market.candles.length - MAX_CANDLES);
      const list = closed.get(spec.symbol) ?? [];
      list.push(market.current);
      closed.set(spec.symbol, list);
      market.path = scalePath(paths[i] as MinutePath, market.factor);
      market.current = openCandle(this.minuteStart, market.mark.toNumber());
    });
  }

  /** Model price (already scaled) after `second` seconds of the current minute. */
  private modelPrice(market: SymbolMarket): number {
    if (this.second === 0 || !market.path.seconds) return market.path.open;
    return market.path.seconds[this.second - 1] ?? market.path.close;
  }

  private unscaledPath(market: SymbolMarket): MinutePath {
    return scalePath(market.path, 1 / market.factor);
  }

  private syntheticTrade(market: SymbolMarket, time: number): SyntheticTrade {
    const half = this.halfSpread(market.spec.symbol);
    const buyerMaker = (this.tradeId + Math.floor(time / 1000)) % 2 === 0;
    const price = buyerMaker ? market.mark.minus(half) : market.mark.plus(half);
    const perSecond = roundQty(market.path.volume / 60, market.rounding);
    const qty = Math.max(perSecond, 1 / market.rounding.stepsPerUnit);
    return {
      id: this.tradeId++,
      price: price.toFixed(market.spec.pricePrecision),
      qty: new D(qty).toFixed(market.spec.quantityPrecision),
      buyerMaker,
      time,
    };
  }

  nextTradeId(): number {
    return this.tradeId++;
  }
}

function openCandle(openTime: number, price: number): Candle1m {
  return {
    openTime,
    closeTime: openTime + MINUTE_MS - 1,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: 0,
    quoteVolume: 0,
    trades: 0,
    takerBuyVolume: 0,
    takerBuyQuoteVolume: 0,
  };
}

function scalePath(path: MinutePath, factor: number): MinutePath {
  if (factor === 1) return path;
  return {
    ...path,
    seconds: path.seconds?.map((p) => p * factor),
    open: path.open * factor,
    close: path.close * factor,
    high: path.high * factor,
    low: path.low * factor,
  };
}
