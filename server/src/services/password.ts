// Password hashing with scrypt (memory-hard, node:crypto). Stored as scrypt$N$r$p$salt$hash (base64url) so
// the cost can be raised later while old hashes still verify. Hashes run through a bounded queue: two at a
// time (128 MiB and about 0.4 s of one core each), at most HASH_QUEUE_LIMIT waiting; beyond that a caller is
// refused at once (HashQueueFullError) instead of waiting behind a flood of logins it cannot see the end of, and
// none waits longer than HASH_WAIT_LIMIT_MS (refused then too).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HttpError } from '../http-error';

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
/** OWASP's scrypt minimum: N = 2^17, r = 8, p = 1, i.e. 128 MiB and about 0.4 s of one core per hash. */
const COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
/** Tests that are not about hashing: the same scrypt at 1 MiB, about 3 ms a hash (usePasswordCostForTests). */
const TEST_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };
/** The cost new hashes are made at. Stored hashes carry their own, so either kind verifies. */
let cost = COST;

/**
 * Test support (server/test/test-app.ts): new hashes at TEST_COST, so the hundreds of sign-ups and logins of the
 * route tests do not spend 0.4 s of a core each. Refused outside Vitest, so no deployment can weaken its hashes.
 * The dummy hash of unknown e-mails keeps the real cost, so the tests of the hashing queue still see real hashes.
 */
export function usePasswordCostForTests(kind: 'test' | 'production'): void {
  if (!process.env.VITEST) throw new Error('usePasswordCostForTests is for tests only');
  cost = kind === 'test' ? TEST_COST : COST;
}
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** scrypt needs 128 × N × r bytes (128 MiB here); Node's default limit is 32 MiB. */
const MAX_MEMORY = 256 * 1024 * 1024;
/** At most this many hashes at once, so a burst of logins cannot claim more than 256 MiB. */
const MAX_CONCURRENT = 2;
/**
 * Hashes allowed to wait for a slot. With two running, the last of four waiting starts after about 0.8 s and
 * is answered about 1.2 s after it arrived: the longest a login waits; anything more is refused.
 */
export const HASH_QUEUE_LIMIT = 4;
/** Seconds a refused caller is told to wait (Retry-After): a few hashes' time. */
export const HASH_QUEUE_RETRY_AFTER_S = 2;
/**
 * Password-hashing requests (login and sign-up together) one address may make per minute (plugins/security.ts
 * applies it).
 */
export const PASSWORD_REQUESTS_PER_MINUTE = 30;
export const PASSWORD_RATE_DETAIL =
  'Too many login or sign-up requests from this address. Try again in a minute';

/**
 * The hashing queue is full: answered 429 with Retry-After, before any hashing work is done. 429, not 503: every
 * refusal of the API is a 4xx (DESIGN.md), and 5xx stays the sign of a fault of the server.
 */
export class HashQueueFullError extends HttpError {
  constructor() {
    super(429, 'The server is busy. Try again in a few seconds', HASH_QUEUE_RETRY_AFTER_S);
  }
}

let running = 0;

interface Waiter {
  resolve: () => void;
  timer: ReturnType<typeof setTimeout>;
}
const waiting: Waiter[] = [];
/**
 * Logins from a browser where the trader logged in before (a login-device cookie, issue 38 item 3): not refused
 * while this lane has room, so a flood of logins for unknown e-mails from many addresses cannot keep an owner out.
 * The cookie proves an earlier success for that e-mail, so the lane tells an attacker nothing about which e-mails
 * exist. One e-mail holds at most FAST_LANE_PER_EMAIL places in it (waiting or hashing, issue 52; a second login
 * of that e-mail meanwhile is answered busy): the cookie of one account, copied into any number of loops, cannot
 * fill the lane (nor take both slots) that every other owner relies on.
 */
const priorityWaiting: Waiter[] = [];
export const PRIORITY_QUEUE_LIMIT = 16;
export const FAST_LANE_PER_EMAIL = 1;
/** The fast lane's logins per e-mail, waiting or hashing. */
const fastLaneByEmail = new Map<string, number>();
/**
 * The longest a hash waits for a slot (issue 52): the queue's promise. With the lanes served in turn, the last of
 * the 16 fast-lane waiters starts after about 10 hashes' time (4 s at 0.4 s a hash; twice that on two busy cores,
 * where a hash takes 1–1.5 s, for the last of the common lane); a waiter still waiting at the limit leaves the
 * queue and is answered 429 with Retry-After, never left hanging.
 */
