// Issue 17, finding 1: a copy of the database files alone must reveal no exchange secret. The server runs on
// a PGlite data folder with its master key kept apart (as SIGNALDESK_MASTER_KEY); a trader stores a server-mode
// token. Then the folder is copied, the copy opened with plain PGlite (no master key), and every value of every
// table read out. An attacker holding that copy tries every value (as text, base64url and hex) as the access
// token signing key — the running server must refuse every forged token — and opens the server-mode envelope
// with the real PIN and the user key (as a forged session's GET /auth/me/ used to hand out) — it must not open.
// Envelopes stored before the server-mode layer existed are sealed at start, and still open with the PIN.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradeTokenLevel } from '../../contracts';
import { buildApp } from '../../server/src/app';
import { openDatabase, type DatabaseHandle } from '../../server/src/db';
import { tradeTokens } from '../../server/src/db/schema';
import { MarketFeed } from '../../server/src/engine/market-feed';
import { initTradeCore, openToken, sealToken } from '../../shared-core/trade-core-node';
import { BINANCE_DEMO_PLATFORM_UUID, BINANCE_PLATFORM_UUID } from '../../server/src/services/platforms';
import { SecretBox } from '../../server/src/services/secret-box';
import { signUpAndLogIn, storeTradeTokenUnchecked } from '../../server/test/test-app';

const PIN = '13579';
const API_SECRET = `dump-secret-${randomBytes(8).toString('hex')}`;
const LEGACY_SECRET = `legacy-secret-${randomBytes(8).toString('hex')}`;
const master = randomBytes(32);
const silent = { warn: () => undefined };

let dataDir = '';
let copyDir = '';
let running: { app: Awaited<ReturnType<typeof buildApp>>['app']; database: DatabaseHandle } | undefined;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
let userKey = '';
let dump: { table: string; row: Record<string, unknown> }[] = [];

async function start() {
  const database = await openDatabase({ dataDir });
  const feed = new MarketFeed('http://127.0.0.1:9', 'ws://127.0.0.1:9', [], silent);
  const { app } = await buildApp({ feed, db: database.db, secretBox: new SecretBox(master) });
  await app.ready();
  running = { app, database };
  return app;
}

async function stop() {
  await running?.app.close();
  await running?.database.close();
  running = undefined;
}

function post(url: string, payload: object) {
  return running!.app.inject({ method: 'POST', url, payload, headers: trader.headers });
}

