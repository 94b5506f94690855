// Walk-away trading (issue 37): the trader opens trades and leaves; no page is open and no PIN is given after the
// open. The exchange fills the take profit, the trailing stop or the stop; how long until Signaldesk has the
// trade recorded closed, with the exchange's status and fill?
//
// A real server process (`tsx server/src/server.ts`, fresh DATA_DIR, its embedded paper exchange and backfill).
// Per mode, a trader made through the API with a funded paper account of its own:
// - server mode: the token kept by the server under the PIN; each trade opened by POST /trade_server/create_trade/;
// - client mode: the keys stay with the trader (never sent to the server); each trade is opened as the page
//   opens it — shared-core's openPosition with the exits, signed with the secret on this side and sent through
//   our relay (the relay binds the key on the exchange's 2xx) — then recorded with POST /trade_client/create_trade/;
//   "Follow my account while I'm away" is on (the default) and the API key is handed over for it, as the page
//   does (POST /trade_token/follow_account/).
// Then, ROUNDS times per mode, on a stored signal's symbol (one trade at a time, BTCUSDT left out): the price is
// pinned through the trade's take profit, its trailing stop (past the activation, then back by more than the
// callback) or its stop, in turn. Measured from the exchange's fill (the closing fill's time in the exchange's
// own userTrades) to the moment the trade's close reaches a listening websocket of the trader (the push that
// follows the record). A close not recorded within MISS_AFTER_MS, or recorded with another status or price, is
// missed. Both clocks are this machine's.
// Web Push (issue 41): each trader has a device subscribed at a push service this bench runs (server/test/
// push-endpoint.ts, allowed by PUSH_ENDPOINT_ORIGINS); from the same fill to the moment the encrypted close
// (decrypted here with the device's keys: trade_closed, this trade, its exit) reaches that push service. A push
// not there within MISS_AFTER_MS of a recorded close is missed.
//   npx tsx bench/trading/walk-away.ts [rounds=12] [--mode client|server|both]
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import type { ServerEvent, Signal, Trade, WaitingOrders } from '../../contracts';
import { ExchangeClient } from '../../shared-core/exchange-client';
import {
  addDecimals,
  initTradeCore,
  mulDecimals,
  roundDecimal,
  stopPrice,
} from '../../shared-core/trade-core-node';
import { openPosition } from '../../shared-core/trade-flow';
import { cancelExitQuietly, cancelQuietly } from '../../shared-core/trade-flow-common';
import {
  api,
  loadAverage,
  median,
  ms,
  percentile,
  prepareSpa,
  signUpApi,
  startServerProcess,
  type ApiUser,
  type ServerProcess,
} from '../spa/harness';
import { startPushEndpoint, type PushEndpoint } from '../../server/test/push-endpoint';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const MODE_ARG = flag('--mode') ?? 'both';
const MODES = (MODE_ARG === 'both' ? ['server', 'client'] : [MODE_ARG]) as Mode[];
const ROUNDS = Number(args.find((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--mode') ?? 12);
const PIN = '24680';
const SETTINGS = {
  trade_margin: 20,
  trade_leverage: 10,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 5,
  trade_treiling_stop_percent: 3,
};
const MISS_AFTER_MS = 10_000;
const EXITS = ['take_profit', 'treiling_stop', 'stop_loss'] as const;
type Exit = (typeof EXITS)[number];
type Mode = 'server' | 'client';
const PAPER_PLATFORM_UUID = '489c420e-f95d-473e-82a0-53e86496aa5b';

interface Account {
  api_key: string;
  api_secret: string;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The trader's websocket: when each trade's close arrived. */
async function listen(server: ServerProcess, user: ApiUser) {
  const { token } = await api<{ token: string }>(
    server.baseUrl,
    'GET',
    'auth/create_websocket_token/',
    user.authorization,
  );
  const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/api/ws_core/${token}`);
  const closes = new Map<string, { at: number; status: string; price: string | null }>();
  socket.on('message', (data) => {
    const event = JSON.parse(data.toString()) as ServerEvent;
    if (event.event !== 'trade_updated_response_from_core') return;
    const { trade_uuid, trade_update_calculated: calc } = event.message;
    if (calc.trade_status !== 'open' && !closes.has(trade_uuid)) {
      closes.set(trade_uuid, { at: Date.now(), status: calc.trade_status, price: calc.trade_current_price });
    }
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { closes, close: () => socket.terminate() };
}

async function runMode(mode: Mode, server: ServerProcess, signals: Signal[], push: PushEndpoint) {
  const admin = { 'content-type': 'application/json', 'x-admin-token': server.paperAdminToken };
  const setPrice = async (symbol: string, price: string | null) => {
    const answer = await fetch(`${server.paperUrl}/admin/price`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ symbol, price }),
    });
    if (!answer.ok) throw new Error(`admin/price: ${answer.status} ${await answer.text()}`);
  };
  const created = await fetch(`${server.paperUrl}/admin/accounts`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ balance: '10000' }),
  });
  const account = (await created.json()) as Account;
  const user = await signUpApi(server.baseUrl, `away-${mode}`);
  const call = <T>(method: 'GET' | 'POST', path: string, body?: object) =>
    api<T>(server.baseUrl, method, path, user.authorization, body);
  await call('POST', 'trade_preferences/set_preferences/', {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side: mode === 'server' ? 1 : 0,
    trade_exits_on_exchange: 1,
    // Issue 54: in server mode the server may cancel what a close left, with no PIN.
    trade_server_acts_when_away: mode === 'server' ? 1 : 0,
  });
  // The page's own exchange client in client mode: signed here, sent through our relay.
  const client = new ExchangeClient({
    baseUrl: `${server.baseUrl}/api/exchange_relay/${PAPER_PLATFORM_UUID}`,
    credentials: account,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', user.authorization);
      return fetch(input, { ...init, headers });
    },
  });
  if (mode === 'server') {
    await call('POST', 'trade_token/create_trade_token/', {
      ...account,
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
  } else {
    // The page checks the key (through the relay, which binds it on the 2xx), then hands the API key over.
    await client.getAccount();
    await call('POST', 'trade_token/follow_account/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      api_key: account.api_key,
    });
  }
  const socket = await listen(server, user);
  const device = push.device();
  await call('POST', 'push/subscribe/', { endpoint: device.endpoint, keys: device.keys, language: 'en' });
  const pushLatencies: number[] = [];
  const pushesMissed: string[] = [];
  const signed = async <T>(path: string, params: Record<string, string>): Promise<T> => {
    const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) });
    const signature = createHmac('sha256', account.api_secret).update(query.toString()).digest('hex');
    const answer = await fetch(`${server.paperUrl}${path}?${query.toString()}&signature=${signature}`, {
      headers: { 'X-MBX-APIKEY': account.api_key },
    });
    return (await answer.json()) as T;
  };
  /** The price the exchange fills at now (its admin market view, as the browser tests' holdPrice reads it). */
  const mark = async (symbol: string) => {
    const market = (await (await fetch(`${server.paperUrl}/admin/market`)).json()) as {
      marks: Record<string, string>;
    };
    return market.marks[symbol]!;
  };
  const { symbol_dict: symbolDict } = await call<{
    symbol_dict: Record<string, { symbol_pair: string; symbol_quantity_precision: number }>;
  }>('GET', 'symbol/get_available_symbols_dict/');
  const quantityPrecision = (pair: string) =>
    Object.values(symbolDict).find((symbol) => symbol.symbol_pair === pair)!.symbol_quantity_precision;
  const latencies: number[] = [];
  const missed: string[] = [];
  /** Server mode (issue 54): from the exit's fill until no order of the trade is open on the exchange. */
  const leftoverLatencies: number[] = [];
  const leftoversMissed: string[] = [];
  const ordersOf = async (symbol: string, key: string): Promise<string[]> => {
    const [algos, orders] = await Promise.all([
      signed<{ clientAlgoId: string }[]>('/fapi/v1/openAlgoOrders', { symbol }),
      signed<{ clientOrderId: string }[]>('/fapi/v1/openOrders', { symbol }),
    ]);
    return [...algos.map((a) => a.clientAlgoId), ...orders.map((o) => o.clientOrderId)].filter((id) =>
      id.endsWith(key),
    );
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    const signal = signals[round]!;
    const symbol = signal.symbol.symbol_pair;
    const exit: Exit = EXITS[round % EXITS.length]!;
    const entry = roundDecimal(await mark(symbol), signal.symbol.symbol_price_precision);
    await setPrice(symbol, entry);
    const opened = Date.now();
    const trade = await open(mode, call, client, signal, quantityPrecision);
    if (round === 0) await new Promise((resolve) => setTimeout(resolve, 3000)); // the stream's first connect
    const precision = signal.symbol.symbol_price_precision;
    const buy = trade.trade_direction === 'BUY';
    const step = (price: string, fraction: string) =>
      roundDecimal(mulDecimals(price, buy ? fraction : addDecimals('2', `-${fraction}`)), precision);
    const tp =
      trade.trade_exits?.take_profit.held_by === 'exchange' ? trade.trade_exits.take_profit.price : '';
    const activation =
      trade.trade_exits?.trailing.held_by === 'exchange' ? trade.trade_exits.trailing.price : '';
    if (exit === 'take_profit') await setPrice(symbol, step(tp, '1.001'));
    else if (exit === 'treiling_stop') {
      const best = step(activation, '1.0005');
      await setPrice(symbol, best);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await setPrice(symbol, step(best, '0.995'));
    } else {
      const stop = stopPrice({
        direction: trade.trade_direction,
        entryPrice: trade.trade_open_price,
        stopLossPercent: SETTINGS.trade_stop_loss_percent,
        leverage: SETTINGS.trade_leverage,
        pricePrecision: precision,
      });
      await setPrice(symbol, step(stop, '0.998'));
    }
    const arrived = await until(
      'the close',
      () => socket.closes.get(trade.trade_uuid) ?? (undefined as never),
      MISS_AFTER_MS,
    ).catch(() => undefined);
    const fills = await signed<{ price: string; time: number; id: number }[]>('/fapi/v1/userTrades', {
      symbol,
    });
    const fill = fills.sort((a, b) => a.id - b.id).at(-1)!;
    await setPrice(symbol, null);
    if (!arrived || arrived.status !== exit || arrived.price === null) {
      const risk = await signed<{ positionAmt: string }[]>('/fapi/v2/positionRisk', { symbol });
      const closedByExchange = fill.time >= opened && Number(risk[0]?.positionAmt ?? '0') === 0;
      missed.push(
        `${symbol} ${exit}: ${arrived ? `${arrived.status} at ${arrived.price}` : 'not recorded'}` +
          (closedByExchange
            ? ' (the exchange closed it)'
            : ` (still open on the exchange: ${risk[0]?.positionAmt})`),
      );
      continue;
    }
    latencies.push(arrived.at - fill.time);
    if (mode === 'server') {
      const key = signal.signal_uuid.replace(/-/g, '');
      const gone = await until(
        'the leftovers cancelled',
        async () => ((await ordersOf(symbol, key)).length === 0 ? Date.now() : undefined),
        MISS_AFTER_MS,
      ).catch(() => undefined);
      if (gone === undefined)
        leftoversMissed.push(`${symbol} ${exit}: ${(await ordersOf(symbol, key)).join(', ')}`);
      else leftoverLatencies.push(gone - fill.time);
    }
    const pushed = await push
      .arrival(
        device,
        (message) =>
          message.kind === 'trade_closed' &&
          message.trade_uuid === trade.trade_uuid &&
          message.trade_status === exit,
        MISS_AFTER_MS,
      )
      .catch(() => undefined);
    if (pushed) pushLatencies.push(pushed.at - fill.time);
    else pushesMissed.push(`${symbol} ${exit}: no push`);
  }
  socket.close();
  return { mode, latencies, missed, pushLatencies, pushesMissed, leftoverLatencies, leftoversMissed };
}

async function open(
  mode: Mode,
  call: <T>(method: 'GET' | 'POST', path: string, body?: object) => Promise<T>,
  client: ExchangeClient,
  signal: Signal,
  quantityPrecision: (pair: string) => number,
): Promise<Trade> {
  if (mode === 'server') {
    // The server cancels what earlier closes left waiting on the symbol itself (settleExitsBeforeOpen).
    return call<Trade>('POST', 'trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...SETTINGS,
      pin_code: PIN,
    });
  }
  // As the page does before an open on a symbol (src/features/trades/account-follow.ts): the orders earlier
  // closes recorded by the server left waiting there are cancelled first, else they act on the new position.
  const { waiting } = await call<{ waiting: WaitingOrders[] }>('GET', 'trade/get_waiting_orders/');
  for (const item of waiting.filter((entry) => entry.symbol_pair === signal.symbol.symbol_pair)) {
    await Promise.all(
      item.order_ids.map((id) =>
        id.startsWith('sds') ? cancelQuietly(client, item.symbol_pair, id) : cancelExitQuietly(client, id),
      ),
    );
    await call('POST', 'trade/clear_waiting_orders/', {
      trade_uuid: item.trade_uuid,
      order_ids: item.order_ids,
    });
  }
  const opened = await openPosition(client, {
    symbol_pair: signal.symbol.symbol_pair,
    trade_direction: signal.signal_direction_created,
    trade_margin: SETTINGS.trade_margin,
    trade_leverage: SETTINGS.trade_leverage,
    trade_stop_loss_percent: SETTINGS.trade_stop_loss_percent,
    symbol_price_precision: signal.symbol.symbol_price_precision,
    symbol_quantity_precision: quantityPrecision(signal.symbol.symbol_pair),
    signal_uuid: signal.signal_uuid,
    exits: {
      trade_take_profit_percent: SETTINGS.trade_take_profit_percent,
      trade_treiling_stop_percent: SETTINGS.trade_treiling_stop_percent,
    },
  });
  return call<Trade>('POST', 'trade_client/create_trade/', {
    signal_uuid: signal.signal_uuid,
    ...SETTINGS,
    trade_quantity: opened.trade_quantity,
    trade_open_price: opened.trade_open_price,
    trade_order_id: opened.trade_order_id,
    trade_stop_order_id: opened.trade_stop_order_id,
    trade_stop_price: opened.trade_stop_price,
    trade_exits: opened.exits ?? null,
    trade_backstop: opened.trade_backstop ?? null,
  });
}

async function main() {
  await initTradeCore();
  const spa = prepareSpa();
  let server: ServerProcess | undefined;
  const push = await startPushEndpoint();
  try {
    server = await startServerProcess(spa.dir, { PUSH_ENDPOINT_ORIGINS: push.origin });
    console.log(`server pid ${server.pid} ready in ${(server.startMs / 1000).toFixed(1)} s`);
    const reader = await signUpApi(server.baseUrl, 'signal-reader');
    const { signal_list } = await api<{ signal_list: Signal[] }>(
      server.baseUrl,
      'GET',
      'signal/get_recent_signal_list/?limit=100',
      reader.authorization,
    );
    // One stored signal per symbol and round (one trade per signal per trader), BTCUSDT left out (its
    // minimum notional is above the order).
    const usable = signal_list.filter((signal) => signal.symbol.symbol_pair !== 'BTCUSDT');
    const results = [];
    for (const [index, mode] of MODES.entries()) {
      const mine = usable.filter((_, i) => i % MODES.length === index);
      if (mine.length < ROUNDS) throw new Error(`only ${mine.length} usable stored signals for ${mode}`);
      results.push(await runMode(mode, server, mine, push));
    }
    console.log(`load average at end: ${loadAverage()}`);
    for (const result of results) {
      for (const miss of result.missed) console.log(`${result.mode} missed: ${miss}`);
      for (const miss of result.pushesMissed) console.log(`${result.mode} push missed: ${miss}`);
      for (const miss of result.leftoversMissed) console.log(`${result.mode} leftovers still open: ${miss}`);
    }
    console.log('');
    for (const result of results) {
      console.log(
        `walk-away ${result.mode}: exit filled → trade recorded closed median ${ms(median(result.latencies))}, ` +
          `p95 ${ms(percentile(result.latencies, 95))}; closes missed: ${result.missed.length}`,
      );
    }
    const all = results.flatMap((result) => result.latencies);
    const missedAll = results.reduce((sum, result) => sum + result.missed.length, 0);
    console.log(
      `walk-away: exit filled → trade recorded closed median ${ms(median(all))}, p95 ${ms(percentile(all, 95))}; ` +
        `closes missed: ${missedAll}`,
    );
    for (const result of results) {
      console.log(
        `walk-away push ${result.mode}: exit filled → push sent median ${ms(median(result.pushLatencies))}, ` +
          `p95 ${ms(percentile(result.pushLatencies, 95))}; pushes missed: ${result.pushesMissed.length}`,
      );
    }
    // Issue 54: server mode with "Server acts while I'm away" on; client mode cancels when the page is back.
    for (const result of results.filter((item) => item.mode === 'server')) {
      console.log(
        `walk-away server (acts while away): exit filled → leftovers cancelled median ` +
          `${ms(median(result.leftoverLatencies))}, p95 ${ms(percentile(result.leftoverLatencies, 95))}; ` +
          `left open: ${result.leftoversMissed.length}`,
      );
    }
    const pushed = results.flatMap((result) => result.pushLatencies);
    const pushMissed = results.reduce((sum, result) => sum + result.pushesMissed.length, 0);
    console.log(
      `walk-away push: exit filled → push sent median ${ms(median(pushed))}, ` +
        `p95 ${ms(percentile(pushed, 95))}; pushes missed: ${pushMissed}`,
    );
  } finally {
    await server?.stop();
    await push.close();
    spa.remove();
  }
}

await main();
