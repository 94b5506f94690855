// Bearer authentication (SPEC.md §6, §7): `Authorization: bearer <access token>` on every protected call.
// A missing, forged or expired token, or one of a login that was logged out, answers 401, which makes the SPA
// refresh once and retry (SPEC.md §7). Also holds the session store (refresh and websocket tokens) and the
// clock every expiry is measured on. The signing keys come from the master key (services/access-token.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccessTokens, type AccessClaims } from '../services/access-token';
import { SessionCheck } from '../services/session-check';
import { SessionStore } from '../services/sessions';
import { HttpError } from '../http-error';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for protected routes: sets request.userUuid or answers 401. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** An access token for the user; `sessionUuid` is the login (refresh token family) it belongs to. */
    issueAccessToken: (userUuid: string, sessionUuid?: string) => Promise<string>;
    /** The claims of a bearer Authorization header that verifies (signature, expiry, active login). */
    bearerClaims: (authorization: string | undefined) => Promise<AccessClaims | undefined>;
    sessions: SessionStore;
    sessionCheck: SessionCheck;
    clock: () => number;
  }
  interface FastifyRequest {
    /** The authenticated user; set by app.authenticate. */
    userUuid: string;
  }
}

export interface AuthOptions {
  /** Milliseconds since the epoch; tests move it to cross an expiry. */
  clock?: () => number;
}

export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, options) => {
    const clock = options.clock ?? Date.now;
    const tokens = new AccessTokens(app.secretBox, clock);
    const successorKey = app.secretBox;
    const sessions = new SessionStore(app.db, clock, (token) =>
      successorKey.digest('refresh successor', token),
    );
    const sessionCheck = new SessionCheck(sessions, clock);
    app.decorate('clock', clock);
    app.decorate('sessions', sessions);
    app.decorate('sessionCheck', sessionCheck);
    app.decorate('issueAccessToken', (userUuid: string, sessionUuid?: string) =>
      tokens.issue(userUuid, sessionUuid),
    );
    const bearerClaims = async (authorization: string | undefined) => {
      const [scheme, token] = (authorization ?? '').split(' ');
      if (!token || scheme?.toLowerCase() !== 'bearer') return undefined;
      const claims = await tokens.verify(token);
      if (!claims) return undefined;
      if (claims.sid !== undefined && !(await sessionCheck.isActive(claims.sid))) return undefined;
      return claims;
    };
    app.decorate('bearerClaims', bearerClaims);
    app.decorateRequest('userUuid', '');
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const unauthorized = (detail: string) => {
        reply.header('WWW-Authenticate', 'Bearer');
        return new HttpError(401, detail);
      };
      const [scheme, token] = (request.headers.authorization ?? '').split(' ');
      if (!token || scheme?.toLowerCase() !== 'bearer') throw unauthorized('Not authenticated');
      const claims = await bearerClaims(request.headers.authorization);
      if (!claims) throw unauthorized('Invalid or expired access token');
      request.userUuid = claims.sub;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
