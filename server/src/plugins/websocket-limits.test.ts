// Websocket limits (issue 17): a trader's sockets per instance are capped and a socket's frames per second are
// limited, both closing with 4429 and a reason that says which; an oversized frame closes its socket (1009) and
// is logged as a warning, without a stack. Real sockets on a listening server.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createLogger } from '../services/logger';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../test/test-app';
import { WS_LIMIT_CLOSE_CODE, WS_TOO_MANY_FRAMES, WS_TOO_MANY_SOCKETS } from '../services/socket-hub';
import { DEFAULT_WEBSOCKET_LIMITS, WS_MAX_PAYLOAD_BYTES } from './websocket';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});
let t: TestApp;
let base = '';
beforeAll(async () => {
  t = await createTestApp({ logger: createLogger('info', sink) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => t.close());

interface Opened {
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
}

async function open(authorization: string): Promise<Opened> {
  const answer = await t.app.inject({
    method: 'GET',
    url: '/api/auth/create_websocket_token/',
    headers: { authorization },
  });
  const socket = new WebSocket(`${base}/api/ws_core/${answer.json().result.token as string}`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, closed };
}

/** The close, or 'open' when the socket is still open after `ms`. */
const closedWithin = (opened: Opened, ms: number) =>
  Promise.race([opened.closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);

const frame = JSON.stringify({
  event: 'update_trade_by_current_price_from_client',
  message: { trade_uuid: crypto.randomUUID() },
});

describe('sockets per trader', () => {
  it(`closes the socket beyond ${DEFAULT_WEBSOCKET_LIMITS.socketsPerUser} with 4429 and says why`, async () => {
    const trader = await signUpAndLogIn(t.app);
    const sockets: Opened[] = [];
    for (let i = 0; i < DEFAULT_WEBSOCKET_LIMITS.socketsPerUser; i += 1) {
      sockets.push(await open(trader.headers.authorization));
    }
    const extra = await open(trader.headers.authorization);
    expect(await closedWithin(extra, 3000)).toEqual({
      code: WS_LIMIT_CLOSE_CODE,
      reason: WS_TOO_MANY_SOCKETS,
    });
    for (const opened of sockets) expect(opened.socket.readyState).toBe(WebSocket.OPEN);
    // Another trader is not affected, and a socket closed makes room again.
    const other = await open((await signUpAndLogIn(t.app)).headers.authorization);
    expect(await closedWithin(other, 300)).toBe('open');
    sockets[0]!.socket.close();
    await sockets[0]!.closed;
    const again = await open(trader.headers.authorization);
    expect(await closedWithin(again, 300)).toBe('open');
    for (const opened of [...sockets, other, again]) opened.socket.terminate();
  });
});

describe('frames per second', () => {
  it('closes a socket that floods frames with 4429 and says why', async () => {
    const trader = await signUpAndLogIn(t.app);
    const opened = await open(trader.headers.authorization);
    for (let i = 0; i < DEFAULT_WEBSOCKET_LIMITS.framesPerSecond * 3; i += 1) opened.socket.send(frame);
    expect(await closedWithin(opened, 5000)).toEqual({
      code: WS_LIMIT_CLOSE_CODE,
      reason: WS_TOO_MANY_FRAMES,
    });
  });

  it('keeps a socket that asks as the SPA does with 500 open trades (about 670 frames a second)', async () => {
    const trader = await signUpAndLogIn(t.app);
    const opened = await open(trader.headers.authorization);
    const timer = setInterval(() => {
      for (let i = 0; i < 7; i += 1) opened.socket.send(frame);
    }, 10);
    const outcome = await closedWithin(opened, 3000);
    clearInterval(timer);
    expect(outcome).toBe('open');
    opened.socket.terminate();
  });
});

describe('an oversized frame', () => {
  it('closes the socket with 1009 and is logged as a warning without a stack', async () => {
    const trader = await signUpAndLogIn(t.app);
    const opened = await open(trader.headers.authorization);
    lines.length = 0;
    opened.socket.send('x'.repeat(WS_MAX_PAYLOAD_BYTES + 1));
    expect((await closedWithin(opened, 3000)) as { code: number }).toMatchObject({ code: 1009 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });
    const about = logged.filter((line) => /websocket/i.test(line.msg) || line.err !== undefined);
    expect(about.length).toBeGreaterThan(0);
    for (const line of about) {
      expect(line.level, line.msg).toBe(40);
      expect(JSON.stringify(line)).not.toMatch(/"stack"/);
    }
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  });
});
