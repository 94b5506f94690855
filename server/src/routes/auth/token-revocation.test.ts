// Access tokens end with their login (issue 17): logout revokes the login (refresh token family) and every
// access token naming it (`sid`) is refused, on the instance that handled the logout at once and on another
// instance on the same database within SESSION_CHECK_CACHE_MS. Tokens are HS256 JWTs whose key, derived from
// the master key, rotates daily and is named by `kid`.
import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { DatabaseHandle } from '../../db';
import { MarketFeed } from '../../engine/market-feed';
import { initTradeCore } from '../../../../shared-core/trade-core-node';
import { ACCESS_KEY_PERIOD_S } from '../../services/access-token';
import { SecretBox } from '../../services/secret-box';
import { SESSION_CHECK_CACHE_MS } from '../../services/session-check';
import { openTestDatabase, signUpAndLogIn, TEST_PASSWORD, TestClock } from '../../../test/test-app';

const silent = { warn: () => undefined };
let database: DatabaseHandle;
const clock = new TestClock();
const box = new SecretBox(randomBytes(32));
type App = Awaited<ReturnType<typeof buildApp>>['app'];
let a: App;
let b: App;

/** One instance of the server on the shared database, master key and clock. */
async function instance(): Promise<App> {
  const feed = new MarketFeed('http://127.0.0.1:9', 'ws://127.0.0.1:9', [], silent);
  const { app } = await buildApp({ feed, db: database.db, secretBox: box, clock: clock.now });
  await app.ready();
  return app;
}

beforeAll(async () => {
  await initTradeCore();
  database = await openTestDatabase();
  a = await instance();
  b = await instance();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.close();
});

const me = (app: App, authorization: string) =>
  app.inject({ method: 'GET', url: '/api/auth/me/', headers: { authorization } });

describe('logout', () => {
  it('refuses the access token at once on the instance that logged out', async () => {
    const user = await signUpAndLogIn(a);
    expect((await me(a, user.headers.authorization)).statusCode).toBe(200);
    const logout = await a.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      cookies: { refresh_token: user.refreshCookie },
    });
    expect(logout.statusCode).toBe(200);
    const after = await me(a, user.headers.authorization);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'Invalid or expired access token' });
  });

  it('revokes the login of the bearer token when the cookie is not sent', async () => {
    const user = await signUpAndLogIn(a);
    await a.inject({ method: 'POST', url: '/api/auth/logout/', headers: user.headers });
    expect((await me(a, user.headers.authorization)).statusCode).toBe(401);
    const refresh = await a.inject({
      method: 'GET',
      url: '/api/auth/refresh/',
      cookies: { refresh_token: user.refreshCookie },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('reaches another instance on the same database within SESSION_CHECK_CACHE_MS', async () => {
    const user = await signUpAndLogIn(a);
    expect((await me(b, user.headers.authorization)).statusCode).toBe(200);
    await a.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      cookies: { refresh_token: user.refreshCookie },
    });
    expect((await me(a, user.headers.authorization)).statusCode).toBe(401);
    clock.advance(SESSION_CHECK_CACHE_MS);
    expect((await me(b, user.headers.authorization)).statusCode).toBe(401);
  });

  it('leaves the trader’s other logins working', async () => {
    const user = await signUpAndLogIn(a);
    const second = await a.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { user_email: user.user_email, user_password: TEST_PASSWORD },
      remoteAddress: user.remoteAddress,
    });
    const other = `bearer ${second.json().result.access_token as string}`;
    await a.inject({ method: 'POST', url: '/api/auth/logout/', headers: user.headers });
    expect((await me(a, user.headers.authorization)).statusCode).toBe(401);
    expect((await me(a, other)).statusCode).toBe(200);
  });
});

describe('signing keys', () => {
  const periodAt = (ms: number) => Math.floor(ms / 1000 / ACCESS_KEY_PERIOD_S);

  it('names the key in kid; a token made just before the key changes still verifies after it', async () => {
    const periodMs = ACCESS_KEY_PERIOD_S * 1000;
    clock.nowMs = (periodAt(clock.nowMs) + 1) * periodMs - 60_000;
    const user = await signUpAndLogIn(a);
    const header = decodeProtectedHeader(user.accessToken);
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT', kid: `at1-${periodAt(clock.nowMs)}` });
    clock.advance(2 * 60_000);
    expect((await me(b, user.headers.authorization)).statusCode).toBe(200);
    const next = await a.issueAccessToken(user.user_uuid);
    expect(decodeProtectedHeader(next).kid).toBe(`at1-${periodAt(clock.nowMs)}`);
    expect(decodeProtectedHeader(next).kid).not.toBe(header.kid);
  });

  it('refuses a token signed with a key two periods old, though its signature is right for that kid', async () => {
    const user = await signUpAndLogIn(a);
    const old = periodAt(clock.nowMs) - 2;
    const now = Math.floor(clock.nowMs / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: `at1-${old}` })
      .setSubject(user.user_uuid)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setJti('old-key')
      .sign(new Uint8Array(box.deriveKey(`access-token/${old}`)));
    expect((await me(a, `bearer ${token}`)).statusCode).toBe(401);
  });
});
