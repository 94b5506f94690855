// Bearer authentication (SPEC.md §6, §7): `Authorization: bearer <access token>` on every protected call.
// A missing, forged or expired token answers 401, which makes the SPA refresh once and retry (SPEC.md §7).
// Also holds the session store (refresh and websocket tokens) and the clock every expiry is measured on.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { issueAccessToken, verifyAccessToken } from '../services/access-token';
import { getOrCreateSecret } from '../services/server-secrets';
import { SessionStore } from '../services/sessions';
import { HttpError } from '../http-error';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for protected routes: sets request.userUuid or answers 401. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    issueAccessToken: (userUuid: string) => string;
    sessions: SessionStore;
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

const ACCESS_TOKEN_SECRET = 'access_token_hmac_key';
/** OpenAPI security requirement of every protected route (plugins/openapi.ts declares the scheme). */
export const bearerSecurity = [{ bearerAuth: [] }];

export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, options) => {
    const clock = options.clock ?? Date.now;
    const key = await getOrCreateSecret(app.db, ACCESS_TOKEN_SECRET);
    app.decorate('clock', clock);
    app.decorate('sessions', new SessionStore(app.db, clock));
    app.decorate('issueAccessToken', (userUuid: string) => issueAccessToken(userUuid, key, clock()));
    app.decorateRequest('userUuid', '');
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const unauthorized = (detail: string) => {
        reply.header('WWW-Authenticate', 'Bearer');
        return new HttpError(401, detail);
      };
      const [scheme, token] = (request.headers.authorization ?? '').split(' ');
      if (!token || scheme?.toLowerCase() !== 'bearer') throw unauthorized('Not authenticated');
      const claims = verifyAccessToken(token, key, clock());
      if (!claims) throw unauthorized('Invalid or expired access token');
      request.userUuid = claims.sub;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
