// The accounts' secrets on disk (issue 38 item 2): the journal and the snapshot hold every paper account's API
// secret, the house account's included, so a copy of the data folder alone would trade any account. They are
// sealed with AES-256-GCM under a key kept outside the data folder — the embedded exchange gets one derived from
// Signaldesk's master key; `npm run paper-exchange` reads PAPER_EXCHANGE_SEAL_KEY (32 bytes, base64) or the file
// PAPER_EXCHANGE_SEAL_KEY_FILE, else a key file beside the data folder (README). The account's API key is the
// sealed text's associated data, so a secret moved to another account does not open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';

const PREFIX = 'pe1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SEAL_KEY_BYTES = 32;

export interface SecretSeal {
  seal(secret: string, apiKey: string): string;
  /** The secret; a text from before sealing (no prefix) is answered as it is. Throws for another key. */
  open(stored: string, apiKey: string): string;
}

export const isSealedSecret = (stored: string) => stored.startsWith(PREFIX);

export function secretSeal(key: Buffer): SecretSeal {
  if (key.length !== SEAL_KEY_BYTES)
    throw new Error(`the paper exchange's seal key must be ${SEAL_KEY_BYTES} bytes`);
  return {
    seal(secret, apiKey) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(apiKey));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
    },
    open(stored, apiKey) {
      if (!isSealedSecret(stored)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(apiKey));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/**
 * The standalone exchange's key: PAPER_EXCHANGE_SEAL_KEY, else the file PAPER_EXCHANGE_SEAL_KEY_FILE, else
 * `<data folder>.key` beside (never inside) the data folder, made (0600) on first start.
 */
export function standaloneSealKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const fromEnv = env.PAPER_EXCHANGE_SEAL_KEY;
  if (fromEnv) return Buffer.from(fromEnv, 'base64');
  const file = env.PAPER_EXCHANGE_SEAL_KEY_FILE || `${dataDir.replace(/[\\/]+$/, '')}.key`;
  if (!fs.existsSync(file))
    fs.writeFileSync(file, randomBytes(SEAL_KEY_BYTES).toString('base64'), { mode: 0o600 });
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}
