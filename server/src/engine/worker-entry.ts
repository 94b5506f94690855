// The worker threads' entry (services/worker-pool.ts; DESIGN.md "CPU-heavy work"): trade-core's WebAssembly
// instantiated once, then one task per message — a what-if replay (what-if.ts runWhatIf) or an analysis's lag
// scan (analysis.ts). One pool serves both, so the two kinds of heavy work share the cores the event loop leaves.
import { parentPort } from 'node:worker_threads';
import { initTradeCore, lagScan } from '../../../shared-core/trade-core-node';
import type { AnalysisResult, WhatIfResult } from '../../../contracts';
import { runWhatIf, type WhatIfInput } from './what-if';

/** The analysis's part that costs CPU: trade-core's lagScan over its three series. */
export interface LagScanInput {
  buy: number[];
  sell: number[];
  price: number[];
  maxLag: number;
}

export type WorkerTask = { kind: 'what-if'; input: WhatIfInput } | { kind: 'lag-scan'; input: LagScanInput };
export type WorkerResult = WhatIfResult | AnalysisResult;

function run(task: WorkerTask): WorkerResult {
  if (task.kind === 'what-if') return runWhatIf(task.input);
  const { buy, sell, price, maxLag } = task.input;
  return lagScan(buy, sell, price, maxLag);
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
