// Makes the database (server/src/db) available to every route as app.db, with app.secretBox for the
// secrets it stores sealed.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db';
import type { SecretBox } from '../services/secret-box';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    /** Seals server-held secrets at rest (services/secret-box.ts). */
    secretBox: SecretBox;
  }
}

export const dbPlugin = fp<{ db: Database; secretBox: SecretBox }>(
  async (app: FastifyInstance, { db, secretBox }) => {
    app.decorate('db', db);
    app.decorate('secretBox', secretBox);
  },
  { name: 'db' },
);
