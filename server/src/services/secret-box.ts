// Seals server-held secrets that must not be readable from a database dump alone (DESIGN.md "Server mode":
// "a database dump alone reveals no exchange secret"). The per-user user_trade_token_key is one of the two
// inputs of a server-mode token envelope; stored in the clear beside the envelopes, only the 5-character PIN
// would stand between a dump and the exchange keys. So it is stored sealed with AES-256-GCM under a master
// key that lives outside the database: SIGNALDESK_MASTER_KEY (shared by every instance on one PostgreSQL),
// else the file SIGNALDESK_MASTER_KEY_FILE, else DATA_DIR/master.key (mode 0600) created on first start.
// Every other server-only key (access-token signing, the server-mode envelope layer) is derived from the
// master key with HKDF, one purpose string each, so nothing that signs or opens lives in the database.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PREFIX = 'sb1.';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** HKDF info prefix: keys for one purpose never equal keys for another, nor the master key. */
const DERIVE_INFO = 'signaldesk/v1/';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`the master key must be ${KEY_BYTES} bytes`);
  }

  /**
   * 'sb1.' + base64url(nonce ‖ ciphertext ‖ tag). `boundTo` is authenticated, not stored: the text opens only
   * with the same value (a sealed value moved to another row does not open there).
   */
  seal(plaintext: string, boundTo?: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    if (boundTo !== undefined) cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** Opens what seal() wrote; throws when the text was altered, sealed under another key or bound elsewhere. */
  open(sealed: string, boundTo?: string): string {
    if (!isSealed(sealed)) throw new Error('not a sealed secret');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES));
    if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const body = raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }

  /** A 256-bit key for one purpose, HKDF-SHA256 of the master key; the same on every instance sharing it. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), DERIVE_INFO + purpose, KEY_BYTES));
  }

  /**
   * A keyed digest of `text` for lookups (HMAC-SHA256 under the key of `purpose`): equal texts give equal
   * digests, and a database dump alone cannot test a guess against one.
   */
  digest(purpose: string, text: string): string {
    return createHmac('sha256', this.deriveKey(`digest ${purpose}`))
      .update(text)
      .digest('base64url');
  }

  /** A box under the key of one purpose (deriveKey). */
  derive(purpose: string): SecretBox {
    return new SecretBox(this.deriveKey(purpose));
  }
}

/** True for text in seal()'s format. */
function isSealed(text: string): boolean {
  return text.startsWith(PREFIX);
}

export interface MasterKeySource {
  key: Buffer;
  /** The file the key was read from (undefined: the environment, or a random key for this process). */
  file?: string;
}

function readKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails if the file exists, so two processes starting together keep the first key.
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte key`);
  return key;
}

/**
 * The master key: SIGNALDESK_MASTER_KEY (32 bytes, base64 or base64url) when set; else the file named by
 * SIGNALDESK_MASTER_KEY_FILE; else DATA_DIR/master.key; a file is created (0600) on first start. With none of
 * them (tests on an in-memory database) a random key for this process.
 */
export function findMasterKey(options: { env?: NodeJS.ProcessEnv; dataDir?: string }): MasterKeySource {
  const fromEnv = options.env?.SIGNALDESK_MASTER_KEY;
  if (fromEnv) {
    const key = Buffer.from(fromEnv, 'base64url');
    if (key.length !== KEY_BYTES) throw new Error(`SIGNALDESK_MASTER_KEY must encode ${KEY_BYTES} bytes`);
    return { key };
  }
  const named = options.env?.SIGNALDESK_MASTER_KEY_FILE;
  if (named) {
    const file = path.resolve(named);
    return { key: readKeyFile(file), file };
  }
  if (!options.dataDir) return { key: randomBytes(KEY_BYTES) };
  const file = path.join(options.dataDir, 'master.key');
  return { key: readKeyFile(file), file };
}

export function loadMasterKey(options: { env?: NodeJS.ProcessEnv; dataDir?: string }): Buffer {
  return findMasterKey(options).key;
}

/**
 * True when the key file sits inside DATA_DIR: then one copy of DATA_DIR (a backup) holds the database and
 * the key that opens what it keeps sealed, together.
 */
export function keyFileInsideDataDir(file: string | undefined, dataDir: string): boolean {
  if (!file) return false;
  const real = (at: string) => {
    try {
      return fs.realpathSync(at);
    } catch {
      return path.resolve(at);
    }
  };
  const relative = path.relative(real(dataDir), real(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

export const KEY_INSIDE_DATA_DIR_WARNING =
  'master key: the key file is inside DATA_DIR, so one copy of DATA_DIR holds the database and the key ' +
  'that opens it; set SIGNALDESK_MASTER_KEY or SIGNALDESK_MASTER_KEY_FILE outside DATA_DIR (README)';

/** Said at start: a key file inside DATA_DIR defeats "a database dump alone reveals no exchange secret". */
export function warnWhenKeyInsideDataDir(
  source: MasterKeySource,
  dataDir: string,
  log: { warn(obj: object, msg: string): void },
): void {
  if (keyFileInsideDataDir(source.file, dataDir))
    log.warn({ file: source.file }, KEY_INSIDE_DATA_DIR_WARNING);
}

/**
 * The key the embedded paper exchange seals its accounts' secrets under in DATA_DIR/paper-exchange (issue 38
 * item 2; paper-exchange/src/secret-seal.ts): derived from the master key, which that folder does not hold.
 */
export function paperExchangeSealKey(box: SecretBox): Buffer {
  return box.deriveKey('paper-exchange secrets');
}
