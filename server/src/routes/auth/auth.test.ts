// /api/auth/*: login, current user, refresh-token rotation and revocation, login rate limit, 401 on
// missing, forged or expired access tokens (SPEC.md §7; issue 5).
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';
import { ACCESS_TOKEN_TTL_S } from '../../services/access-token';
import { REFRESH_REUSE_GRACE_MS } from '../../services/sessions';
import { LOGIN_BLOCKED, LOGIN_LIMIT } from './index';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

function me(authorization?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/auth/me/',
    headers: authorization ? { authorization } : {},
  });
}

function refresh(cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/auth/refresh/',
    cookies: cookie ? { refresh_token: cookie } : {},
  });
}

function login(user_email: string, user_password: string, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { user_email, user_password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

describe('POST /api/auth/login/', () => {
  it('answers a bearer access token and sets the refresh cookie httpOnly, SameSite=Strict, on /api/auth/', async () => {
    const { user_email } = await signUpAndLogIn(t.app);
    const response = await login(user_email.toUpperCase(), TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toEqual({ token_type: 'bearer', access_token: expect.any(String) });
    const cookie = response.cookies.find((c) => c.name === 'refresh_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 400 for a wrong password and for an unknown e-mail alike', async () => {
    const { user_email } = await signUpAndLogIn(t.app);
    const wrong = await login(user_email, 'Wrong#pass1');
    const unknown = await login('nobody@example.com', TEST_PASSWORD);
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers 400 naming the field for a body that breaks SPEC.md §5', async () => {
    const response = await login('not-an-email', TEST_PASSWORD);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'user_email: Incorrect email' });
  });

  it(`refuses with 429 after ${LOGIN_LIMIT.maxFailures} failures for one e-mail from any addresses, even the right password`, async () => {
    const { user_email, remoteAddress } = await signUpAndLogIn(t.app);
    const other = await signUpAndLogIn(t.app);
    // A spray from many addresses, each under its own limit: the e-mail's count stops it.
    for (let i = 0; i < LOGIN_LIMIT.maxFailures; i += 1) {
      expect((await login(user_email, 'Wrong#pass1', `203.0.113.${i + 1}`)).statusCode).toBe(400);
    }
    const blocked = await login(user_email, TEST_PASSWORD, remoteAddress);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: LOGIN_BLOCKED });
    expect((await login(other.user_email, TEST_PASSWORD, other.remoteAddress)).statusCode).toBe(200);

    t.clock.advance(LOGIN_LIMIT.windowMs + 1000);
    expect((await login(user_email, TEST_PASSWORD, remoteAddress)).statusCode).toBe(200);
    // About 25 scrypt hashes one after another: ~10 s on an idle core, over 30 s on a busy 2-core machine.
  }, 120_000);
});

describe('GET /api/auth/me/', () => {
  it('answers the current user with a 256-bit user_trade_token_key', async () => {
    const user = await signUpAndLogIn(t.app, 'grace');
    const response = await me(user.headers.authorization);
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toEqual({
      user_uuid: user.user_uuid,
      user_email: user.user_email,
      user_nickname: 'grace',
      user_trade_token_key: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('keeps user_trade_token_key sealed in the database, so a dump alone does not hold it', async () => {
    const user = await signUpAndLogIn(t.app, 'heidi');
    const key = (await me(user.headers.authorization)).json().result.user_trade_token_key as string;
    const [row] = await t.app.db.select().from(users).where(eq(users.user_uuid, user.user_uuid));
    expect(row?.user_trade_token_key.startsWith('sb1.')).toBe(true);
    expect(row?.user_trade_token_key).not.toContain(key);
    expect(t.app.secretBox.open(row!.user_trade_token_key)).toBe(key);
  });

  it('answers 401 without a token, with a forged or malformed one, and after expiry', async () => {
    const user = await signUpAndLogIn(t.app);
    const [header, payload, signature] = user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, sub: crypto.randomUUID() })).toString(
      'base64url',
    );
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const authorization of [
      undefined,
      'bearer',
      'bearer not.a.token',
      `bearer ${header}.${otherPayload}.${signature}`,
      `bearer ${header}.${payload}.${flipped}`,
      `basic ${user.accessToken}`,
    ]) {
      const response = await me(authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json().detail).toEqual(expect.any(String));
    }
    t.clock.advance(ACCESS_TOKEN_TTL_S * 1000 + 1000);
    expect((await me(user.headers.authorization)).statusCode).toBe(401);
  });
});

describe('GET /api/auth/refresh/', () => {
  it('answers a new access token and rotates the cookie', async () => {
    const user = await signUpAndLogIn(t.app);
    const response = await refresh(user.refreshCookie);
    expect(response.statusCode).toBe(200);
    const { access_token } = response.json().result;
    expect((await me(`bearer ${access_token}`)).statusCode).toBe(200);
    const rotated = response.cookies.find((c) => c.name === 'refresh_token')!;
    expect(rotated.value).not.toBe(user.refreshCookie);
    expect((await refresh(rotated.value)).statusCode).toBe(200);
  });

  it('revokes the whole login when a rotated token is presented after the grace period', async () => {
    const user = await signUpAndLogIn(t.app);
    const first = await refresh(user.refreshCookie);
    const next = first.cookies.find((c) => c.name === 'refresh_token')!.value;
    // Two parallel refreshes with one cookie (two tabs) both succeed.
    expect((await refresh(user.refreshCookie)).statusCode).toBe(200);
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const replay = await refresh(user.refreshCookie);
    expect(replay.statusCode).toBe(401);
    expect((await refresh(next)).statusCode).toBe(401);
  });

  it('inside the grace window a rotated token gets the successor it already got: one chain, never two (issue 38 item 4)', async () => {
    const user = await signUpAndLogIn(t.app);
    const cookieOf = (response: Awaited<ReturnType<typeof refresh>>) =>
      response.cookies.find((c) => c.name === 'refresh_token')!.value;
    const [one, two] = await Promise.all([refresh(user.refreshCookie), refresh(user.refreshCookie)]);
    expect(one.statusCode).toBe(200);
    expect(two.statusCode).toBe(200);
    expect(cookieOf(two)).toBe(cookieOf(one));
    const successor = cookieOf(one);
    // A replay inside the window gets it again; the chain goes on from it alone.
    expect(cookieOf(await refresh(user.refreshCookie))).toBe(successor);
    const third = cookieOf(await refresh(successor));
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    expect((await refresh(third)).statusCode).toBe(200);
    // Past the window the first token is a theft signal: the one chain ends.
    expect((await refresh(user.refreshCookie)).statusCode).toBe(401);
    expect((await refresh(successor)).statusCode).toBe(401);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    expect((await refresh()).statusCode).toBe(401);
    const unknown = await refresh('not-a-real-token');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ detail: 'Invalid or expired refresh token' });
  });
});

describe('POST /api/auth/logout/', () => {
  it('revokes the refresh token and clears the cookie', async () => {
    const user = await signUpAndLogIn(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      cookies: { refresh_token: user.refreshCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: { logged_out: true } });
    expect(response.cookies.find((c) => c.name === 'refresh_token')?.value).toBe('');
    expect((await refresh(user.refreshCookie)).statusCode).toBe(401);
  });

  it('answers 200 without a cookie too', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout/' })).statusCode).toBe(200);
  });
});
