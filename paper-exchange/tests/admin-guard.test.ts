// The admin API obeys no web page (issue 17, finding 4): a request with an Origin header, a Host that is not a
// loopback name (DNS rebinding), a body that is not application/json (a form post needs no preflight) or a
// change without the admin token is refused with 4xx {code, msg}, and nothing changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperExchangeApp } from '../src/app.js';
import { buildPaperExchange, startPaperExchange } from '../src/index.js';

let built: PaperExchangeApp;
let token = '';
beforeAll(async () => {
  built = await buildPaperExchange({ seed: 7, historyDays: 1 });
  token = built.exchange.adminToken;
});
afterAll(async () => built.close());

const accountCount = () => built.exchange.store.tables.accounts.size;

function createAccount(headers: Record<string, string>, payload = '{"balance":"500"}') {
  return built.app.inject({ method: 'POST', url: '/admin/accounts', headers, payload });
}

describe('the admin API refuses what a browser page could send', () => {
  it('refuses any request with an Origin header, even with the token', async () => {
    const before = accountCount();
    for (const origin of ['https://evil.example', 'http://localhost:8080', 'null']) {
      const post = await createAccount({
        'content-type': 'application/json',
        'x-admin-token': token,
        origin,
      });
      expect(post.statusCode, origin).toBe(403);
      expect(post.json()).toMatchObject({ code: -1002, msg: expect.stringContaining('Origin') });
      const get = await built.app.inject({ method: 'GET', url: '/admin/market', headers: { origin } });
      expect(get.statusCode, origin).toBe(403);
    }
    expect(accountCount()).toBe(before);
  });

  it('refuses a Host that is not a loopback name (DNS rebinding) and accepts the loopback ones', async () => {
    const json = { 'content-type': 'application/json', 'x-admin-token': token };
    for (const host of ['evil.example', 'evil.example:8081', '127.0.0.1.nip.io', '10.0.0.1:8081']) {
      const response = await createAccount({ ...json, host });
      expect(response.statusCode, host).toBe(403);
      expect(response.json().msg).toMatch(/Host/);
    }
    for (const host of ['localhost', 'localhost:8081', '127.0.0.1:8081', '[::1]:8081', 'LOCALHOST']) {
      expect((await createAccount({ ...json, host })).statusCode, host).toBe(200);
    }
  });

  it('refuses a body that is not application/json, even with the token', async () => {
    const before = accountCount();
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      const response = await createAccount({ 'content-type': type, 'x-admin-token': token });
      expect(response.statusCode, type).toBe(415);
      expect(response.json()).toMatchObject({
        code: -1002,
        msg: expect.stringContaining('application/json'),
      });
    }
    const bare = await built.app.inject({
      method: 'POST',
      url: '/admin/price',
      headers: { 'x-admin-token': token },
      payload: Buffer.from('{"symbol":"BTCUSDT","price":"1"}'),
    });
    expect(bare.statusCode).toBe(415);
    expect(accountCount()).toBe(before);
  });

  it('needs the admin token for every change, not for reading', async () => {
    const before = accountCount();
    for (const headers of [{}, { 'x-admin-token': '' }, { 'x-admin-token': `${token}x` }]) {
      const response = await createAccount({ 'content-type': 'application/json', ...headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: -1002, msg: expect.stringContaining('X-Admin-Token') });
    }
    const clear = await built.app.inject({ method: 'DELETE', url: '/admin/faults' });
    expect(clear.statusCode).toBe(401);
    expect(accountCount()).toBe(before);
    expect((await built.app.inject({ method: 'GET', url: '/admin/market' })).statusCode).toBe(200);
    expect(
      (await createAccount({ 'content-type': 'application/json', 'x-admin-token': token })).statusCode,
    ).toBe(200);
    expect(accountCount()).toBe(before + 1);
  });
});

describe('the admin token', () => {
  it('is kept in the data folder, owner-only, and stays across starts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-admin-'));
    try {
      const first = await startPaperExchange({ port: 0, dataDir, historyDays: 1 });
      await first.close();
      const file = path.join(dataDir, 'admin.token');
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.adminToken);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const second = await startPaperExchange({ port: 0, dataDir });
      expect(second.adminToken).toBe(first.adminToken);
      const response = await fetch(`${second.url}/admin/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': second.adminToken },
        body: '{}',
      });
      expect(response.status).toBe(200);
      await second.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('differs for every in-memory exchange', async () => {
    const other = await buildPaperExchange({ seed: 7, historyDays: 1 });
    expect(other.exchange.adminToken).not.toBe(token);
    expect(other.exchange.adminToken.length).toBeGreaterThanOrEqual(32);
    await other.close();
  });
});
