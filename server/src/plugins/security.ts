// Request limits every route shares (issue 17, "Hardening"):
// - @fastify/rate-limit for the routes that hash a password (login, sign-up): a per-address request rate, so
//   one client cannot keep the scrypt slots busy. Kept in this process's memory on purpose: what it guards is
//   this instance's CPU. The failed-login counters that must hold across instances live in the database.
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';

/** Password-hashing requests (login and sign-up together) one address may make per minute. */
export const PASSWORD_REQUESTS_PER_MINUTE = 30;
export const PASSWORD_RATE_DETAIL =
  'Too many login or sign-up requests from this address. Try again in a minute';

export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    // Not global: only the routes that take `onRequest: app.rateLimit()` (login and sign-up) are limited, and
    // they share this one store, so they share one budget per address.
    await app.register(fastifyRateLimit, {
      global: false,
      max: PASSWORD_REQUESTS_PER_MINUTE,
      timeWindow: 60_000,
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, PASSWORD_RATE_DETAIL, Math.max(1, Math.ceil(context.ttl / 1000))),
    });
  },
  { name: 'security' },
);
