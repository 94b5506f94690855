// POST /api/user/: sign-up (SPEC.md §5 rules, checked here as in the SPA's form).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, signupAnswer, signupBody } from '../../../../contracts';
import { HttpError } from '../../http-error';
import { DuplicateEmailError, createUser } from '../../services/users';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/',
    {
      schema: {
        tags: ['user'],
        summary: 'Sign up',
        body: signupBody,
        response: { 201: signupAnswer, 400: errorBody, 409: errorBody, 429: errorBody },
      },
      // The per-address request rate of the password routes (plugins/security.ts).
      onRequest: app.rateLimit(),
    },
    async (request, reply) => {
      try {
        const user = await createUser(app.db, app.secretBox, request.body);
        reply.status(201);
        return {
          result: {
            user_uuid: user.user_uuid,
            user_email: user.user_email,
            user_nickname: user.user_nickname,
          },
        };
      } catch (error) {
        if (error instanceof DuplicateEmailError) throw new HttpError(409, error.message);
        throw error;
      }
    },
  );
};