export const HASH_WAIT_LIMIT_MS = 10_000;
/** When both lanes wait, a freed slot goes to the lane not served last: neither can starve the other. */
let servedFastLaneLast = false;

function nextWaiter(): Waiter | undefined {
  const fast = priorityWaiting.length > 0 && (!servedFastLaneLast || waiting.length === 0);
  servedFastLaneLast = fast;
  return fast ? priorityWaiting.shift() : waiting.shift();
}

function wait(queue: Waiter[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const waiter: Waiter = {
      resolve: () => {
        clearTimeout(waiter.timer);
        resolve();
      },
      timer: setTimeout(() => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(new HashQueueFullError());
      }, HASH_WAIT_LIMIT_MS),
    };
    waiter.timer.unref?.();
    queue.push(waiter);
  });
}

/** The lane a hash is asked for in: the fast lane of an e-mail (a login-device cookie), or the common one. */
export interface HashLane {
  fastLaneEmail?: string;
}

async function withSlot<T>(work: () => Promise<T>, lane: HashLane = {}): Promise<T> {
  const email = lane.fastLaneEmail;
  if (email !== undefined) {
    const held = fastLaneByEmail.get(email) ?? 0;
    if (held >= FAST_LANE_PER_EMAIL) throw new HashQueueFullError();
    fastLaneByEmail.set(email, held + 1);
  }
  try {
    // A finishing hash hands its slot straight to the next waiter, so `running` never exceeds the limit.
    if (running < MAX_CONCURRENT) running += 1;
    else if (email !== undefined) {
      if (priorityWaiting.length >= PRIORITY_QUEUE_LIMIT) throw new HashQueueFullError();
      await wait(priorityWaiting);
    } else if (waiting.length >= HASH_QUEUE_LIMIT) throw new HashQueueFullError();
    else await wait(waiting);
    try {
      return await work();
    } finally {
      const next = nextWaiter();
      if (next) next.resolve();
      else running -= 1;
    }
  } finally {
    if (email !== undefined) {
      const held = (fastLaneByEmail.get(email) ?? 1) - 1;
      if (held > 0) fastLaneByEmail.set(email, held);
      else fastLaneByEmail.delete(email);
    }
  }
}

/** Whether a hash asked for now would be refused: lets a caller skip work it would have to undo. */
export function hashQueueFull(lane: HashLane = {}): boolean {
  const email = lane.fastLaneEmail;
  if (email !== undefined && (fastLaneByEmail.get(email) ?? 0) >= FAST_LANE_PER_EMAIL) return true;
  if (running < MAX_CONCURRENT) return false;
  return email !== undefined
    ? priorityWaiting.length >= PRIORITY_QUEUE_LIMIT
    : waiting.length >= HASH_QUEUE_LIMIT;
}

function derive(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
  lane: HashLane = {},
): Promise<Buffer> {
  return withSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(
          password.normalize('NFKC'),
          salt,
          KEY_LENGTH,
          { ...options, maxmem: MAX_MEMORY },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
    lane,
  );
}

const encode = (salt: Buffer, key: Buffer, made: ScryptCost) =>
  ['scrypt', made.N, made.r, made.p, salt.toString('base64url'), key.toString('base64url')].join('$');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const made = cost;
  return encode(salt, await derive(password, salt, made), made);
}

export async function verifyPassword(
  password: string,
  stored: string,
  lane: HashLane = {},
): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    lane,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash that no password matches (a random key under a random salt) at the real cost: verifying against it
 * costs what a real check costs, so a login for an unknown e-mail takes as long as one with a wrong password.
 * Made without hashing, so it never waits for (or is refused by) the queue.
 */
const DUMMY_HASH = encode(randomBytes(SALT_LENGTH), randomBytes(KEY_LENGTH), COST);
export function dummyPasswordHash(): string {
  return DUMMY_HASH;
}
