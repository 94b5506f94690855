// Process entry of the standalone paper exchange (`npm run paper-exchange`): PAPER_EXCHANGE_PORT (8081),
// PAPER_EXCHANGE_HOST (127.0.0.1), PAPER_EXCHANGE_DATA_DIR (./data/paper-exchange), PAPER_EXCHANGE_SEED,
// PAPER_EXCHANGE_TICK_MS, PAPER_EXCHANGE_LEGACY_CONDITIONAL_ORDERS=1, PAPER_EXCHANGE_LEGACY_USER_STREAMS=1
// (user data on the old stream forms, as demo/testnet serve it) and PAPER_EXCHANGE_CORS=1 (answer browser
// origins, which Binance does not).
import { standaloneSealKey } from './secret-seal.js';
import { startPaperExchange } from './index.js';

function integer(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got ${text}`);
  return value;
}

async function main(): Promise<void> {
  const dataDir = process.env.PAPER_EXCHANGE_DATA_DIR || './data/paper-exchange';
  const handle = await startPaperExchange({
    port: integer('PAPER_EXCHANGE_PORT') ?? 8081,
    host: process.env.PAPER_EXCHANGE_HOST || '127.0.0.1',
    dataDir,
    // The accounts' secrets sealed in the data folder under a key kept outside it (secret-seal.ts).
    sealKey: standaloneSealKey(process.env, dataDir),
    seed: integer('PAPER_EXCHANGE_SEED'),
    tickMs: integer('PAPER_EXCHANGE_TICK_MS'),
    legacyConditionalOrders: process.env.PAPER_EXCHANGE_LEGACY_CONDITIONAL_ORDERS === '1',
    logger: process.env.PAPER_EXCHANGE_LOG === '1',
    cors: process.env.PAPER_EXCHANGE_CORS === '1',
    legacyUserStreams: process.env.PAPER_EXCHANGE_LEGACY_USER_STREAMS === '1',
  });
  console.log(`paper exchange: ${handle.url} (websocket ${handle.wsUrl}), seed ${handle.seed}`);
  const shutdown = (signal: string) => {
    console.log(`paper exchange: ${signal}, closing`);
    handle.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('paper exchange failed to start:', error);
  process.exit(1);
});
