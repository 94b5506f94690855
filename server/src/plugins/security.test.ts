// Security headers, the trusted proxy and time limits (issue 17, finding 6): the SPA page and the API carry a
// CSP without inline script (wasm allowed), frame-ancestors 'none', nosniff and no Referer; behind a trusted TLS
// proxy the refresh cookie is Secure and HSTS is sent, and an untrusted X-Forwarded-Proto changes nothing; a
// client that sends its headers and then dribbles its body is cut off, while an open websocket is not.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp, HTTP_TIMEOUTS, type AppDeps } from '../app';
import { parseTrustProxy } from '../config';
import type { DatabaseHandle } from '../db';
import { MarketFeed } from '../engine/market-feed';
import { initTradeCore } from '../../../shared-core/trade-core-node';
import { openTestDatabase, signUpAndLogIn, TEST_PASSWORD } from '../../test/test-app';
import { HSTS_VALUE } from './security';

const silent = { warn: () => undefined };
let database: DatabaseHandle;
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-spa-'));
const apps: Awaited<ReturnType<typeof buildApp>>['app'][] = [];

async function app(deps: Partial<AppDeps> = {}) {
  const feed = new MarketFeed('http://127.0.0.1:9', 'ws://127.0.0.1:9', [], silent);
  const built = await buildApp({ feed, db: database.db, staticDir, ...deps });
  await built.app.ready();
  apps.push(built.app);
  return built.app;
}

beforeAll(async () => {
  await initTradeCore();
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Signaldesk</title>');
  database = await openTestDatabase();
});
afterAll(async () => {
  for (const each of apps) await each.close();
  await database?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers', () => {
  it('give the SPA page and the API a CSP without inline script, no framing, nosniff and no Referer', async () => {
    const server = await app({ paperExchangeUrl: 'http://127.0.0.1:8081' });
    for (const url of ['/', '/trading', '/api/public/get_bitcoin_public_information/']) {
      const response = await server.inject({ method: 'GET', url });
      const csp = directives(String(response.headers['content-security-policy']));
      expect(csp.get('script-src'), url).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      // Issue 41: the manifest and the push service worker of this origin.
      expect(csp.get('manifest-src')).toEqual(["'self'"]);
      expect(csp.get('worker-src')).toEqual(["'self'"]);
      // Its own origin (and websocket): client mode reaches the exchanges through our relay (docs/relay.md).
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      for (const values of csp.values()) expect(values).not.toContain("'unsafe-inline'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['strict-transport-security'], 'not over plain HTTP').toBeUndefined();
    }
  });

  it('let the page call an exchange directly only where it allows browsers', async () => {
    const server = await app({
      paperExchangeUrl: 'http://127.0.0.1:8081',
      paperExchangeAllowsBrowsers: true,
    });
    const response = await server.inject({ method: 'GET', url: '/trading' });
    const connect = directives(String(response.headers['content-security-policy'])).get('connect-src');
    expect(connect).toEqual(["'self'", 'http://127.0.0.1:8081']);
  });
});

describe('TRUST_PROXY', () => {
  const overTls = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.50' };

  async function loginThrough(server: Awaited<ReturnType<typeof app>>) {
    const trader = await signUpAndLogIn(server);
    return server.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: overTls,
      remoteAddress: '127.0.0.1',
      payload: { user_email: trader.user_email, user_password: TEST_PASSWORD },
    });
  }

  it('behind a trusted TLS proxy: a Secure refresh cookie and HSTS', async () => {
    const response = await loginThrough(await app({ trustProxy: parseTrustProxy('loopback') }));
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((cookie) => cookie.name === 'refresh_token')?.secure).toBe(true);
    expect(response.headers['strict-transport-security']).toBe(HSTS_VALUE);
  });

  it('without it, forwarded headers are not believed: no Secure cookie, no HSTS', async () => {
    const response = await loginThrough(await app({ trustProxy: parseTrustProxy(undefined) }));
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((cookie) => cookie.name === 'refresh_token')?.secure).toBeFalsy();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('reads false, true and address lists, and refuses a hop count Fastify would not honour', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
    expect(() => parseTrustProxy('1')).toThrow(/hop count/);
  });
});

describe('time limits', () => {
  it('are set on the server by default', async () => {
    const server = (await app()).server;
    expect(server.requestTimeout).toBe(HTTP_TIMEOUTS.requestMs);
    expect(server.headersTimeout).toBe(HTTP_TIMEOUTS.headersMs);
    expect(server.timeout).toBe(HTTP_TIMEOUTS.connectionMs);
  });

  it('cut off a client that sends its headers and dribbles its body', async () => {
    const server = await app({ timeouts: { requestMs: 1000, connectionMs: 60_000 } });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const started = performance.now();
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    socket.write(
      'POST /api/auth/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{',
    );
    const dribble = setInterval(() => socket.writable && socket.write(' '), 200);
    const gone = await Promise.race([
      closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 6000)),
    ]);
    clearInterval(dribble);
    socket.destroy();
    expect(gone, 'still connected after 6 s').not.toBeNull();
    console.info(`slow body: cut off after ${(gone! - started).toFixed(0)} ms (${answer.split('\r\n')[0]})`);
    expect(gone! - started).toBeLessThan(3500);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('leave an open websocket alone', async () => {
    const server = await app({ timeouts: { requestMs: 1000, headersMs: 1000, connectionMs: 1000 } });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as net.AddressInfo;
    const trader = await signUpAndLogIn(server);
    const token = (
      await server.inject({
        method: 'GET',
        url: '/api/auth/create_websocket_token/',
        headers: trader.headers,
      })
    ).json().result.token as string;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws_core/${token}`);
    await new Promise((resolve) => socket.once('open', resolve));
    let closedCode: number | undefined;
    socket.once('close', (code) => (closedCode = code));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(closedCode).toBeUndefined();
    socket.terminate();
  });
});
