// Throwaway databases on a PostgreSQL server, for tests (scripts/with-postgres exports the server as
// TEST_DATABASE_URL): a database with a random name, created empty and dropped with its connections at the end.
// Not used at run time.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  /** postgres://… of the new database. */
  url: string;
  name: string;
  /** Drops the database, ending any connection still open to it (PostgreSQL 13+). */
  drop(): Promise<void>;
}

async function onServer<T>(serverUrl: string, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the server `serverUrl` names (a maintenance database such as postgres). */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  // Only [a-z0-9_]: the name goes into the statement as an identifier, which cannot be a parameter.
  const name = `signaldesk_test_${randomBytes(8).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
