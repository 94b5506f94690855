// The worker threads' entry (services/worker-pool.ts; DESIGN.md "CPU-heavy work"): trade-core's WebAssembly
// instantiated once, then one task per message — a what-if replay (what-if.ts runWhatIf). The analysis's lag scan
// runs on the event loop (routes/analysis): a call of milliseconds costs less there than a worker's round trip.
import { parentPort } from 'node:worker_threads';
import { initTradeCore } from '../../../shared-core/trade-core-node';
import type { WhatIfResult } from '../../../contracts';
import { runWhatIf, type WhatIfInput } from './what-if';

export type WorkerTask = { kind: 'what-if'; input: WhatIfInput };
export type WorkerResult = WhatIfResult;

function run(task: WorkerTask): WorkerResult {
  return runWhatIf(task.input);
}

const port = parentPort;
if (port) {
  await initTradeCore();
  port.on('message', ({ id, input }: { id: number; input: WorkerTask }) => {
    try {
      port.postMessage({ id, result: run(input) });
    } catch (error) {
      port.postMessage({
        id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
}
