// Market feed: one combined stream (binance-fapi.md §10) with the mark price (1 s) and the 1-minute klines of
// every followed symbol. It keeps the latest mark per symbol and the closed candles (market-analytics.ts,
// which computes trend_moment), seeds the candles from REST klines at start, fills a gap left by a lost
// connection from REST before the next closed candle, and reconnects with capped exponential backoff. It also
// keeps the minute still forming (the stream's unclosed klines) for the trading chart's first read.
// Events: 'tick' for each mark price, 'candle' for each closed candle (live = false for REST candles).
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { candleFromKlineRow, candleFromStreamKline, MINUTE_MS, type Candle } from './candles';
import { fetchExchangeSymbols } from '../services/symbols';
import { CANDLE_WINDOW, MarketAnalytics } from './market-analytics';
import { budgetedFetch } from '../services/exchange-transport';

/** The symbol the feed always follows: bitcoin's price and trend are public (SPEC.md §3). */
export const BITCOIN_SYMBOL = 'BTCUSDT';

export interface MarkPriceTick {
  symbol: string;
  /** Mark price as the exchange sent it (decimal string). */
  price: string;
  /** Exchange event time, ms. */
  time: number;
}

export interface CandleEvent {
  symbol: string;
  candle: Candle;
  /** false for candles from REST (start-up seeding, gap filling): they are history, not news. */
  live: boolean;
}

interface FeedEvents {
  tick: [MarkPriceTick];
  candle: [CandleEvent];
}

export interface MarketFeedOptions {
  /** Closed candles loaded per symbol at start (REST allows 1500 a request). Default CANDLE_WINDOW. */
  warmupCandles?: number;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;
const REST_TIMEOUT_MS = 10_000;
const KLINES_LIMIT_MAX = 1500;

type Log = { warn(obj: object, msg: string): void };

/** A real exchange lists hundreds of perpetuals; the feed follows the first ones (the paper exchange has 8). */
const MAX_FEED_SYMBOLS = 16;

/** The exchange's tradable USDT perpetuals (bitcoin first), or bitcoin alone while exchangeInfo fails. */
export async function followedSymbols(exchangeUrl: string, log: Log): Promise<string[]> {
  try {
    const pairs = (await fetchExchangeSymbols(exchangeUrl)).map((item) => item.symbol_pair);
    return [BITCOIN_SYMBOL, ...pairs.filter((pair) => pair !== BITCOIN_SYMBOL)].slice(0, MAX_FEED_SYMBOLS);
  } catch (error) {
    log.warn({ err: error }, 'market feed: exchangeInfo unavailable, following bitcoin only');
    return [BITCOIN_SYMBOL];
  }
}

export class MarketFeed extends EventEmitter<FeedEvents> {
  readonly analytics = new MarketAnalytics();
  private readonly latest = new Map<string, MarkPriceTick>();
  /** Per symbol, the latest unclosed kline of the stream (the minute still forming). */
  private readonly formingCandles = new Map<string, Candle>();
  /** Per symbol, the chain that orders gap filling before the candle that revealed the gap. */
  private readonly chains = new Map<string, Promise<void>>();
  private socket: WebSocket | undefined;
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly warmupCandles: number;

  constructor(
    readonly restUrl: string,
    private readonly wsUrl: string,
    readonly symbols: readonly string[],
    private readonly log: Log = console,
    options: MarketFeedOptions = {},
  ) {
    super();
    this.warmupCandles = Math.min(options.warmupCandles ?? CANDLE_WINDOW, KLINES_LIMIT_MAX - 1);
  }

  /** Loads the current marks and the candle window from REST, then opens the stream. */
  async start(): Promise<void> {
    await this.loadInitialPrices();
    if (this.warmupCandles > 0) {
      for (const symbol of this.symbols) {
        try {
          for (const candle of await this.klines(symbol, { limit: this.warmupCandles + 1 })) {
            this.addCandle(symbol, candle, false);
          }
        } catch (error) {
          this.log.warn({ err: error }, `market feed: klines of ${symbol} unavailable`);
        }
      }
    }
    this.connect();
  }

  price(symbol: string): MarkPriceTick | undefined {
    return this.latest.get(symbol);
  }

  /** The minute still forming as the stream last reported it, once it is newer than the last closed one. */
  forming(symbol: string): Candle | undefined {
    const candle = this.formingCandles.get(symbol);
    const lastClosed = this.analytics.lastOpenTime(symbol);
    return candle && (lastClosed === undefined || candle.openTime > lastClosed) ? candle : undefined;
  }

  /** Closed candles with fromTime <= openTime < toTime: from memory when it reaches back, else from REST. */
  async candlesBetween(symbol: string, fromTime: number, toTime: number): Promise<Candle[]> {
    const kept = this.analytics.between(symbol, fromTime, toTime);
    if (kept) return kept;
    const limit = Math.min(KLINES_LIMIT_MAX, Math.max(1, Math.ceil((toTime - fromTime) / MINUTE_MS)));
    return this.klines(symbol, { limit, startTime: fromTime, endTime: toTime - 1 });
  }