/** Every row of every table of a PGlite folder, read without the server (what a stolen copy gives). */
async function readAll(folder: string) {
  const pg = new PGlite(folder);
  try {
    const tables = await pg.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
    );
    const rows: { table: string; row: Record<string, unknown> }[] = [];
    for (const { schema, name } of tables.rows) {
      const result = await pg.query<{ row: Record<string, unknown> }>(
        `SELECT row_to_json(t) AS row FROM "${schema}"."${name}" t`,
      );
      for (const { row } of result.rows) rows.push({ table: `${schema}.${name}`, row });
    }
    return rows;
  } finally {
    await pg.close();
  }
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Every way an attacker would read a stored text as key bytes. */
function keyCandidates(text: string): Buffer[] {
  const keys = [Buffer.from(text, 'utf8')];
  const body = text.startsWith('sb1.') ? text.slice(4) : text;
  if (/^[A-Za-z0-9_-]+={0,2}$/.test(body)) keys.push(Buffer.from(body, 'base64url'));
  if (/^([0-9a-f]{2})+$/i.test(text)) keys.push(Buffer.from(text, 'hex'));
  return keys.filter((key) => key.length > 0);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function forge(key: Buffer, header: object, claims: object): string {
  const signingInput = `${b64(header)}.${b64(claims)}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}

beforeAll(async () => {
  await initTradeCore();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-dump-'));
  copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-dump-copy-'));

  // 1. A trader with a server-mode token, and a token row as an earlier version stored it (no server layer).
  const app = await start();
  trader = await signUpAndLogIn(app);
  userKey = (await app.inject({ method: 'GET', url: '/api/auth/me/', headers: trader.headers })).json().result
    .user_trade_token_key;
  // Stored as create_trade_token stores a key the exchange took (no exchange runs here; issue 36).
  await storeTradeTokenUnchecked({ db: running!.database.db, app }, trader.user_uuid, {
    platform_uuid: BINANCE_PLATFORM_UUID,
    pin_code: PIN,
    api_key: 'dump-key',
    api_secret: API_SECRET,
  });
  const content = {
    trade_token_uuid: crypto.randomUUID(),
    created_at: new Date().toISOString(),
    message: 'created new token',
    api_key: 'legacy-key',
    api_secret: LEGACY_SECRET,
  };
  await running!.database.db.insert(tradeTokens).values({
    trade_token_uuid: content.trade_token_uuid,
    user_uuid: trader.user_uuid,
    platform_uuid: BINANCE_DEMO_PLATFORM_UUID,
    envelope: sealToken(JSON.stringify(content), PIN, BINANCE_DEMO_PLATFORM_UUID, userKey),
    message: content.message,
    level: TradeTokenLevel.TRADE_AVAILABLE,
    created_at: new Date(),
  });
  await stop();

  // 2. The next start seals the old row; then the files are copied while the server is down.
  await start();
  await stop();
  fs.cpSync(path.join(dataDir, 'pglite'), copyDir, { recursive: true });
  dump = await readAll(copyDir);

  // 3. The server runs again on its own folder, with its master key, for the attacker's forged requests.
  await start();
}, 180_000);

afterAll(async () => {
  await stop();
  for (const dir of [dataDir, copyDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a copy of the database files alone', () => {
  it('holds the token rows, but neither API secret nor the user key in the clear', () => {
    const tokens = dump.filter(({ table }) => table === 'public.trade_tokens');
    expect(tokens.length).toBe(2);
    const text = JSON.stringify(dump);
    for (const secret of [API_SECRET, LEGACY_SECRET, userKey]) expect(text).not.toContain(secret);
  });

  it('holds no value that signs an access token the server accepts', async () => {
    const me = (token: string) =>
      running!.app.inject({
        method: 'GET',
        url: '/api/auth/me/',
        headers: { authorization: `bearer ${token}` },
      });
    // The control: a token the server issued is accepted, so a refusal below is the key's doing.
    expect((await me(trader.accessToken)).statusCode).toBe(200);
    const realHeader = JSON.parse(Buffer.from(trader.accessToken.split('.')[0]!, 'base64url').toString());
    const sids = dump
      .filter(({ table }) => table === 'public.refresh_tokens')
      .map(({ row }) => row.family_uuid);
    const now = Math.floor(Date.now() / 1000);
    const headers = [{ alg: 'HS256', typ: 'JWT' }, realHeader];
    const values = [...new Set(dump.flatMap(({ row }) => stringsOf(row)))];
    let tried = 0;
    for (const value of values) {
      for (const key of keyCandidates(value)) {
        for (const header of headers) {
          const claims = {
            sub: trader.user_uuid,
            sid: sids[0],
            iat: now,
            exp: now + 600,
            jti: `dump-${tried}`,
          };
          const response = await me(forge(key, header, claims));
          tried += 1;
          expect(response.statusCode, `${value.slice(0, 40)} as a key`).toBe(401);
        }
      }
    }
    console.info(`dump: ${dump.length} rows, ${values.length} values, ${tried} forged tokens, all refused`);
    expect(tried).toBeGreaterThan(100);
  });

  it('holds no server-mode envelope that opens with the real PIN and the user key', () => {
    const sealedUserKey = dump.find(({ table }) => table === 'public.users')?.row
      .user_trade_token_key as string;
    const rows = dump.filter(({ table }) => table === 'public.trade_tokens').map(({ row }) => row);
    for (const row of rows) {
      const envelope = row.envelope as string;
      expect(envelope.startsWith('sb1.')).toBe(true);
      for (const key of [userKey, sealedUserKey]) {
        expect(() => openToken(envelope, PIN, row.platform_uuid as string, key)).toThrow();
      }
    }
  });

  it('leaves the server able to open both tokens with the PIN: no trader enters keys again', async () => {
    for (const platform_uuid of [BINANCE_PLATFORM_UUID, BINANCE_DEMO_PLATFORM_UUID]) {
      const answer = await post('/api/trade_token/get_trade_token/', { platform_uuid, pin_code: PIN });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().result.level).toBe(TradeTokenLevel.TRADE_AVAILABLE);
    }
    const [legacy] = await running!.database.db
      .select()
      .from(tradeTokens)
      .where(eq(tradeTokens.platform_uuid, BINANCE_DEMO_PLATFORM_UUID));
    expect(legacy?.envelope.startsWith('sb1.')).toBe(true);
  });
});
