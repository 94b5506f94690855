// Every error leaves the API as `{ "detail": "…" }` with a 4xx status (DESIGN.md "How things run");
// an unexpected failure is logged and answered 500 with a generic detail, never a stack trace.
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../http-error';

/** True when a string anywhere in a parsed body, query or params holds a NUL character. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000') || hasNul(child, depth + 1)) return true;
  }
  return false;
}

/** PostgreSQL's foreign_key_violation on a users reference: the token's user no longer exists. */
function isMissingUser(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { code, detail } = (cause ?? {}) as { code?: unknown; detail?: unknown };
  return code === '23503' && typeof detail === 'string' && detail.includes('"users"');
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // PostgreSQL cannot store NUL in text, and no field of ours has a use for it: refused for every route
  // before validation, so it never reaches a query as a 500.
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.body) || hasNul(request.query) || hasNul(request.params)) {
      throw new HttpError(400, 'Text must not contain NUL characters');
    }
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext;
      const message = first?.message ?? 'Invalid input';
      return reply.status(400).send({ detail: field ? `${field}: ${message}` : message });
    }
    if (error instanceof HttpError) {
      if (error.retryAfterS !== undefined) reply.header('Retry-After', String(error.retryAfterS));
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    // A valid access token of a user deleted since (tokens live 15 minutes): the session is over.
    if (isMissingUser(error)) return reply.status(401).send({ detail: 'User not found' });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: error.message || 'Bad request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error' });
  });
});
