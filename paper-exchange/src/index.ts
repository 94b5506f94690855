// Public API of the paper exchange, embedded by the server (`npm start`) and used by tests.
import { buildPaperExchange, type PaperExchangeOptions } from './app.js';
import type { Exchange } from './exchange.js';
import type { FaultConfig } from './faults.js';
import { D } from './num.js';

export {
  generateHistory,
  historyOrigin,
  type Candle1m,
  type GenerateHistoryOptions,
} from './market/history.js';
export { SYMBOLS, SYMBOL_NAMES, type SymbolSpec } from './market/symbols.js';
export { buildPaperExchange, type PaperExchangeOptions } from './app.js';
export { ADMIN_TOKEN_FILE, ADMIN_TOKEN_HEADER } from './admin-guard.js';
export type { FaultConfig } from './faults.js';

export interface StartOptions {
  /** 0 = an ephemeral port (tests). Default 8081. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Durable state directory; undefined keeps everything in memory (tests). */
  dataDir?: string;
  /** The key the accounts' secrets are sealed under in dataDir, kept outside it (secret-seal.ts). */
  sealKey?: Buffer;
  seed?: number;
  /** Market clock period in ms (default 1000). */
  tickMs?: number;
  /** Accept conditional order types on /fapi/v1/order, as Binance did before 2025-12-09. */
  legacyConditionalOrders?: boolean;
  historyDays?: number;
  logger?: boolean;
  /** Answer browser origins (CORS); Binance does not, so off by default (PaperExchangeOptions.cors). */
  cors?: boolean;
  /** User data on the old stream forms, as demo/testnet serve it (PaperExchangeOptions.legacyUserStreams). */
  legacyUserStreams?: boolean;
}

/** In-process administration, the same operations as the loopback /admin endpoints. */
export interface PaperExchangeAdmin {
  createAccount(balance?: string): { apiKey: string; apiSecret: string; accountId: number };
  registerEd25519(publicKeyPem: string, balance?: string): { apiKey: string; accountId: number };
  setFaults(config: FaultConfig): void;
  clearFaults(apiKey?: string): void;
  /** Pins a mark price (string) or releases the pin (null); triggers and liquidations run at once. */
  setPrice(symbol: string, price: string | null): void;
  markPrice(symbol: string): string;
}

export interface PaperExchangeHandle {
  url: string;
  wsUrl: string;
  seed: number;
  /** generateHistory({ seed, days, endTime: historyEndTime }) is this exchange's history. */
  historyEndTime: number;
  originTime: number;
  admin: PaperExchangeAdmin;
  /** The X-Admin-Token its /admin/* changes need (admin-guard.ts; DATA_DIR/admin.token when durable). */
  adminToken: string;
  exchange: Exchange;
  close(): Promise<void>;
}

export async function startPaperExchange(options: StartOptions = {}): Promise<PaperExchangeHandle> {
  const appOptions: PaperExchangeOptions = {
    seed: options.seed,
    dataDir: options.dataDir,
    sealKey: options.sealKey,
    legacyConditionalOrders: options.legacyConditionalOrders,
    historyDays: options.historyDays,
    tickMs: options.tickMs,
    logger: options.logger,
    cors: options.cors,
    legacyUserStreams: options.legacyUserStreams,
  };
  const built = await buildPaperExchange(appOptions);
  const host = options.host ?? '127.0.0.1';
  await built.app.listen({ port: options.port ?? 8081, host });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8081);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  built.startClock();
  const { exchange } = built;
  return {
    url: `http://${urlHost}:${port}`,
    wsUrl: `ws://${urlHost}:${port}`,
    seed: exchange.seed,
    historyEndTime: exchange.historyEndTime,
    originTime: exchange.originTime,
    adminToken: exchange.adminToken,
    exchange,
    admin: {
      createAccount(balance = '10000') {
        const { account, apiSecret } = exchange.createAccount(balance);
        return { apiKey: account.apiKey, apiSecret, accountId: account.id };
      },
      registerEd25519(publicKeyPem, balance = '10000') {
        const account = exchange.createEd25519Account(publicKeyPem, balance);
        return { apiKey: account.apiKey, accountId: account.id };
      },
      setFaults: (config) => void exchange.faults.set(config),
      clearFaults: (apiKey) => exchange.faults.clear(apiKey),
      setPrice(symbol, price) {
        if (!exchange.isSymbol(symbol)) throw new Error(`unknown symbol ${symbol}`);
        exchange.setPrice(symbol, price === null ? undefined : new D(price));
      },
      markPrice: (symbol) => exchange.market.mark(symbol).toFixed(8),
    },
    close: () => built.close(),
  };
}
