// The worker thread of the what-if replay (services/worker-pool.ts): trade-core's WebAssembly instantiated once,
// then one replay per message (what-if.ts runWhatIf).
import { parentPort } from 'node:worker_threads';
import { initTradeCore } from '../../../shared-core/trade-core-node';
import { runWhatIf, type WhatIfInput } from './what-if';

await initTradeCore();
const port = parentPort;
if (!port) throw new Error('what-if-worker runs in a worker thread');
port.on('message', ({ id, input }: { id: number; input: WhatIfInput }) => {
  try {
    port.postMessage({ id, result: runWhatIf(input) });
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
