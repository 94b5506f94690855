// The token vault as shipped in pkg/: RFC 9106 / RFC 5869 / NIST GCM known answers through the compiled
// primitives, the envelope vectors (recomputed here with independent implementations: hash-wasm and Node's
// crypto), and every failure mode the SPA relies on (WrongPin vs Malformed, SPEC.md §4 trade token level).
import crypto from 'node:crypto';
import { argon2id } from 'hash-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  openToken,
  rekeyToken,
  sealToken,
  unlockVault,
  type KdfParams,
} from '../../shared-core/trade-core-node';
import { codeOf, hex, loadRaw, toHex, vectors } from './helpers';

type Named = { name: string };
type Crypto = {
  argon2id: (Named & { password: string; salt: string; secret: string; data: string; tag: string } & Kdf)[];
  hkdf_sha256: (Named & { ikm: string; salt: string; info: string; length: number; okm: string })[];
  aes256gcm: (Named & Record<'key' | 'nonce' | 'plaintext' | 'aad' | 'ciphertext' | 'tag', string>)[];
  envelope: (Named &
    Kdf &
    Record<
      'pin' | 'platform_uuid' | 'user_trade_token_key' | 'plaintext' | 'salt' | 'nonce' | 'envelope',
      string
    >)[];
};
type Kdf = { memory_kib: number; iterations: number; parallelism: number };

const v = vectors<Crypto>('crypto.json');
const PLATFORM = '0b9c6c4e-1f7a-4c7e-9d61-2f1e7a3b5c4d';
const KEY = 'utk-7f3a9c2e';
const CHEAP: KdfParams = { memoryKib: 64, iterations: 1, parallelism: 1 };
let raw: Awaited<ReturnType<typeof loadRaw>>;

beforeAll(async () => {
  raw = await loadRaw();
});

describe('primitives match their standards', () => {
  it.each(v.argon2id)('$name', (t) => {
    const out = raw.argon2idHash(
      hex(t.password),
      hex(t.salt),
      hex(t.secret),
      hex(t.data),
      t.memory_kib,
      t.iterations,
      t.parallelism,
      32,
    );
    expect(toHex(out)).toBe(t.tag);
  });
  it.each(v.hkdf_sha256)('$name', (t) => {
    expect(toHex(raw.hkdfSha256(hex(t.ikm), hex(t.salt), hex(t.info), t.length))).toBe(t.okm);
  });
  it.each(v.aes256gcm)('$name', (t) => {
    const out = raw.aes256GcmEncrypt(hex(t.key), hex(t.nonce), hex(t.plaintext), hex(t.aad));
    expect(toHex(out)).toBe(t.ciphertext + t.tag);
  });
});

