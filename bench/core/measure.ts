// Timing for bench/core/run.ts: candidates of one comparison run interleaved, sample by sample, so that
// load from other processes on this 2-core machine hits every candidate alike; each sample times a batch
// of operations and the result is the median time per operation.
import { performance } from 'node:perf_hooks';

export type Candidate = { name: string; run: () => unknown };
export type Result = { name: string; medianUs: number };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function timeBatch(candidate: Candidate, ops: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < ops; i++) {
    const out = candidate.run();
    if (out instanceof Promise) await out;
  }
  return ((performance.now() - start) * 1000) / ops;
}

/** Median µs per operation of each candidate, after `warmup` unrecorded samples. */
export async function compare(
  candidates: Candidate[],
  ops: number,
  samples: number,
  warmup = 3,
): Promise<Result[]> {
  const times = candidates.map(() => [] as number[]);
  for (let s = 0; s < warmup + samples; s++) {
    for (const [i, candidate] of candidates.entries()) {
      const perOp = await timeBatch(candidate, ops);
      if (s >= warmup) times[i]!.push(perOp);
    }
  }
  return candidates.map((c, i) => ({ name: c.name, medianUs: median(times[i]!) }));
}
