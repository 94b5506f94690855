// The client side of run.ts, in its own process: opens one socket per token, waits until all are open and
// the first price has reached every one, then for DURATION_S seconds records, for every
// symbol_price_base_from_core frame, receive time minus the server's sent_at. Prints one JSON line.
import fs from 'node:fs';
import WebSocket from 'ws';

const [wsBase, tokenFile, durationText] = process.argv.slice(2) as [string, string, string];
const tokens = JSON.parse(fs.readFileSync(tokenFile, 'utf8')) as string[];
const durationMs = Number(durationText) * 1000;
const CONNECT_BATCH = 50;

const nowMs = () => performance.timeOrigin + performance.now();
const latencies: number[] = [];
let recording = false;
let priceFrames = 0;
const sockets: WebSocket[] = [];

function open(token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsBase}/${token}`);
    socket.on('message', (data) => {
      if (!recording) return;
      const text = data.toString();
      if (!text.startsWith('{"event":"symbol_price_base_from_core"')) return;
      const frame = JSON.parse(text) as { message: { sent_at?: number } };
      if (frame.message.sent_at !== undefined) latencies.push(nowMs() - frame.message.sent_at);
      priceFrames += 1;
    });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  for (let i = 0; i < tokens.length; i += CONNECT_BATCH) {
    sockets.push(...(await Promise.all(tokens.slice(i, i + CONNECT_BATCH).map(open))));
  }
  const closedEarly = () => sockets.filter((socket) => socket.readyState !== WebSocket.OPEN).length;
  recording = true;
  const started = nowMs();
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  recording = false;
  const elapsedS = (nowMs() - started) / 1000;
  const dropped = closedEarly();
  for (const socket of sockets) socket.terminate();
  const sorted = latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      sockets: sockets.length,
      sockets_closed_during_run: dropped,
      duration_s: elapsedS,
      frames: sorted.length,
      price_updates_per_s: priceFrames / sockets.length / elapsedS,
      p50_ms: percentile(sorted, 50),
      p95_ms: percentile(sorted, 95),
      p99_ms: percentile(sorted, 99),
      max_ms: sorted[sorted.length - 1] ?? NaN,
    }),
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
