// openDatabase: PGlite in a folder keeps its data across restarts and migrates once; PostgreSQL (when
// TEST_DATABASE_URL names a server, as scripts/test-all can provide) runs the same migrations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './index';
import { serverSecrets } from './schema';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function roundTrip(open: () => Promise<DatabaseHandle>) {
  const name = `test-${crypto.randomUUID()}`;
  const first = await open();
  await first.db.insert(serverSecrets).values({ name, value: 'kept' });
  await first.close();
  // A second open runs the migrator again: it must find nothing to do and keep the data.
  const second = await open();
  try {
    const rows = await second.db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
    expect(rows.map((row) => row.value)).toEqual(['kept']);
    await second.db.delete(serverSecrets).where(eq(serverSecrets.name, name));
  } finally {
    await second.close();
  }
}

describe('openDatabase', () => {
  it('keeps PGlite data under DATA_DIR/pglite across restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-db-'));
    folders.push(dataDir);
    await roundTrip(() => openDatabase({ dataDir }));
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
  });

  it('keeps the PGlite folder owner-only: folders 0700, files 0600 (PGlite makes its files 0666)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signaldesk-db-'));
    folders.push(dataDir);
    await roundTrip(() => openDatabase({ dataDir }));
    const folder = path.join(dataDir, 'pglite');
    const open: string[] = [];
    const check = (at: string) => {
      if ((fs.statSync(at).mode & 0o077) !== 0)
        open.push(`${path.relative(dataDir, at)} ${(fs.statSync(at).mode & 0o777).toString(8)}`);
    };
    check(folder);
    for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
      check(path.join(entry.parentPath, entry.name));
    }
    expect(open).toEqual([]);
  });

  const databaseUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!databaseUrl)('runs the same migrations on PostgreSQL (TEST_DATABASE_URL)', async () => {
    const first = await openDatabase({ databaseUrl });
    expect(first.kind).toBe('postgres');
    await first.close();
    await roundTrip(() => openDatabase({ databaseUrl }));
  });
});
