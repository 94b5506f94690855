import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  findMasterKey,
  keyFileInsideDataDir,
  KEY_INSIDE_DATA_DIR_WARNING,
  loadMasterKey,
  SecretBox,
  warnWhenKeyInsideDataDir,
} from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  test('opens what it sealed, and the sealed text does not contain the secret', () => {
    const secret = 'a'.repeat(64);
    const sealed = box.seal(secret);
    expect(sealed.startsWith('sb1.')).toBe(true);
    expect(sealed).not.toContain(secret);
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed); // a fresh nonce every time
  });

  test('binds a sealed value to what it was sealed for, when asked', () => {
    const sealed = box.seal('secret', 'row-1');
    expect(box.open(sealed, 'row-1')).toBe('secret');
    expect(() => box.open(sealed, 'row-2')).toThrow();
    expect(() => box.open(sealed)).toThrow();
  });

  test('derives distinct keys per purpose, the same for every box of one master key', () => {
    const master = randomBytes(32);
    const a = new SecretBox(master).deriveKey('access-token/1');
    expect(new SecretBox(master).deriveKey('access-token/1')).toEqual(a);
    expect(new SecretBox(master).deriveKey('access-token/2')).not.toEqual(a);
    expect(a).not.toEqual(master);
    expect(a.length).toBe(32);
  });

  test('refuses altered text and text sealed under another key', () => {
    const sealed = box.seal('secret');
    // The character before the last is replaced by another one (the last may hold only padding bits).
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.slice(-1);
    expect(() => box.open(flipped)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('0123abcd')).toThrow('not a sealed secret');
  });
});

describe('loadMasterKey', () => {
  test('takes SIGNALDESK_MASTER_KEY when set and refuses a wrong length', () => {
    const key = randomBytes(32);
    expect(loadMasterKey({ env: { SIGNALDESK_MASTER_KEY: key.toString('base64url') } })).toEqual(key);
    expect(() => loadMasterKey({ env: { SIGNALDESK_MASTER_KEY: 'c2hvcnQ' } })).toThrow('32 bytes');
  });

  test('reads or creates SIGNALDESK_MASTER_KEY_FILE (0600), and knows when a key file is inside DATA_DIR', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-key-'));
    try {
      const dataDir = path.join(root, 'data');
      const file = path.join(root, 'secrets', 'master.key');
      const found = findMasterKey({ env: { SIGNALDESK_MASTER_KEY_FILE: file }, dataDir });
      expect(found.file).toBe(file);
      expect(findMasterKey({ env: { SIGNALDESK_MASTER_KEY_FILE: file }, dataDir }).key).toEqual(found.key);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(keyFileInsideDataDir(found.file, dataDir)).toBe(false);
      const inside = findMasterKey({ env: {}, dataDir });
      expect(keyFileInsideDataDir(inside.file, dataDir)).toBe(true);
      expect(keyFileInsideDataDir(undefined, dataDir)).toBe(false);
      expect(keyFileInsideDataDir(path.join(root, 'data-other', 'master.key'), dataDir)).toBe(false);
      const warnings: string[] = [];
      const log = { warn: (_obj: object, msg: string) => warnings.push(msg) };
      warnWhenKeyInsideDataDir(found, dataDir, log);
      warnWhenKeyInsideDataDir({ key: found.key }, dataDir, log);
      expect(warnings).toEqual([]);
      warnWhenKeyInsideDataDir(inside, dataDir, log);
      expect(warnings).toEqual([KEY_INSIDE_DATA_DIR_WARNING]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('creates DATA_DIR/master.key once, readable by the owner only, and keeps it across starts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-key-'));
    try {
      const first = loadMasterKey({ dataDir: dir });
      const second = loadMasterKey({ dataDir: dir });
      expect(second).toEqual(first);
      expect(fs.statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
