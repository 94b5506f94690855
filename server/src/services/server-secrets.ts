// Server-wide secrets, generated on first start and kept in the database so that every instance sharing
// it (DESIGN.md "Scale") signs and verifies with the same key.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db';
import { serverSecrets } from '../db/schema';

export async function getOrCreateSecret(db: Database, name: string): Promise<Buffer> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  // Read back rather than trust our own insert: a concurrent instance may have won the race.
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`server secret ${name} could not be stored`);
  return Buffer.from(row.value, 'base64url');
}