describe('envelope v1', () => {
  it.each(v.envelope)('opens the vector: $name', (t) => {
    expect(openToken(t.envelope, t.pin, t.platform_uuid, t.user_trade_token_key)).toBe(t.plaintext);
  });

  it.each(v.envelope)('is reproduced by independent primitives: $name', async (t) => {
    const salt = hex(t.salt);
    const a = await argon2id({
      password: t.pin,
      salt,
      parallelism: t.parallelism,
      iterations: t.iterations,
      memorySize: t.memory_kib,
      hashLength: 32,
      outputType: 'binary',
    });
    const ikm = Buffer.concat([a, Buffer.from(t.user_trade_token_key)]);
    const info = Buffer.from(`signaldesk/trade-token/v1/${t.platform_uuid}`);
    const key = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, 32));
    const cipher = crypto
      .createCipheriv('aes-256-gcm', key, hex(t.nonce))
      .setAAD(Buffer.from(t.platform_uuid));
    const ct = Buffer.concat([cipher.update(t.plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
    const body = `v1$argon2id$m=${t.memory_kib},t=${t.iterations},p=${t.parallelism}$${b64(salt)}$${b64(hex(t.nonce))}$${b64(ct)}`;
    const check = b64(crypto.createHash('sha256').update(body).digest().subarray(0, 4));
    expect(`${body}$${check}`).toBe(t.envelope);
  });

  it('seals with the OWASP default cost and fresh randomness, and round-trips', () => {
    const a = sealToken('{"api_secret":"s"}', '12345', PLATFORM, KEY);
    const b = sealToken('{"api_secret":"s"}', '12345', PLATFORM, KEY);
    expect(a.startsWith('v1$argon2id$m=19456,t=2,p=1$')).toBe(true);
    expect(a).not.toBe(b);
    expect(openToken(a, '12345', PLATFORM, KEY)).toBe('{"api_secret":"s"}');
  });

  it('round-trips any text with explicit parameters', () => {
    for (const text of ['', 'ключ 🔑 秘密', 'x'.repeat(5000)]) {
      expect(openToken(sealToken(text, '12345', PLATFORM, KEY, CHEAP), '12345', PLATFORM, KEY)).toBe(text);
    }
  });

  it('fails as WrongPin for a wrong PIN, platform_uuid or user key', () => {
    const env = sealToken('secret', '12345', PLATFORM, KEY, CHEAP);
    expect(codeOf(() => openToken(env, '12346', PLATFORM, KEY))).toBe('WrongPin');
    expect(codeOf(() => openToken(env, '12345', PLATFORM.replace('d', 'e'), KEY))).toBe('WrongPin');
    expect(codeOf(() => openToken(env, '12345', PLATFORM, `${KEY}x`))).toBe('WrongPin');
    expect(codeOf(() => unlockVault(env, '00000', PLATFORM, KEY))).toBe('WrongPin');
  });

  it('fails as Malformed for a flipped byte anywhere, truncation or garbage', () => {
    const env = sealToken('{"api_secret":"s"}', '12345', PLATFORM, KEY, CHEAP);
    for (let i = 0; i < env.length; i++) {
      const flipped = env.slice(0, i) + String.fromCharCode(env.charCodeAt(i) ^ 1) + env.slice(i + 1);
      expect(
        codeOf(() => openToken(flipped, '12345', PLATFORM, KEY)),
        `byte ${i}`,
      ).toBe('Malformed');
      expect(
        codeOf(() => openToken(env.slice(0, i), '12345', PLATFORM, KEY)),
        `length ${i}`,
      ).toBe('Malformed');
    }
    for (const garbage of ['', 'garbage', '{"api_key":"k"}', '$$$$$$', `${env}A`, 'v1'.repeat(600_000)]) {
      expect(codeOf(() => openToken(garbage, '12345', PLATFORM, KEY))).toBe('Malformed');
    }
  });

  it('rekeys to a new PIN and the default cost', () => {
    const old = sealToken('token', '11111', PLATFORM, KEY, CHEAP);
    const renewed = rekeyToken(old, '11111', '22222', PLATFORM, KEY);
    expect(renewed.startsWith('v1$argon2id$m=19456,t=2,p=1$')).toBe(true);
    expect(openToken(renewed, '22222', PLATFORM, KEY)).toBe('token');
    expect(codeOf(() => openToken(renewed, '11111', PLATFORM, KEY))).toBe('WrongPin');
    expect(codeOf(() => rekeyToken(old, '99999', '22222', PLATFORM, KEY))).toBe('WrongPin');
  });

  it('unlocks once, opens and reseals without the PIN, and refuses use after free()', () => {
    const env = sealToken('first', '12345', PLATFORM, KEY, CHEAP);
    const handle = unlockVault(env, '12345', PLATFORM, KEY);
    expect([handle.open(), handle.open(), handle.envelope]).toEqual(['first', 'first', env]);
    const resealed = handle.reseal('second');
    expect(handle.open()).toBe('second');
    expect(openToken(resealed, '12345', PLATFORM, KEY)).toBe('second');
    handle.free();
    handle.free();
    expect(handle.closed).toBe(true);
    expect(codeOf(() => handle.open())).toBe('HandleClosed');
  });

  it('rejects empty secrets and out-of-range parameters as InvalidArgument', () => {
    expect(codeOf(() => sealToken('x', '', PLATFORM, KEY, CHEAP))).toBe('InvalidArgument');
    expect(codeOf(() => sealToken('x', '12345', PLATFORM, KEY, { ...CHEAP, memoryKib: 262_145 }))).toBe(
      'InvalidArgument',
    );
    const error = (() => {
      try {
        openToken('garbage', '12345', PLATFORM, KEY);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect(error?.name).toBe('TradeCoreError');
    expect(error?.message).toMatch(/malformed trade token envelope/);
  });
});
