// Password hashes: scrypt at OWASP's cost by default; the cheaper test cost only where a test asks for it, and
// never outside Vitest; a stored hash verifies at the cost written in it, whichever cost is current.
import { afterEach, describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, usePasswordCostForTests, verifyPassword } from './password';

afterEach(() => usePasswordCostForTests('production'));

const costOf = (stored: string) => stored.split('$').slice(1, 4).map(Number);

describe('hashPassword', () => {
  it('hashes at N = 2^17, r = 8, p = 1 unless a test asks otherwise', async () => {
    const stored = await hashPassword('Secret#1a');
    expect(costOf(stored)).toEqual([2 ** 17, 8, 1]);
    expect(await verifyPassword('Secret#1a', stored)).toBe(true);
    expect(await verifyPassword('Secret#1b', stored)).toBe(false);
  });

  it('at the test cost, hashes of either cost verify and the dummy hash keeps the real cost', async () => {
    const real = await hashPassword('Secret#1a');
    usePasswordCostForTests('test');
    const cheap = await hashPassword('Secret#1a');
    expect(costOf(cheap)).toEqual([2 ** 10, 8, 1]);
    expect(await verifyPassword('Secret#1a', cheap)).toBe(true);
    expect(await verifyPassword('Secret#1a', real)).toBe(true);
    expect(costOf(dummyPasswordHash())).toEqual([2 ** 17, 8, 1]);
  });

  it('refuses the test cost outside Vitest', () => {
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(() => usePasswordCostForTests('test')).toThrow(/tests only/);
    } finally {
      process.env.VITEST = vitest;
    }
  });
});
