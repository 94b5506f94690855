// @vitest-environment node
// ky against a real local HTTP server (node:http): bearer header, 401/406 → one refresh → one retry,
// refresh failure clears the token, time-out → 'Timeout', error classes and `detail`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

// Node has no localStorage: a Map-backed one, installed before the client module reads it.
const storage = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, String(value)),
  removeItem: (key: string) => void storage.delete(key),
  clear: () => storage.clear(),
});
vi.mock('../config/constants', async (original) => ({
  ...(await original<typeof import('../config/constants')>()),
  API_TIMEOUT_MS: 300,
}));

const { ApiError, ApiErrorKind, createApiClient, getStoredToken, storeToken } = await import('./api-client');

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;
const routes = new Map<string, Handler>();
const seen: { method: string; url: string; authorization: string | undefined; body: string }[] = [];
let server: http.Server;
let baseUrl: string;

function json(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = request.url ?? '';
      seen.push({ method: request.method ?? '', url, authorization: request.headers.authorization, body });
      const handler = routes.get(url);
      if (handler) handler(request, response);
      else json(response, 404, { detail: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  storage.clear();
  routes.clear();
  seen.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

const answer = z.object({ result: z.object({ value: z.number() }) });

describe('api client', () => {
  test('sends the stored token as "type token" and parses the answer', async () => {
    storeToken('bearer', 'abc');
    routes.set('/api/thing/', (_req, res) => json(res, 200, { result: { value: 7 } }));
    const api = createApiClient(baseUrl);
    await expect(api.get('thing/', answer)).resolves.toEqual({ result: { value: 7 } });
    expect(seen[0]?.authorization).toBe('bearer abc');
  });

  test.each([401, 406])('on %i it refreshes once, stores the new token and retries once', async (status) => {
    storeToken('bearer', 'old');
    routes.set('/api/thing/', (req, res) => {
      if (req.headers.authorization === 'bearer new') json(res, 200, { result: { value: 1 } });
      else json(res, status, { detail: 'expired' });
    });
    routes.set('/api/auth/refresh/', (_req, res) =>
      json(res, 200, { result: { token_type: 'bearer', access_token: 'new' } }),
    );
    const api = createApiClient(baseUrl);
    await expect(api.post('thing/', { a: 1 }, answer)).resolves.toEqual({ result: { value: 1 } });
    expect(getStoredToken()).toBe('bearer new');
    expect(seen.map((entry) => entry.url)).toEqual(['/api/thing/', '/api/auth/refresh/', '/api/thing/']);
    // The retried POST carries its body again.
    expect(seen[2]?.body).toBe('{"a":1}');
  });

  test('a retry that fails again is not retried a second time', async () => {
    storeToken('bearer', 'old');
    routes.set('/api/thing/', (_req, res) => json(res, 401, { detail: 'still expired' }));
    routes.set('/api/auth/refresh/', (_req, res) =>
      json(res, 200, { result: { token_type: 'bearer', access_token: 'new' } }),
    );
    const api = createApiClient(baseUrl);
    const error = await api.get('thing/', answer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: ApiErrorKind.HTTP_ERROR, status: 401, message: 'still expired' });
    expect(seen.filter((entry) => entry.url === '/api/thing/')).toHaveLength(2);
    expect(seen.filter((entry) => entry.url === '/api/auth/refresh/')).toHaveLength(1);
  });

  test('a failed refresh clears the stored token and logs "Token error: {status}"', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    storeToken('bearer', 'old');
    routes.set('/api/thing/', (_req, res) => json(res, 401, { detail: 'expired' }));
    routes.set('/api/auth/refresh/', (_req, res) => json(res, 401, { detail: 'no refresh cookie' }));
    const api = createApiClient(baseUrl);
    await expect(api.get('thing/', answer)).rejects.toMatchObject({ status: 401 });
    expect(getStoredToken()).toBeNull();
    expect(log).toHaveBeenCalledWith('Token error: 401');
  });

  test('concurrent 401s share one refresh', async () => {
    storeToken('bearer', 'old');
    routes.set('/api/thing/', (req, res) => {
      if (req.headers.authorization === 'bearer new') json(res, 200, { result: { value: 2 } });
      else json(res, 401, {});
    });
    routes.set('/api/auth/refresh/', (_req, res) =>
      setTimeout(() => json(res, 200, { result: { token_type: 'bearer', access_token: 'new' } }), 30),
    );
    const api = createApiClient(baseUrl);
    await Promise.all([api.get('thing/', answer), api.get('thing/', answer), api.get('thing/', answer)]);
    expect(seen.filter((entry) => entry.url === '/api/auth/refresh/')).toHaveLength(1);
  });

  test('a wrong login (401) is not refreshed', async () => {
    storeToken('bearer', 'old');
    routes.set('/api/auth/login/', (_req, res) => json(res, 401, { detail: 'Incorrect email or password' }));
    const api = createApiClient(baseUrl);
    await expect(api.post('auth/login/', {}, answer)).rejects.toMatchObject({
      kind: ApiErrorKind.HTTP_ERROR,
      message: 'Incorrect email or password',
    });
    expect(seen).toHaveLength(1);
    expect(getStoredToken()).toBe('bearer old');
  });

  test('an answer slower than the time-out fails with TIMEOUT_ERROR "Timeout"', async () => {
    routes.set('/api/slow/', (_req, res) => setTimeout(() => json(res, 200, { result: { value: 1 } }), 1000));
    const api = createApiClient(baseUrl);
    await expect(api.get('slow/', answer)).rejects.toMatchObject({
      kind: ApiErrorKind.TIMEOUT_ERROR,
      message: 'Timeout',
    });
  });

  test('a call given a longer time-out waits for a slow answer', async () => {
    routes.set('/api/slow/', (_req, res) => setTimeout(() => json(res, 200, { result: { value: 2 } }), 600));
    const api = createApiClient(baseUrl);
    await expect(api.get('slow/', answer, undefined, { timeoutMs: 5000 })).resolves.toEqual({
      result: { value: 2 },
    });
  });

  test('a server error reads `detail`, else "unknown error"', async () => {
    routes.set('/api/detail/', (_req, res) => json(res, 422, { detail: 'Must be at least 60' }));
    routes.set('/api/plain/', (_req, res) => {
      res.writeHead(500);
      res.end('oops');
    });
    const api = createApiClient(baseUrl);
    await expect(api.get('detail/', answer)).rejects.toMatchObject({
      status: 422,
      message: 'Must be at least 60',
    });
    await expect(api.get('plain/', answer)).rejects.toMatchObject({ status: 500, message: 'unknown error' });
  });

  test('invalid JSON or an unexpected shape is a PARSING_ERROR', async () => {
    routes.set('/api/bad-json/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{nope');
    });
    routes.set('/api/bad-shape/', (_req, res) => json(res, 200, { result: { value: 'x' } }));
    const api = createApiClient(baseUrl);
    await expect(api.get('bad-json/', answer)).rejects.toMatchObject({ kind: ApiErrorKind.PARSING_ERROR });
    await expect(api.get('bad-shape/', answer)).rejects.toMatchObject({ kind: ApiErrorKind.PARSING_ERROR });
  });

  test('an unreachable server is a FETCH_ERROR', async () => {
    const api = createApiClient('http://127.0.0.1:1/api');
    await expect(api.get('thing/', answer)).rejects.toMatchObject({ kind: ApiErrorKind.FETCH_ERROR });
  });
});
