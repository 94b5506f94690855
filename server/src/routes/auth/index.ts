// /api/auth/* (SPEC.md §7): login, current user, refresh, websocket token, logout.
// The refresh token lives only in an httpOnly, SameSite=Strict cookie scoped to /api/auth/, so page
// scripts never see it; it rotates on every refresh. Logout revokes the login, and with it its access tokens.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SocketHub } from '../../services/socket-hub';
import {
  TOKEN_TYPE,
  errorBody,
  loginAnswer,
  loginBody,
  logoutAnswer,
  meAnswer,
  refreshAnswer,
  websocketTokenAnswer,
} from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { HashQueueFullError, hashQueueFull } from '../../services/password';
import { addressGroup } from '../../services/address-group';
import { RateLimiter } from '../../services/rate-limiter';
import { REFRESH_TOKEN_TTL_MS, WEBSOCKET_TOKEN_TTL_MS } from '../../services/sessions';
import { checkCredentials, findUser, normalizeEmail, userTradeTokenKey } from '../../services/users';

const REFRESH_COOKIE = 'refresh_token';
const REFRESH_COOKIE_PATH = '/api/auth/';
/**
 * Failed logins from one client address (any e-mail) within the window, then 429 for that address. Checked
 * first and lower than the per-e-mail limit, so a stranger at one address cannot lock a trader out at all.
 */
export const LOGIN_ADDRESS_LIMIT = { maxFailures: 10, windowMs: 15 * 60 * 1000 };
/** Failed logins for one e-mail from all addresses within the window, then 429 even for the right password. */
export const LOGIN_LIMIT = { maxFailures: 20, windowMs: 15 * 60 * 1000 };
/**
 * Logins of one e-mail, right password or still being checked, within the window (issue 52): a trader's own
 * account cannot be looped into hundreds of sessions and hashes. Counted before the hash like the failures.
 */
export const LOGIN_SUCCESS_LIMIT = { maxFailures: 20, windowMs: 15 * 60 * 1000 };
export const LOGIN_BLOCKED = 'Too many failed login attempts. Try again in 15 minutes';
export const LOGIN_SUCCESS_BLOCKED = 'Too many logins for this e-mail. Try again in a few minutes';
export const LOGIN_ADDRESS_BLOCKED =
  'Too many failed login attempts from this address. Try again in 15 minutes';

function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(REFRESH_COOKIE, token, {
    path: REFRESH_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: REFRESH_TOKEN_TTL_MS / 1000,
  });
}

/**
 * The login-device cookie (issue 38 item 3): set after a successful login, it lets this browser's next logins
 * as that e-mail skip ahead of a flood in the hashing queue. Its value is a keyed digest of the e-mail under a
 * server-only key, so nobody can make one for an e-mail they never logged in as.
 */
const DEVICE_COOKIE = 'login_device';
const DEVICE_COOKIE_PATH = '/api/auth/login/';
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

function clearRefreshCookie(reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH, httpOnly: true, sameSite: 'strict' });
}

