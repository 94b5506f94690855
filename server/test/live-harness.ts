// Test support for the live market and signals: a real paper exchange whose market clock the test moves
// (one simulated minute per step, prices pinned through the exchange's admin), the whole app on an in-memory
// database with the live work a process runs (buildApp's instance: the price relay, the signals and the lead,
// as server.ts starts it), and the market feed, listening on loopback. Not used at run time.
import { buildPaperExchange } from '../../paper-exchange/src/index';
import { D } from '../../paper-exchange/src/num';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db';
import { initTradeCore } from '../../shared-core/trade-core-node';
import { MINUTE_MS } from '../src/engine/candles';
import { MarketFeed, type CandleEvent } from '../src/engine/market-feed';
import { SoleLeadership } from '../src/services/leadership';
import { loadMasterKey, SecretBox } from '../src/services/secret-box';

const silent = { info: () => undefined, warn: () => undefined };

export async function startLiveHarness(options: { symbols: string[]; seed?: number }) {
  await initTradeCore();
  // A whole second past a minute boundary, so each step of 60 s closes exactly one minute.
  let now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - 10 * MINUTE_MS + 1000;
  const exchange = await buildPaperExchange({
    seed: options.seed ?? 5,
    historyDays: 1,
    tickMs: 10,
    clock: () => now,
  });
  await exchange.app.listen({ port: 0, host: '127.0.0.1' });
  const address = exchange.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  exchange.startClock();

  const database = await openDatabase({});
  const feed = new MarketFeed(url, `ws://127.0.0.1:${port}`, options.symbols, silent, { warmupCandles: 0 });
  const secretBox = new SecretBox(loadMasterKey({}));
  const { app, hub, instance } = await buildApp({
    feed,
    db: database.db,
    secretBox,
    exchangeUrl: url,
    paperExchangeUrl: url,
    // No house account (paper: undefined): the tests trade as traders.
    instance: { leadership: new SoleLeadership(), box: secretBox, paper: undefined, log: silent },
  });
  const core = instance!;
  await feed.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appAddress = app.server.address();
  const appPort = typeof appAddress === 'object' && appAddress ? appAddress.port : 0;

  const nextLiveCandle = (symbol: string) =>
    new Promise<CandleEvent>((resolve) => {
      const listener = (event: CandleEvent) => {
        if (!event.live || event.symbol !== symbol) return;
        feed.off('candle', listener);
        resolve(event);
      };
      feed.on('candle', listener);
    });

  return {
    app,
    hub,
    feed,
    core,
    db: database.db,
    exchange,
    wsBase: `ws://127.0.0.1:${appPort}/api/ws_core`,
    now: () => now,
    /** The exchange's admin price pin (null releases it). */
    setPrice: (symbol: string, price: string | null) => {
      exchange.exchange.setPrice(symbol, price === null ? undefined : new D(price));
    },
    /** Moves the market clock by ms (the exchange's next tick publishes what happened). */
    advance: (ms: number) => {
      now += ms;
    },
    /** One simulated minute: the closed candle of `symbol` has reached the engine and been stored. */
    async minute(symbol: string) {
      const candle = nextLiveCandle(symbol);
      now += MINUTE_MS;
      const event = await candle;
      await core.idle();
      return event;
    },
    async close() {
      await core.stop();
      await feed.close();
      await app.close();
      await exchange.close();
      await database.close();
    },
  };
}

export type LiveHarness = Awaited<ReturnType<typeof startLiveHarness>>;
