// Two instances behind one egress address (two budgets, one database): a 429 that one of them receives pauses
// the other at its next sync, for the Retry-After the exchange gave; a later, shorter pause never shortens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app';
import type { DatabaseHandle } from '../db';
import { BudgetRefusal, ExchangeBudget } from './exchange-budget';
import { ExchangePauseSharing } from './exchange-pauses';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => database.close());

const URL = 'https://fapi.example.com';
const read = { url: URL, method: 'GET', path: '/fapi/v2/account', query: '' };
const quiet = { warn: () => undefined };

describe('exchange pauses shared through the database', () => {
  it("one instance's 429 pauses the other within a sync, for as long as the exchange said", async () => {
    const clock = { now: Date.now() };
    const [first, second] = [new ExchangeBudget(() => clock.now), new ExchangeBudget(() => clock.now)];
    const [one, two] = [first, second].map((b) => new ExchangePauseSharing(database.db, b, quiet));
    await two!.sync();
    second.admit(read);
    first.observe(URL, 429, (name) => (name === 'retry-after' ? '30' : undefined));
    await one!.sync();
    await two!.sync();
    expect(() => second.admit(read)).toThrow(BudgetRefusal);
    expect(second.blockedUntil(URL)).toBe(first.blockedUntil(URL));
    // A shorter pause reported later keeps the longer one.
    second.observe(URL, 429, (name) => (name === 'retry-after' ? '5' : undefined));
    await two!.sync();
    await one!.sync();
    expect(first.blockedUntil(URL)).toBe(clock.now + 30_000);
    clock.now += 30_000;
    await two!.sync();
    second.admit(read);
    first.admit(read);
  });
});
