// Users: sign-up and credential checks (SPEC.md §5, §7 POST /user/, POST /auth/login/).
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db';
import { users } from '../db/schema';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import type { SecretBox } from './secret-box';

export type UserRecord = typeof users.$inferSelect;

/** E-mail addresses are compared without regard to case or surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class DuplicateEmailError extends Error {
  constructor() {
    super('A user with this email already exists');
  }
}

function isUniqueViolation(error: unknown): boolean {
  // PostgreSQL's unique_violation, whether the driver error is thrown bare or wrapped by Drizzle.
  const codeOf = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | undefined)?.cause) === '23505';
}

export async function createUser(
  db: Database,
  box: SecretBox,
  input: { user_email: string; user_nickname: string; user_password: string },
): Promise<UserRecord> {
  const user_email = normalizeEmail(input.user_email);
  const [existing] = await db
    .select({ user_uuid: users.user_uuid })
    .from(users)
    .where(eq(users.user_email, user_email));
  if (existing) throw new DuplicateEmailError();
  try {
    const [row] = await db
      .insert(users)
      .values({
        user_uuid: randomUUID(),
        user_email,
        user_nickname: input.user_nickname,
        password_hash: await hashPassword(input.user_password),
        // Stored sealed: the key plus a PIN opens a server-mode token (services/secret-box.ts).
        user_trade_token_key: box.seal(randomBytes(32).toString('hex')),
      })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateEmailError();
    throw error;
  }
}

/** The user when the password matches; undefined otherwise, in about the same time either way. */
export async function checkCredentials(
  db: Database,
  email: string,
  password: string,
  /** The login comes from a browser that logged in as this e-mail before (password.ts, the fast lane). */
  knownDevice = false,
): Promise<UserRecord | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.user_email, normalizeEmail(email)));
  const matches = await verifyPassword(password, user?.password_hash ?? dummyPasswordHash(), {
    fastLaneEmail: knownDevice ? normalizeEmail(email) : undefined,
  });
  return user && matches ? user : undefined;
}

export async function findUser(db: Database, userUuid: string): Promise<UserRecord | undefined> {
  const [user] = await db.select().from(users).where(eq(users.user_uuid, userUuid));
  return user;
}

/** The user's user_trade_token_key (256-bit hex), opened from its sealed form in the database. */
export function userTradeTokenKey(box: SecretBox, user: UserRecord): string {
  return box.open(user.user_trade_token_key);
}
