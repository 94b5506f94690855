// Response headers and request limits every route shares (issue 17, "Hardening"):
// - helmet: a Content-Security-Policy the SPA passes (its own scripts and styles only, no inline script;
//   'wasm-unsafe-eval' for trade-core's WebAssembly; connections to this origin, which covers its websocket,
//   and to the exchanges client mode calls from the browser; the manifest and the service worker of this
//   origin), frame-ancestors 'none', nosniff, no Referer.
// - Strict-Transport-Security only on requests that came over TLS (directly, or through a proxy trusted with
//   TRUST_PROXY): sent over plain HTTP it would be ignored, or would pin a development host to https.
// - @fastify/rate-limit for the routes that hash a password (login, sign-up): a per-address request rate, so
//   one client cannot keep the scrypt slots busy. Kept in this process's memory on purpose: what it guards is
//   this instance's CPU. The failed-login counters that must hold across instances live in the database.
import fastifyHelmet from '@fastify/helmet';
import { addressGroup } from '../services/address-group';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error';
import { PASSWORD_RATE_DETAIL, PASSWORD_REQUESTS_PER_MINUTE } from '../services/password';

/** helmet's own default max-age (one year), sent only over TLS. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export interface SecurityOptions {
  /** Origins the SPA may call besides its own (the exchanges of the platforms, for client mode). */
  connectOrigins: string[];
}

/** The origin of each URL that parses; duplicates and non-http(s) URLs are dropped. */
export function originsOf(urls: string[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') origins.add(parsed.origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return [...origins];
}

export const securityPlugin = fp<SecurityOptions>(
  async (app: FastifyInstance, { connectOrigins }) => {
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'", "'wasm-unsafe-eval'"],
          'script-src-attr': ["'none'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:'],
          'font-src': ["'self'"],
          'connect-src': ["'self'", ...connectOrigins],
          // Issue 41: the web app manifest and the push service worker (public/sw.js), both of this origin.
          // default-src would cover them; said here so a stricter default-src never blocks them silently.
          'manifest-src': ["'self'"],
          'worker-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'self'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS_VALUE);
    });
    // Not global: only the routes that take `onRequest: app.rateLimit()` (login and sign-up) are limited, and
    // they share this one store, so they share one budget per address.
    await app.register(fastifyRateLimit, {
      global: false,
      max: PASSWORD_REQUESTS_PER_MINUTE,
      timeWindow: 60_000,
      // One budget per client: an IPv6 /64 is one (services/address-group.ts).
      keyGenerator: (request) => addressGroup(request.ip),
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, PASSWORD_RATE_DETAIL, Math.max(1, Math.ceil(context.ttl / 1000))),
    });
  },
  { name: 'security' },
);