export const authRoutes: FastifyPluginAsyncZod<{ hub: SocketHub }> = async (app, { hub }) => {
  const loginLimiter = new RateLimiter(app.db, 'login', LOGIN_LIMIT, app.clock);
  const addressLimiter = new RateLimiter(app.db, 'login_address', LOGIN_ADDRESS_LIMIT, app.clock);
  const successLimiter = new RateLimiter(app.db, 'login_success', LOGIN_SUCCESS_LIMIT, app.clock);
  // Tokens must never be cached by a browser or a proxy.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  app.post(
    '/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password',
        body: loginBody,
        response: { 200: loginAnswer, 400: errorBody, 429: errorBody },
      },
      // The per-address request rate of the password routes (plugins/security.ts).
      onRequest: app.rateLimit(),
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.user_email);
      const deviceProof = app.secretBox.digest('login device', email);
      const knownDevice = request.cookies[DEVICE_COOKIE] === deviceProof;
      // Refused before anything is counted: a busy server is not a failed attempt. A known device waits in its
      // e-mail's place of the fast lane (one at a time, services/password.ts).
      if (hashQueueFull({ fastLaneEmail: knownDevice ? email : undefined })) throw new HashQueueFullError();
      // Every attempt is counted before the hash (reserve, then settle): first among the e-mail's logins (the
      // cheapest refusal of a looping account), then the address (IPv6 by /64), then the e-mail's failures.
      // Refusals name when to come back (Retry-After).
      const asLogin = await successLimiter.reserve(email);
      if (!asLogin) {
        throw new HttpError(429, LOGIN_SUCCESS_BLOCKED, await successLimiter.retryAfterS(email));
      }
      const address = addressGroup(request.ip);
      const byAddress = await addressLimiter.reserve(address);
      if (!byAddress) {
        await successLimiter.release(asLogin);
        throw new HttpError(429, LOGIN_ADDRESS_BLOCKED, await addressLimiter.retryAfterS(address));
      }
      const byEmail = await loginLimiter.reserve(email);
      if (!byEmail) {
        await successLimiter.release(asLogin);
        await addressLimiter.release(byAddress);
        throw new HttpError(429, LOGIN_BLOCKED, await loginLimiter.retryAfterS(email));
      }
      let user;
      try {
        user = await checkCredentials(app.db, email, request.body.user_password, knownDevice);
      } catch (error) {
        // Not tried (the queue filled meanwhile or the wait ran out, or the database failed): not a failure.
        await addressLimiter.release(byAddress);
        await loginLimiter.release(byEmail);
        await successLimiter.release(asLogin);
        throw error;
      }
      if (!user) {
        await addressLimiter.settleFailure(byAddress);
        await loginLimiter.settleFailure(byEmail);
        await successLimiter.release(asLogin);
        // 400 rather than 401: a 401 would make the SPA try a token refresh (SPEC.md §7).
        throw new HttpError(400, 'Incorrect email or password');
      }
      // A success clears the e-mail's failures and stays counted among its logins; the address keeps its count
      // (else an attacker with an account of their own could clear it between guesses at others').
      await addressLimiter.release(byAddress);
      await loginLimiter.reset(email);
      await successLimiter.settleFailure(asLogin);
      const sessionUuid = randomUUID();
      setRefreshCookie(request, reply, await app.sessions.issueRefreshToken(user.user_uuid, sessionUuid));
      reply.setCookie(DEVICE_COOKIE, deviceProof, {
        path: DEVICE_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
      });
      const accessToken = await app.issueAccessToken(user.user_uuid, sessionUuid);
      return { result: { token_type: TOKEN_TYPE, access_token: accessToken } };
    },
  );

  app.get(
    '/refresh/',
    {
      schema: {
        tags: ['auth'],
        summary: 'New access token from the refresh cookie (rotates the cookie)',
        response: { 200: refreshAnswer, 401: errorBody },
      },
    },
    async (request, reply) => {
      const presented = request.cookies[REFRESH_COOKIE];
      if (!presented) throw new HttpError(401, 'No refresh token');
      const rotated = await app.sessions.rotateRefreshToken(presented);
      if (!rotated) {
        clearRefreshCookie(reply);
        throw new HttpError(401, 'Invalid or expired refresh token');
      }
      setRefreshCookie(request, reply, rotated.token);
      const accessToken = await app.issueAccessToken(rotated.userUuid, rotated.familyUuid);
      return { result: { token_type: TOKEN_TYPE, access_token: accessToken } };
    },
  );

  app.post(
    '/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the login of the refresh cookie (or of the bearer token) and its access tokens',
        response: { 200: logoutAnswer },
      },
    },
    async (request, reply) => {
      const presented = request.cookies[REFRESH_COOKIE];
      const fromCookie = presented ? await app.sessions.revokeRefreshToken(presented) : undefined;
      const fromBearer = (await app.bearerClaims(request.headers.authorization))?.sid;
      if (fromBearer && fromBearer !== fromCookie) await app.sessions.revokeFamily(fromBearer);
      for (const sid of new Set([fromCookie, fromBearer])) {
        if (!sid) continue;
        app.sessionCheck.forget(sid);
        // The devices this login subscribed to Web Push are told nothing more (issue 41).
        await app.webPush.forgetLogin(sid);
        // The login's sockets close on every instance, and its unspent websocket tokens open nothing.
        await app.sessions.revokeWebsocketTokens(sid);
        hub.closeSession(sid);
      }
      clearRefreshCookie(reply);
      return { result: { logged_out: true as const } };
    },
  );

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', app.authenticate);

    authenticated.get(
      '/me/',
      {
        schema: {
          tags: ['auth'],
          summary: 'The current user',
          security: bearerSecurity,
          response: { 200: meAnswer, 401: errorBody },
        },
      },
      async (request) => {
        const user = await findUser(app.db, request.userUuid);
        if (!user) throw new HttpError(401, 'User not found');
        return {
          result: {
            user_uuid: user.user_uuid,
            user_email: user.user_email,
            user_nickname: user.user_nickname,
            user_trade_token_key: userTradeTokenKey(app.secretBox, user),
          },
        };
      },
    );

    authenticated.get(
      '/create_websocket_token/',
      {
        schema: {
          tags: ['auth'],
          summary: 'A single-use token for /api/ws_core/{token}',
          security: bearerSecurity,
          response: { 200: websocketTokenAnswer, 401: errorBody },
        },
      },
      async (request) => {
        // Bound to the login, so that its logout revokes it and closes the socket it opened (issue 38 item 4).
        const sid = (await app.bearerClaims(request.headers.authorization))?.sid;
        const token = await app.sessions.issueWebsocketToken(request.userUuid, sid);
        return { result: { token, expires_in: WEBSOCKET_TOKEN_TTL_MS / 1000 } };
      },
    );
  });
};
