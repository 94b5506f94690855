// Durable state: nothing acknowledged is lost when the process dies (kill -9) and starts again.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Exchange } from '../src/exchange.js';
import { D } from '../src/num.js';
import { parseOrderRequest } from '../src/order-params.js';
import { submitOrder } from '../src/orders.js';
import { TestClient } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-exchange-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(`${dir}.key`, { force: true });
  }
});

describe("the accounts' secrets on disk (issue 38 item 2)", () => {
  it('are sealed in the journal and the snapshot; the key opens them after a restart; the folder alone does not', () => {
    const dataDir = tempDir();
    const sealKey = randomBytes(32);
    const first = new Exchange({ dataDir, seed: 9, historyDays: 1, sealKey });
    const { account, apiSecret } = first.createAccount('100');
    first.commit();
    first.close();
    // The journal (the account as created) and, after a restart, the snapshot.
    const again = new Exchange({ dataDir, seed: 9, sealKey });
    expect(again.accounts.findByApiKey(account.apiKey)?.secret).toBe(apiSecret);
    again.createAccount('5');
    again.commit();
    again.close();
    for (const name of ['journal.jsonl', 'snapshot.json']) {
      const text = fs.readFileSync(path.join(dataDir, name), 'utf8');
      expect(text, name).not.toContain(apiSecret);
      expect(text, name).not.toContain(Buffer.from(apiSecret).toString('base64'));
    }
    expect(fs.readFileSync(path.join(dataDir, 'snapshot.json'), 'utf8')).toContain(account.apiKey);
    // Without the key, or with another, the exchange does not start on that folder.
    expect(() => new Exchange({ dataDir, seed: 9 })).toThrow(/seal key/);
    expect(() => new Exchange({ dataDir, seed: 9, sealKey: randomBytes(32) })).toThrow();
  });

  it('a folder from before sealing is read, and sealed at its next start', () => {
    const dataDir = tempDir();
    const plain = new Exchange({ dataDir, seed: 9, historyDays: 1 });
    const { account, apiSecret } = plain.createAccount('100');
    plain.commit();
    plain.close();
    const files = ['journal.jsonl', 'snapshot.json'].map((name) =>
      fs.readFileSync(path.join(dataDir, name), 'utf8'),
    );
    expect(files.join('\n')).toContain(apiSecret);
    const sealKey = randomBytes(32);
    const sealed = new Exchange({ dataDir, seed: 9, sealKey });
    expect(sealed.accounts.findByApiKey(account.apiKey)?.secret).toBe(apiSecret);
    sealed.close();
    for (const name of ['journal.jsonl', 'snapshot.json']) {
      expect(fs.readFileSync(path.join(dataDir, name), 'utf8'), name).not.toContain(apiSecret);
    }
  });
});

