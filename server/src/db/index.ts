// openDatabase: PGlite under DATA_DIR/pglite (in memory when no folder is given, for tests) or PostgreSQL
// when DATABASE_URL is set (DESIGN.md "How things run"). The same migrations run at every open.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export { schema };
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** 'pglite' or 'postgres', for the start-up log. */
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseConfig {
  /** Folder for PGlite's files (DATA_DIR); undefined keeps the database in memory. */
  dataDir?: string;
  /** postgres://… selects PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  /** Told when an idle pooled PostgreSQL connection fails (the server restarted); the pool replaces it. */
  log?: { warn(obj: object, msg: string): void };
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary constant key of the advisory lock that serialises migrations of several instances. */
const MIGRATION_LOCK_KEY = 5_617_293_001;

export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.log);
  return openPglite(config.dataDir);
}

/**
 * Owner-only modes for a folder and everything in it. PGlite (Emscripten's file system) creates its files
 * 0666 whatever the umask; its folder is kept 0700 so that files made while it runs cannot be reached by
 * others either, and every file is set 0600 at open and at close.
 */
function restrictToOwner(folder: string): void {
  fs.chmodSync(folder, 0o700);
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    const at = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) fs.chmodSync(at, 0o700);
    else if (entry.isFile()) fs.chmodSync(at, 0o600);
  }
}

async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  let client: PGlite;
  let folder: string | undefined;
  if (dataDir) {
    folder = path.join(dataDir, 'pglite');
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    restrictToOwner(folder);
    client = new PGlite(folder);
  } else {
    client = new PGlite();
  }
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder });
  if (folder) restrictToOwner(folder);
  const close = async () => {
    await client.close();
    if (folder) restrictToOwner(folder);
  };
  return { db: db as unknown as Database, kind: 'pglite', close };
}

async function openPostgres(databaseUrl: string, log: DatabaseConfig['log']): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // Without a listener an idle connection that the server ends (a restart, pg_terminate_backend) would be an
  // uncaught error that stops the process; the pool drops that connection and opens another when needed.
  pool.on('error', (error) => log?.warn({ err: error }, 'database: an idle connection failed'));
  const db = drizzlePg({ client: pool, schema });
  const lockClient = await pool.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(db, { migrationsFolder });
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    lockClient.release();
  }
  return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
}
