// A slow push service cannot hold the others' pushes (issue 52): its answer is read up to
// PUSH_ANSWER_MAX_BYTES, a request not answered whole within PUSH_SEND_TIMEOUT_MS is given up on, and one push
// service holds at most PUSH_CONCURRENCY_PER_ORIGIN of the sending slots. Against real local HTTP servers: one
// that never answers, one that answers with an endless body, and the tests' push endpoint.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAPER_PLATFORM_UUID } from './platforms';
import { PUSH_ANSWER_MAX_BYTES, PUSH_CONCURRENCY, PUSH_CONCURRENCY_PER_ORIGIN } from './web-push';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../test/test-app';
import { startPushEndpoint, type PushEndpoint } from '../../test/push-endpoint';

interface SlowService {
  origin: string;
  /** Requests received, still open, and closed by the client before they were answered. */
  received: number;
  open: number;
  cutOff: number;
  /** Bytes of answer written before the client went away. */
  written: number;
  close(): Promise<void>;
}

/** `silent`: never answers. `endless`: 201 and a body that never ends (64 KiB every 5 ms, for at most 30 s). */
async function startSlowService(kind: 'silent' | 'endless'): Promise<SlowService> {
  const timers = new Set<ReturnType<typeof setInterval>>();
  const server = http.createServer((request, response) => {
    service.received += 1;
    service.open += 1;
    let answered = false;
    response.on('close', () => {
      service.open -= 1;
      if (!answered) service.cutOff += 1;
    });
    request.resume();
    if (kind === 'silent') return;
    response.writeHead(201, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const started = Date.now();
    const timer = setInterval(() => {
      if (response.destroyed || Date.now() - started > 30_000) {
        clearInterval(timer);
        timers.delete(timer);
        if (!response.destroyed) {
          answered = true;
          response.end();
        }
        return;
      }
      response.write(chunk);
      service.written += chunk.length;
    }, 5);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service: SlowService = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: 0,
    open: 0,
    cutOff: 0,
    written: 0,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return service;
}

let push: PushEndpoint;
let silent: SlowService;
let endless: SlowService;
let t: TestApp;
beforeAll(async () => {
  push = await startPushEndpoint();
  silent = await startSlowService('silent');
  endless = await startSlowService('endless');
  t = await createTestApp({ pushEndpointOrigins: [push.origin, silent.origin, endless.origin] });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([push?.close(), silent?.close(), endless?.close()]);
});

async function traderAt(origin: string) {
  const trader = await signUpAndLogIn(t.app, 'device');
  const device = push.device();
  const endpoint = origin === push.origin ? device.endpoint : `${origin}/push/${device.id}`;
  const subscribed = await t.app.inject({
    method: 'POST',
    url: '/api/push/subscribe/',
    headers: trader.headers,
    payload: { endpoint, keys: device.keys, language: 'en' },
  });
  expect(subscribed.statusCode, subscribed.body).toBe(200);
  return { user_uuid: trader.user_uuid, device };
}

const tell = (user_uuid: string) =>
  t.app.webPush.refusal(user_uuid, PAPER_PLATFORM_UUID, -2015, 'Invalid API-key');

describe('a slow push service holds no more than its share', () => {
  it('a silent push service and an endless answer: the other push service is told at once, the slow ones are given up on', async () => {
    // More silent devices than the old 8 slots of the whole process, and more than one push service's share.
    expect(PUSH_CONCURRENCY_PER_ORIGIN).toBeLessThan(PUSH_CONCURRENCY);
    const silentDevices = [];
    for (let i = 0; i < PUSH_CONCURRENCY_PER_ORIGIN + 3; i += 1)
      silentDevices.push(await traderAt(silent.origin));
    const endlessDevice = await traderAt(endless.origin);
    const healthy = await traderAt(push.origin);

    for (const device of silentDevices) tell(device.user_uuid);
    tell(endlessDevice.user_uuid);
    await expect.poll(() => silent.open, { timeout: 20_000 }).toBe(PUSH_CONCURRENCY_PER_ORIGIN);
    tell(healthy.user_uuid);
    const told = await push.next(healthy.device, (message) => message.kind === 'refusal', 20_000);
    expect(told.kind).toBe('refusal');
    // Told while the silent service still held its share: it waited for none of them.
    expect(silent.cutOff).toBe(0);
    expect(silent.open).toBe(PUSH_CONCURRENCY_PER_ORIGIN);
    // And it was sent no more than its share: the others wait for its slots, not for everyone's.
    expect(silent.received).toBe(PUSH_CONCURRENCY_PER_ORIGIN);

    // Every push ends: the silent ones by the time-out, the endless answer cut after a few KiB were read.
    await t.app.webPush.idle();
    await expect.poll(() => silent.open, { timeout: 10_000 }).toBe(0);
    expect(silent.cutOff).toBe(silent.received);
    expect(endless.received).toBe(1);
    await expect.poll(() => endless.cutOff, { timeout: 10_000 }).toBe(1);
    // The server stopped reading at once: what the service wrote is far below its 30 s of 64 KiB every 5 ms.
    expect(endless.written).toBeLessThan(400 * 64 * 1024);
    expect(PUSH_ANSWER_MAX_BYTES).toBeLessThanOrEqual(8 * 1024);
  }, 90_000);
});
