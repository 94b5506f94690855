// Every error leaves the API as `{ "detail": "…" }` with a 4xx status (DESIGN.md "How things run");
// an unexpected failure is logged and answered 500 with a generic detail, never a stack trace.
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext;
      const message = first?.message ?? 'Invalid input';
      return reply.status(400).send({ detail: field ? `${field}: ${message}` : message });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: error.message || 'Bad request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error' });
  });
});
