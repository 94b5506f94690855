// Request signing as shipped in pkg/: Binance's official HMAC example to the byte, RFC 4231 and RFC 8032
// vectors, and agreement with Node's own HMAC for arbitrary queries (SPEC.md §7 client-mode calls).
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildQuery,
  buildSignedQuery,
  createEd25519Signer,
  createSigner,
  ed25519Sign,
  hmacSign,
} from '../../shared-core/trade-core-node';
import { codeOf, hex, loadRaw, toHex, vectors } from './helpers';

type Binance = {
  name: string;
  secret: string;
  params: [string, string][];
  recv_window: number;
  timestamp: number;
};
type Doc = {
  binance_hmac: (Binance & { query: string; signature: string })[];
  hmac_sha256: { name: string; key: string; data: string; mac: string }[];
  ed25519: { name: string; seed: string; public_key: string; message: string; signature: string }[];
  pkcs8_ed25519_prefix: string;
};

const v = vectors<Doc>('crypto.json');
const pkcs8 = (seed: string) => Buffer.from(hex(v.pkcs8_ed25519_prefix + seed)).toString('base64');
let raw: Awaited<ReturnType<typeof loadRaw>>;

beforeAll(async () => {
  raw = await loadRaw();
});

describe('HMAC-SHA256 (Binance HMAC keys)', () => {
  it.each(v.binance_hmac)('reproduces $name', (t) => {
    const timing = { timestamp: t.timestamp, recvWindow: t.recv_window };
    expect(buildQuery(t.params, timing)).toBe(t.query);
    expect(hmacSign(t.secret, t.query)).toBe(t.signature);
    expect(buildSignedQuery(t.params, { ...timing, secret: t.secret })).toBe(
      `${t.query}&signature=${t.signature}`,
    );
    const signer = createSigner(t.secret);
    expect(signer.sign(t.query.slice(0, 40), t.query.slice(40))).toBe(t.signature);
    signer.free();
  });

  it.each(v.hmac_sha256)('matches $name', (t) => {
    expect(raw.hmacSha256HexBytes(hex(t.key), hex(t.data)).slice(0, t.mac.length)).toBe(t.mac);
  });

  it('agrees with node:crypto on arbitrary queries and bodies', () => {
    const signer = createSigner('s3cr3t-ключ');
    for (let i = 0; i < 200; i++) {
      const query = crypto.randomBytes(i).toString('base64url');
      const body = `quantity=${i}&note=${'é'.repeat(i % 7)}`;
      const want = crypto
        .createHmac('sha256', 's3cr3t-ключ')
        .update(query + body)
        .digest('hex');
      expect(signer.sign(query, body)).toBe(want);
      expect(hmacSign('s3cr3t-ключ', query, body)).toBe(want);
    }
    signer.free();
  });

  it('percent-encodes values, accepts numbers and booleans, and rejects reserved names', () => {
    const q = buildQuery(
      [
        ['note', 'a b&c=d/é~'],
        ['quantity', 0.1],
        ['reduceOnly', true],
      ],
      { timestamp: 1 },
    );
    expect(q).toBe('note=a%20b%26c%3Dd%2F%C3%A9~&quantity=0.1&reduceOnly=true&timestamp=1');
    expect(codeOf(() => buildQuery([['signature', 'x']], { timestamp: 1 }))).toBe('InvalidArgument');
    expect(codeOf(() => buildQuery([], { timestamp: 1.5 }))).toBe('InvalidArgument');
    expect(codeOf(() => buildQuery([], { timestamp: 1, recvWindow: 60_001 }))).toBe('InvalidArgument');
  });
});

describe('Ed25519 (Binance Ed25519 keys)', () => {
  it.each(v.ed25519)('matches $name', (t) => {
    const signature = ed25519Sign(pkcs8(t.seed), hex(t.message));
    expect(toHex(Buffer.from(signature, 'base64'))).toBe(t.signature);
    const signer = createEd25519Signer(pkcs8(t.seed));
    expect(toHex(Buffer.from(signer.publicKey, 'base64'))).toBe(t.public_key);
    signer.free();
  });

  it('signs a query that node:crypto verifies, with the encoded signature last', () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const signer = createEd25519Signer(pem);
    const signed = signer.signedQuery([['symbol', 'BTCUSDT']], {
      timestamp: 1591702613943,
      recvWindow: 10000,
    });
    const [query, signature] = signed.split('&signature=') as [string, string];
    expect(query).toBe('symbol=BTCUSDT&recvWindow=10000&timestamp=1591702613943');
    expect(
      crypto.verify(
        null,
        Buffer.from(query),
        publicKey,
        Buffer.from(decodeURIComponent(signature), 'base64'),
      ),
    ).toBe(true);
    expect(signer.sign(query)).toBe(decodeURIComponent(signature));
    signer.free();
  });

  it('rejects a key that is not PKCS#8 Ed25519 as InvalidKey', () => {
    expect(codeOf(() => ed25519Sign('not a key', 'x'))).toBe('InvalidKey');
  });
});
