// bench/core: the shipped pkg/ in Node against what a developer would otherwise pick, in one run.
//   npx tsx bench/core/run.ts
// Prints the median time per operation of every candidate, the ratio to trade-core, the target
// and the gzipped size of the .wasm. Ratios are "their median ÷ ours" (above 1: trade-core is faster)
// except for the KDF, where the target is stated as "ours ÷ theirs at most 1.5".
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { webcrypto } from 'node:crypto';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import Decimal from 'decimal.js';
import { argon2id } from 'hash-wasm';
import * as core from '../../shared-core/trade-core-node';
import { compare, type Result } from './measure';

const SECRET = '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9';
const PLATFORM = '0b9c6c4e-1f7a-4c7e-9d61-2f1e7a3b5c4d';
const USER_KEY = 'utk-7f3a9c2e-5b1d-4e8a-a6c3-91d04b7e2f58';
const rows: string[][] = [];

function report(title: string, results: Result[], target: string, ok: (r: number[]) => boolean): void {
  const ours = results[0]!.medianUs;
  const ratios = results.map((r) => r.medianUs / ours);
  rows.push([title, '', '', target, ok(ratios) ? 'met' : 'MISSED']);
  for (const [i, r] of results.entries()) {
    rows.push([`  ${r.name}`, r.medianUs.toFixed(r.medianUs < 10 ? 3 : 1), ratios[i]!.toFixed(2), '', '']);
  }
}

/** A 200-byte signed-order query (what a client-mode STOP order signs, SPEC.md §7). */
function query200(): string {
  let q =
    'symbol=BTCUSDT&side=BUY&type=STOP&quantity=0.003&price=59700.00&stopPrice=59700.00&timeInForce=GTC';
  q += '&newClientOrderId=sd-5f0c2a7e-1b&recvWindow=10000&timestamp=1591702613943';
  return q.padEnd(200, 'x');
}

async function signing(): Promise<void> {
  const query = query200();
  const signer = core.createSigner(SECRET);
  const key = utf8ToBytes(SECRET);
  const noblePrepared = hmac.create(sha256, key);
  const subtleKey = await webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const hex = (b: ArrayBuffer) => Buffer.from(b).toString('hex');
  const want = bytesToHex(hmac(sha256, key, utf8ToBytes(query)));
  if (signer.sign(query) !== want || core.hmacSign(SECRET, query) !== want) throw new Error('HMAC mismatch');
  const results = await compare(
    [
      { name: 'trade-core createSigner().sign (key schedule reused)', run: () => signer.sign(query) },
      { name: 'trade-core hmacSign (one shot)', run: () => core.hmacSign(SECRET, query) },
      { name: '@noble/hashes hmac (one shot)', run: () => bytesToHex(hmac(sha256, key, utf8ToBytes(query))) },
      {
        name: '@noble/hashes hmac.create().clone() (key reused)',
        run: () => bytesToHex(noblePrepared.clone().update(utf8ToBytes(query)).digest()),
      },
      {
        name: 'WebCrypto subtle.sign HMAC (async, key imported once)',
        run: async () => hex(await webcrypto.subtle.sign('HMAC', subtleKey, utf8ToBytes(query))),
      },
    ],
    2000,
    25,
  );
  // Like for like: our one-shot against noble's one-shot, our reused signer against noble's reused state.
  report(
    'HMAC-SHA256 of a 200-byte query, µs/op',
    results,
    'no slower than noble',
    (r) => r[2]! / r[1]! >= 1 && r[3]! >= 1,
  );
  signer.free();
}

async function kdf(): Promise<void> {
  const envelope = core.sealToken('{"api_key":"k","api_secret":"s"}', '12345', PLATFORM, USER_KEY);
  const salt = new Uint8Array(16).fill(7);
  const results = await compare(
    [
      {
        name: 'trade-core unlockVault (Argon2id + HKDF + AES-GCM)',
        run: () => core.unlockVault(envelope, '12345', PLATFORM, USER_KEY).free(),
      },
      { name: 'trade-core openToken', run: () => core.openToken(envelope, '12345', PLATFORM, USER_KEY) },
      {
        name: 'hash-wasm argon2id (m=19456 KiB, t=2, p=1, 32 B)',
        run: () =>
          argon2id({
            password: '12345',
            salt,
            parallelism: 1,
            iterations: 2,
            memorySize: 19456,
            hashLength: 32,
            outputType: 'binary',
          }),
      },
    ],
    1,
    15,
    2,
  );
  const ours = results[0]!.medianUs / results[2]!.medianUs;
  report(
    'Argon2id unlock, µs/op',
    results,
    `unlock ≤ 1.5× hash-wasm (is ${ours.toFixed(2)}×)`,
    () => ours <= 1.5,
  );
}

