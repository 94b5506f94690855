// An open-loop load at a constant arrival rate (the method of wrk2): request i is due at start + i / rate,
// whatever happened to the requests before it, and its latency is measured from when it was due, not from when
// it could be sent, so a slow answer that holds up the requests behind it counts against all of them
// (coordinated omission corrected). Keep-alive connections from one node:http Agent; when all are busy, a due
// request waits in the Agent's queue and that wait is part of its latency.
//
// Why not autocannon's rate option alone: autocannon 9 limits each connection to `rate / connections` requests
// per one-second window and sends them back to back when the window opens (lib/httpClient.js, reqsMadeThisSecond),
// so "500 requests a second" arrives as one burst of 500 at the start of every second: its percentiles measure
// how long a burst takes to drain, not the latency at a steady 500 requests a second.
import http from 'node:http';

export interface ConstantRateOptions {
  url: string;
  headers: Record<string, string>;
  rate: number;
  durationS: number;
  connections: number;
  timeoutMs?: number;
}

export interface ConstantRateResult {
  /** Requests due in the run (rate × duration), all sent. */
  due: number;
  /** Milliseconds from when each answered request was due to its last byte. */
  latencies: number[];
  /** Milliseconds from when each answered request was written to its last byte (no queueing before it). */
  service: number[];
  statuses: Map<number, number>;
  /** Connection errors and time-outs. */
  errors: number;
  /** Seconds from the first due time to the last answer. */
  elapsedS: number;
  /** The most any request was sent after it was due (the generator's own lateness), in ms. */
  maxSendLagMs: number;
}

export function constantRate(options: ConstantRateOptions): Promise<ConstantRateResult> {
  const { url, headers, rate, durationS, connections, timeoutMs = 10_000 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const interval = 1000 / rate;
  const due = Math.round(rate * durationS);
  const result: ConstantRateResult = {
    due,
    latencies: [],
    service: [],
    statuses: new Map(),
    errors: 0,
    elapsedS: 0,
    maxSendLagMs: 0,
  };
  return new Promise((resolve) => {
    const start = performance.now();
    let next = 0;
    let settled = 0;
    const settle = () => {
      settled += 1;
      if (settled === due) {
        result.elapsedS = (performance.now() - start) / 1000;
        agent.destroy();
        resolve(result);
      }
    };
    const fire = (dueAt: number) => {
      const sentAt = performance.now();
      let counted = false;
      const count = (record: () => void) => {
        if (counted) return;
        counted = true;
        record();
        settle();
      };
      result.maxSendLagMs = Math.max(result.maxSendLagMs, sentAt - dueAt);
      const request = http.get(url, { agent, headers, timeout: timeoutMs }, (response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        response.on('end', () =>
          count(() => {
            const end = performance.now();
            result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
            result.latencies.push(end - dueAt);
            result.service.push(end - sentAt);
          }),
        );
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => count(() => (result.errors += 1)));
    };
    const tick = () => {
      const now = performance.now();
      while (next < due && start + next * interval <= now) {
        fire(start + next * interval);
        next += 1;
      }
      if (next < due) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    tick();
  });
}
