// Makes the database (server/src/db) available to every route as app.db.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
  }
}

export const dbPlugin = fp<{ db: Database }>(
  async (app: FastifyInstance, { db }) => {
    app.decorate('db', db);
  },
  { name: 'db' },
);