  /**
   * Klines of `interval` (the exchange's name, such as '5m', and its length in ms) opening within
   * [fromTime, toTime], oldest first, from REST in pages of at most 1500 rows, each page one time window (so
   * the paging does not rely on how an exchange fills a page). The last one may still be open.
   */
  async klinesBetween(
    symbol: string,
    interval: { name: string; ms: number },
    fromTime: number,
    toTime: number,
  ): Promise<Candle[]> {
    const rows: Candle[] = [];
    const first = Math.ceil(fromTime / interval.ms) * interval.ms;
    for (let start = first; start <= toTime; start += KLINES_LIMIT_MAX * interval.ms) {
      const end = Math.min(toTime, start + KLINES_LIMIT_MAX * interval.ms - 1);
      const page = await this.klines(
        symbol,
        { limit: KLINES_LIMIT_MAX, startTime: start, endTime: end },
        interval.name,
      );
      rows.push(...page.filter((candle) => candle.openTime >= start && candle.openTime <= end));
    }
    return rows;
  }

  /** Resolves when every pending gap fill has finished (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all(this.chains.values());
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.terminate();
  }

  /**
   * Closed klines from REST, oldest first (1-minute unless `interval` says otherwise). Without endTime the
   * exchange's last row is the one still open, which is dropped.
   */
  private async klines(
    symbol: string,
    range: { limit: number; startTime?: number; endTime?: number },
    interval = '1m',
  ) {
    const query = new URLSearchParams({ symbol, interval, limit: String(range.limit) });
    if (range.startTime !== undefined) query.set('startTime', String(range.startTime));
    if (range.endTime !== undefined) query.set('endTime', String(range.endTime));
    const response = await budgetedFetch(`${this.restUrl}/fapi/v1/klines?${query}`, {
      signal: AbortSignal.timeout(REST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`klines answered ${response.status}`);
    const rows = (await response.json()) as unknown[];
    const candles = rows.map(candleFromKlineRow);
    return range.endTime === undefined ? candles.slice(0, -1) : candles;
  }

  private async loadInitialPrices(): Promise<void> {
    try {
      const response = await budgetedFetch(`${this.restUrl}/fapi/v1/premiumIndex`, {
        signal: AbortSignal.timeout(REST_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`premiumIndex answered ${response.status}`);
      const items = (await response.json()) as { symbol: string; markPrice: string; time: number }[];
      for (const item of items) {
        if (this.symbols.includes(item.symbol)) {
          this.recordTick({ symbol: item.symbol, price: item.markPrice, time: item.time });
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, 'market feed: initial prices unavailable, waiting for the stream');
    }
  }

  private connect(): void {
    if (this.closed || this.symbols.length === 0) return;
    const streams = this.symbols
      .flatMap((s) => [`${s.toLowerCase()}@markPrice@1s`, `${s.toLowerCase()}@kline_1m`])
      .join('/');
    const socket = new WebSocket(`${this.wsUrl}/market/stream?streams=${streams}`);
    this.socket = socket;
    socket.on('open', () => {
      this.reconnectDelayMs = RECONNECT_MIN_MS;
    });
    socket.on('message', (data) => this.onFrame(data.toString()));
    socket.on('error', (error) => this.log.warn({ err: error }, 'market feed: socket error'));
    socket.on('close', () => {
      if (this.closed) return;
      this.reconnectTimer = setTimeout(() => this.connect(), this.reconnectDelayMs);
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
    });
  }

  private onFrame(text: string): void {
    let frame: { data?: { e?: string; s?: string; p?: string; E?: number; k?: Record<string, unknown> } };
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const data = frame.data;
    if (!data?.s || !this.symbols.includes(data.s)) return;
    if (data.e === 'markPriceUpdate' && data.p) {
      this.recordTick({ symbol: data.s, price: data.p, time: data.E ?? Date.now() });
    } else if (data.e === 'kline' && data.k) {
      let candle: Candle;
      try {
        candle = candleFromStreamKline(data.k);
      } catch (error) {
        this.log.warn({ err: error }, 'market feed: malformed kline');
        return;
      }
      if (data.k.x === true) this.enqueue(data.s, () => this.onClosedCandle(data.s as string, candle));
      else this.formingCandles.set(data.s, candle);
    }
  }

  private enqueue(symbol: string, task: () => Promise<void>): void {
    const next = (this.chains.get(symbol) ?? Promise.resolve()).then(task).catch((error: unknown) => {
      this.log.warn({ err: error }, `market feed: candle of ${symbol} failed`);
    });
    this.chains.set(symbol, next);
  }

  private async onClosedCandle(symbol: string, candle: Candle): Promise<void> {
    const last = this.analytics.lastOpenTime(symbol);
    if (last !== undefined && candle.openTime > last + MINUTE_MS) {
      try {
        const gap = await this.klines(symbol, {
          limit: Math.min(KLINES_LIMIT_MAX, (candle.openTime - last) / MINUTE_MS),
          startTime: last + MINUTE_MS,
          endTime: candle.openTime - 1,
        });
        for (const missed of gap) this.addCandle(symbol, missed, false);
      } catch (error) {
        this.log.warn({ err: error }, `market feed: could not fill the gap of ${symbol}`);
      }
    }
    this.addCandle(symbol, candle, true);
  }

  private addCandle(symbol: string, candle: Candle, live: boolean): void {
    if (this.analytics.push(symbol, candle)) this.emit('candle', { symbol, candle, live });
  }

  private recordTick(tick: MarkPriceTick): void {
    this.latest.set(tick.symbol, tick);
    this.emit('tick', tick);
  }
}
