// Market feed: follows the exchange's mark-price stream for the given symbols (combined stream,
// binance-fapi.md §10) and keeps the latest mark per symbol plus a short per-second history.
// Reconnects with capped exponential backoff; starts from the REST premiumIndex so a price is known
// before the first stream frame.
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';

export interface MarkPriceTick {
  symbol: string;
  /** Mark price as the exchange sent it (decimal string). */
  price: string;
  /** Exchange event time, ms. */
  time: number;
}

interface FeedEvents {
  tick: [MarkPriceTick];
}

const HISTORY_LENGTH = 600; // seconds of per-tick history kept per symbol
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;

export class MarketFeed extends EventEmitter<FeedEvents> {
  private readonly latest = new Map<string, MarkPriceTick>();
  private readonly history = new Map<string, MarkPriceTick[]>();
  private socket: WebSocket | undefined;
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly restUrl: string,
    private readonly wsUrl: string,
    private readonly symbols: string[],
    private readonly log: { warn(obj: object, msg: string): void } = console,
  ) {
    super();
  }

  async start(): Promise<void> {
    await this.loadInitialPrices();
    this.connect();
  }

  price(symbol: string): MarkPriceTick | undefined {
    return this.latest.get(symbol);
  }

  /** Ticks of the last HISTORY_LENGTH updates, oldest first. */
  recent(symbol: string): readonly MarkPriceTick[] {
    return this.history.get(symbol) ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.terminate();
  }

  private async loadInitialPrices(): Promise<void> {
    try {
      const response = await fetch(`${this.restUrl}/fapi/v1/premiumIndex`, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`premiumIndex answered ${response.status}`);
      const items = (await response.json()) as { symbol: string; markPrice: string; time: number }[];
      for (const item of items) {
        if (this.symbols.includes(item.symbol)) {
          this.record({ symbol: item.symbol, price: item.markPrice, time: item.time });
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, 'market feed: initial prices unavailable, waiting for the stream');
    }
  }

  private connect(): void {
    if (this.closed) return;
    const streams = this.symbols.map((s) => `${s.toLowerCase()}@markPrice@1s`).join('/');
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
    let frame: { data?: { e?: string; s?: string; p?: string; E?: number } };
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const data = frame.data;
    if (data?.e !== 'markPriceUpdate' || !data.s || !data.p) return;
    this.record({ symbol: data.s, price: data.p, time: data.E ?? Date.now() });
  }

  private record(tick: MarkPriceTick): void {
    this.latest.set(tick.symbol, tick);
    const list = this.history.get(tick.symbol) ?? [];
    list.push(tick);
    if (list.length > HISTORY_LENGTH) list.splice(0, list.length - HISTORY_LENGTH);
    this.history.set(tick.symbol, list);
    this.emit('tick', tick);
  }
}