async function orderMath(): Promise<void> {
  const ROUND_DOWN = Decimal.ROUND_DOWN;
  const ROUND_HALF_UP = Decimal.ROUND_HALF_UP;
  const inputs = { margin: '12.5', leverage: '20', entryPrice: '60123.45', stopLossPercent: '12.5' };
  const decimalJs = () => {
    const q = new Decimal(inputs.margin)
      .mul(inputs.leverage)
      .div(inputs.entryPrice)
      .toDecimalPlaces(3, ROUND_DOWN);
    const factor = new Decimal(100).minus(new Decimal(inputs.stopLossPercent).div(inputs.leverage));
    const stop = new Decimal(inputs.entryPrice).mul(factor).div(100).toDecimalPlaces(2, ROUND_HALF_UP);
    return [q.toFixed(3), stop.toFixed(2)];
  };
  // Object literals as a caller writes them (a spread here would cost more than the arithmetic).
  const { margin, leverage, entryPrice, stopLossPercent } = inputs;
  const ours = () => [
    core.orderQuantity({ margin, leverage, entryPrice, quantityPrecision: 3 }),
    core.stopPrice({ direction: 'BUY', entryPrice, stopLossPercent, leverage, pricePrecision: 2 }),
  ];
  if (ours().join() !== decimalJs().join())
    throw new Error(`order math mismatch: ${ours()} vs ${decimalJs()}`);
  const results = await compare(
    [
      { name: 'trade-core orderQuantity + stopPrice', run: ours },
      { name: 'decimal.js (quantity + stop price)', run: decimalJs },
    ],
    5000,
    25,
  );
  report(
    'Order quantity + stop price, µs/op',
    results,
    'at least 3× faster than decimal.js',
    (r) => r[1]! >= 3,
  );
}

function plainScan(buy: Float64Array, sell: Float64Array, price: Float64Array, maxLag: number) {
  const pearson = (x: Float64Array, y: Float64Array) => {
    const n = x.length;
    let mx = 0;
    let my = 0;
    for (let i = 0; i < n; i++) {
      mx += x[i]!;
      my += y[i]!;
    }
    mx /= n;
    my /= n;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (let i = 0; i < n; i++) {
      const dx = x[i]! - mx;
      const dy = y[i]! - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
    return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
  };
  const n = price.length;
  const rows = [];
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    const s = Math.abs(lag);
    const sig = lag >= 0 ? [0, n - s] : [s, n];
    const p = lag >= 0 ? price.subarray(s, n) : price.subarray(0, n - s);
    rows.push({
      lag,
      corr_buy: pearson(buy.subarray(sig[0], sig[1]), p),
      corr_sell: pearson(sell.subarray(sig[0], sig[1]), p),
    });
  }
  return rows;
}

async function correlation(): Promise<void> {
  const n = 8640;
  const price = Float64Array.from(
    { length: n },
    (_, t) => 60000 + 300 * Math.sin(t / 50) + 20 * Math.cos(t * 1.3),
  );
  const buy = Float64Array.from({ length: n }, (_, t) => ((t * 7919) % 13 === 0 ? 1 : 0));
  const sell = Float64Array.from({ length: n }, (_, t) => ((t * 104729) % 11 === 0 ? 1 : 0));
  const check = core.lagScan(buy, sell, price, 48).lag_price_list;
  const plain = plainScan(buy, sell, price, 48);
  if (check.some((r, i) => Math.abs(r.corr_buy - plain[i]!.corr_buy) > 1e-9))
    throw new Error('scan mismatch');
  const results = await compare(
    [
      { name: 'trade-core lagScan', run: () => core.lagScan(buy, sell, price, 48) },
      { name: 'plain TypeScript two-pass Pearson per lag', run: () => plainScan(buy, sell, price, 48) },
    ],
    5,
    21,
  );
  report(
    'Lag scan, 97 lags × 8,640 points × buy/sell, µs/op',
    results,
    'at least 2× faster than plain TS',
    (r) => r[1]! >= 2,
  );
}

async function main(): Promise<void> {
  await core.initTradeCore();
  await signing();
  await kdf();
  await orderMath();
  await correlation();
  const wasm = readFileSync(new URL('../../pkg/trade_core_bg.wasm', import.meta.url));
  const gz = gzipSync(wasm, { level: 9 }).length;
  rows.push([
    'pkg/trade_core_bg.wasm',
    `${wasm.length} B raw`,
    '',
    `≤ 120 KB gzipped (is ${(gz / 1024).toFixed(1)} KiB)`,
    gz <= 120 * 1024 ? 'met' : 'MISSED',
  ]);
  const header = ['comparison / candidate', 'median', 'ratio', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log([line(header), ...rows.map(line)].join('\n'));
  console.log(
    `node ${process.version}; ratio = candidate median ÷ trade-core median (first row of each block)`,
  );
}

await main();