describe('journal and snapshot', () => {
  it(
    'restores accounts, positions, orders, trades and counters after an abandoned process',
    { timeout: 60_000 },
    () => {
      const dataDir = tempDir();
      const first = new Exchange({ dataDir, seed: 9, historyDays: 2 });
      const { account, apiSecret } = first.createAccount('2500');
      first.setPrice('BTCUSDT', new D('50000.0'));
      const params = new Map(
        Object.entries({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' }),
      );
      const context = {
        dualSidePosition: false,
        algo: false,
        legacyConditional: false,
        markOf: () => new D('50000.0'),
      };
      submitOrder(first.core, account, parseOrderRequest(params, context));
      const limit = new Map(
        Object.entries({
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          timeInForce: 'GTC',
          quantity: '0.010',
          price: '45000.0',
        }),
      );
      const { order: resting } = submitOrder(first.core, account, parseOrderRequest(limit, context));
      first.commit();
      const wallet = account.walletBalance;
      // No close(): the process is gone, only what was fsync'd remains. A torn last line must be ignored.
      fs.appendFileSync(path.join(dataDir, 'journal.jsonl'), '[{"table":"accounts","key":"1","val');

      const second = new Exchange({ dataDir, seed: 1234 });
      expect(second.seed).toBe(9);
      const restored = second.accounts.findByApiKey(account.apiKey);
      expect(restored).toMatchObject({ walletBalance: wallet, secret: apiSecret });
      expect(second.core.positionsOf(account.id)[0]).toMatchObject({
        symbol: 'BTCUSDT',
        positionAmt: '0.01',
      });
      expect(second.core.openOrders.get(resting.orderId)).toMatchObject({ status: 'NEW', price: '45000' });
      expect(second.store.tables.trades.size).toBe(1);
      expect(second.market.mark('BTCUSDT').toString()).toBe('50000');
      const next = second.createAccount('1');
      expect(next.account.id).toBe(account.id + 1);
      second.close();
    },
  );
});

function startProcess(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'paper-exchange/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PAPER_EXCHANGE_PORT: '0',
      PAPER_EXCHANGE_DATA_DIR: dataDir,
      PAPER_EXCHANGE_SEED: '5',
    },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /paper exchange: (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

describe('file modes', () => {
  it('keeps the folder 0700 and the state files and the admin token 0600, even under umask 000', () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o777);
    const previous = process.umask(0);
    try {
      const exchange = new Exchange({ dataDir, seed: 9, historyDays: 1 });
      exchange.createAccount('100');
      exchange.commit();
      exchange.close();
      const again = new Exchange({ dataDir, seed: 9 });
      expect(again.adminToken).toBe(exchange.adminToken);
      again.close();
    } finally {
      process.umask(previous);
    }
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(['snapshot.json', 'journal.jsonl', 'admin.token']));
    for (const name of files) expect(fs.statSync(path.join(dataDir, name)).mode & 0o777, name).toBe(0o600);
  });
});

describe('kill -9', () => {
  it('loses no position, order or balance acknowledged before the kill', { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const first = await startProcess(dataDir);
    let keys: { api_key: string; api_secret: string } | undefined;
    let algoId: unknown;
    try {
      // The process keeps its admin token in its data folder (admin-guard.ts), where its owner reads it.
      const headers = {
        'Content-Type': 'application/json',
        'X-Admin-Token': fs.readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim(),
      };
      keys = await (
        await fetch(`${first.url}/admin/accounts`, { method: 'POST', headers, body: '{"balance":"3000"}' })
      ).json();
      if (!keys) throw new Error('no account');
      const client = TestClient.hmac(first.url, keys.api_key, keys.api_secret);
      await fetch(`${first.url}/admin/price`, {
        method: 'POST',
        headers,
        body: '{"symbol":"ETHUSDT","price":"2000.00"}',
      });
      await client.signed('POST', '/fapi/v1/marginType', { symbol: 'ETHUSDT', marginType: 'ISOLATED' });
      const order = await client.signed('POST', '/fapi/v1/order', {
        symbol: 'ETHUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '0.500',
      });
      expect(order.status).toBe(200);
      const algo = await client.signed<Record<string, unknown>>('POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'ETHUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        triggerPrice: '1900.00',
        quantity: '0.500',
        reduceOnly: 'true',
      });
      algoId = algo.body.algoId;
    } finally {
      first.child.kill('SIGKILL');
    }
    if (!keys) throw new Error('no account');
    const second = await startProcess(dataDir);
    try {
      const again = TestClient.hmac(second.url, keys.api_key, keys.api_secret);
      const account = await again.signed<Record<string, string>>('GET', '/fapi/v2/account');
      expect(account.status).toBe(200);
      const risk = await again.signed<Record<string, string>[]>('GET', '/fapi/v2/positionRisk', {
        symbol: 'ETHUSDT',
      });
      expect(risk.body[0]).toMatchObject({ positionAmt: '0.500', marginType: 'isolated' });
      const entry = D(risk.body[0]?.entryPrice as string);
      const fee = entry.times('0.5').times('0.0005');
      expect(account.body.totalWalletBalance).toBe(D(3000).minus(fee).toFixed(8));
      const algo = await again.signed<Record<string, unknown>>('GET', '/fapi/v1/algoOrder', {
        algoId: String(algoId),
      });
      expect(algo.body).toMatchObject({ algoStatus: 'NEW', triggerPrice: '1900.00' });
    } finally {
      second.child.kill('SIGKILL');
    }
  });
});
