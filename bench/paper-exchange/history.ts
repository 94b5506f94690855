// How long the paper exchange takes to generate 30 days of 1-minute history for all 8 symbols (the
// server's backfill needs it in a few seconds). Run: npx tsx bench/paper-exchange/history.ts
import { generateHistory } from '../../paper-exchange/src/index';

const RUNS = 5;
const endTime = Date.UTC(2026, 10, 1);
const times: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  const started = performance.now();
  const history = generateHistory({ seed: 42 + run, days: 30, endTime });
  times.push(performance.now() - started);
  if (history.size !== 8) throw new Error('expected 8 symbols');
}
times.sort((a, b) => a - b);
const median = times[Math.floor(RUNS / 2)] ?? 0;
console.log(`generateHistory 30 days x 8 symbols: median ${median.toFixed(0)} ms over ${RUNS} runs`);
console.log(`min ${times[0]?.toFixed(0)} ms, max ${times[RUNS - 1]?.toFixed(0)} ms`);
