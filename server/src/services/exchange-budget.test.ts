// The exchange budget of our address (issue 33), on a clock the test moves: reads stop at READ_SHARE with
// Retry-After, protective calls go on to PROTECT_SHARE and orders are never refused by weight, the exchange's
// own count is followed, a 429/418 stops everything for its Retry-After, each trader has a share, and keys the
// exchange never accepted get a small allowance within a small pool.
import { describe, expect, it } from 'vitest';
import { RELAYED_CALLS } from '../../../contracts';
import {
  BudgetRefusal,
  CALL_COSTS,
  DEFAULT_WEIGHT_LIMIT,
  ExchangeBudget,
  NEW_KEYS_SHARE,
  NEW_KEY_WEIGHT,
  ORDERS_PER_10S,
  PROTECT_SHARE,
  READ_SHARE,
  TRADER_SHARE,
  costOf,
} from './exchange-budget';

const URL_A = 'https://fapi.example.com';
const URL_B = 'http://127.0.0.1:9999';

/** A budget at the start of a minute, on a clock the test moves. */
function budget() {
  const clock = { now: Math.floor(Date.UTC(2026, 10, 27, 12) / 60_000) * 60_000 };
  return { clock, budget: new ExchangeBudget(() => clock.now) };
}

const account = (extra: { trader?: string; provenKey?: boolean; url?: string } = {}) => ({
  url: extra.url ?? URL_A,
  method: 'GET',
  path: '/fapi/v2/account',
  query: 'timestamp=1&signature=ab',
  ...extra,
});
const order = { url: URL_A, method: 'POST', path: '/fapi/v1/order', query: 'symbol=BTCUSDT' };
const cancel = { url: URL_A, method: 'DELETE', path: '/fapi/v1/order', query: 'symbol=BTCUSDT' };

function refusal(run: () => void): BudgetRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof BudgetRefusal) return error;
    throw error;
  }
  throw new Error('admitted');
}

describe('call costs', () => {
  it('know every call the relay forwards, with Binance weights', () => {
    for (const [path, methods] of Object.entries(RELAYED_CALLS)) {
      for (const method of methods)
        expect(CALL_COSTS[`${method} ${path}`], `${method} ${path}`).toBeDefined();
    }
    expect(costOf('GET', '/fapi/v2/account', '')).toEqual({ weight: 5, protective: false, newOrder: false });
    expect(costOf('POST', '/fapi/v1/order', '')).toEqual({ weight: 0, protective: true, newOrder: true });
    expect(costOf('DELETE', '/fapi/v1/algoOrder', '')).toEqual({
      weight: 1,
      protective: true,
      newOrder: false,
    });
    expect(costOf('GET', '/fapi/v1/klines', 'limit=1500').weight).toBe(10);
    expect(costOf('GET', '/fapi/v1/klines', 'limit=99').weight).toBe(1);
    expect(costOf('GET', '/fapi/v1/premiumIndex', '').weight).toBe(10);
  });
});

describe('the exchange budget', () => {
  it('refuses reads before they would cross READ_SHARE of the limit, with Retry-After to the minute end', () => {
    const { clock, budget: b } = budget();
    const ceiling = Math.floor(DEFAULT_WEIGHT_LIMIT * READ_SHARE);
    let admitted = 0;
    clock.now += 15_000;
    for (; admitted * 5 + 5 <= ceiling; admitted += 1) b.admit(account());
    expect(b.used(URL_A)).toBe(admitted * 5);
    const refused = refusal(() => b.admit(account()));
    expect(refused.statusCode).toBe(429);
    expect(refused.retryAfterS).toBe(45);
    expect(b.used(URL_A)).toBe(admitted * 5);
    // Orders (no IP weight) and cancels (protective) still go; another exchange has its own budget.
    b.admit(order);
    b.admit(cancel);
    b.admit(account({ url: URL_B }));
    // The next minute starts empty, as the exchange's own count does.
    clock.now += 45_000;
    b.admit(account());
    expect(b.used(URL_A)).toBe(5);
  });

  it('lets protective calls use the reserve up to PROTECT_SHARE, never an order beyond the exchange', () => {
    const { budget: b } = budget();
    b.setLimit(URL_A, 100);
    for (let i = 0; i < 16; i += 1) b.admit(account());
    expect(() => b.admit(account())).toThrow(BudgetRefusal);
    let cancels = 0;
    while (cancels < 100) {
      try {
        b.admit(cancel);
        cancels += 1;
      } catch {
        break;
      }
    }
    expect(80 + cancels).toBe(Math.floor(100 * PROTECT_SHARE));
    b.admit(order);
  });

  it("follows the exchange's own count: weight spent by others behind our address counts", () => {
    const { budget: b } = budget();
    b.setLimit(URL_A, 100);
    b.observe(URL_A, 200, (name) => (name === 'x-mbx-used-weight-1m' ? '78' : undefined));
    expect(b.used(URL_A)).toBe(78);
    expect(() => b.admit(account())).toThrow(BudgetRefusal);
    // A lower count than ours (an older answer) does not undo what we sent.
    b.observe(URL_A, 200, (name) => (name === 'x-mbx-used-weight-1m' ? '3' : undefined));
    expect(b.used(URL_A)).toBe(78);
  });

  it("after the exchange's 429 or 418 sends nothing, orders included, until its Retry-After has passed", () => {
    const { clock, budget: b } = budget();
    const warned: object[] = [];
    b.log = { warn: (object) => warned.push(object) };
    b.observe(URL_A, 429, (name) => (name === 'retry-after' ? '7' : undefined));
    expect(b.blockedUntil(URL_A)).toBe(clock.now + 7000);
    for (const call of [account(), order, cancel]) {
      const refused = refusal(() => b.admit(call));
      expect(refused.retryAfterS).toBe(7);
      expect(refused.message).toMatch(/asked Signaldesk to pause .*HTTP 429/);
    }
    b.admit(account({ url: URL_B }));
    clock.now += 6_999;
    expect(() => b.admit(order)).toThrow(BudgetRefusal);
    clock.now += 1;
    b.admit(order);
    // A 418 without Retry-After: Binance's shortest ban.
    b.observe(URL_A, 418, () => undefined);
    expect(refusal(() => b.admit(order)).retryAfterS).toBe(120);
    expect(warned).toHaveLength(2);
    expect(b.takeTripped().get(new URL(URL_A).origin)).toEqual({ until: clock.now + 120_000, status: 418 });
    expect(b.takeTripped().size).toBe(0);
  });

  it("keeps each trader to TRADER_SHARE, other traders' share untouched", () => {
    const { budget: b } = budget();
    const share = Math.floor(DEFAULT_WEIGHT_LIMIT * TRADER_SHARE);
    for (let i = 0; i < share / 5; i += 1) b.admit(account({ trader: 'a', provenKey: true }));
    const refused = refusal(() => b.admit(account({ trader: 'a', provenKey: true })));
    expect(refused.message).toMatch(/per trader/);
    b.admit(account({ trader: 'b', provenKey: true }));
    // An order of a trader at their share still goes: it costs no weight.
    b.admit({ ...order, trader: 'a' });
  });

  it('gives a key never accepted for the trader NEW_KEY_WEIGHT, and all such keys together NEW_KEYS_SHARE', () => {
    const { budget: b } = budget();
    const made_up = (trader: string) => account({ trader, provenKey: false });
    for (let i = 0; i < NEW_KEY_WEIGHT / 5; i += 1) b.admit(made_up('flooder'));
    expect(refusal(() => b.admit(made_up('flooder'))).message).toMatch(/not accepted yet/);
    // The same trader's accepted key is not held back by the made-up ones.
    b.admit(account({ trader: 'flooder', provenKey: true }));
    // Many accounts: the pool for all of them stops the flood.
    const pool = Math.floor(DEFAULT_WEIGHT_LIMIT * NEW_KEYS_SHARE);
    let admitted = NEW_KEY_WEIGHT;
    for (let trader = 0; trader < 100; trader += 1) {
      try {
        b.admit(made_up(`account-${trader}`));
        admitted += 5;
      } catch (error) {
        expect(error).toBeInstanceOf(BudgetRefusal);
      }
    }
    expect(admitted).toBe(pool);
    expect(b.used(URL_A)).toBe(pool + 5);
  });
});

describe('a new key that the exchange accepts', () => {
  it('gives its allowance back: adding several real keys in a minute costs nothing of it', () => {
    const { budget: b } = budget();
    for (let key = 0; key < 10; key += 1) {
      b.admit(account({ trader: 'a', provenKey: false })).keyAccepted();
    }
    // Refused ones keep spending it.
    for (let i = 0; i < NEW_KEY_WEIGHT / 5; i += 1) b.admit(account({ trader: 'a', provenKey: false }));
    expect(() => b.admit(account({ trader: 'a', provenKey: false }))).toThrow(BudgetRefusal);
  });
});

describe('a fair share of the address (issue 52)', () => {
  /** Reads of 5 until the budget refuses; answers the weight admitted. */
  function flood(b: ExchangeBudget, trader: string): number {
    let spent = 0;
    for (;;) {
      try {
        b.admit(account({ trader, provenKey: true }));
        spent += 5;
      } catch (error) {
        expect(error).toBeInstanceOf(BudgetRefusal);
        return spent;
      }
    }
  }

  it('shrinks as more traders are active, and five flooding accounts leave a sixth its page, open and close', () => {
    const { budget: b } = budget();
    const alone = flood(b, 'flooder-0');
    expect(alone).toBe(Math.floor(DEFAULT_WEIGHT_LIMIT * TRADER_SHARE));
    // Four more: each gets less than the first, as the share is divided among those active.
    const others = [1, 2, 3, 4].map((n) => flood(b, `flooder-${n}`));
    expect(others.at(-1)!).toBeLessThan(alone);
    // Flooding again in the same minute gets nothing more.
    for (let n = 0; n < 5; n += 1) expect(flood(b, `flooder-${n}`)).toBe(0);
    expect(b.used(URL_A)).toBeLessThan(DEFAULT_WEIGHT_LIMIT * READ_SHARE);
    // A sixth trader: balance and position (10), the open's leverage, margin type and bracket reads, the order
    // and the stop (orders cost no weight), then a close and its cancel.
    const sixth = { trader: 'sixth', provenKey: true };
    b.admit(account(sixth));
    b.admit({ ...account(sixth), path: '/fapi/v2/positionRisk' });
    b.admit({ ...account(sixth), method: 'POST', path: '/fapi/v1/leverage' });
    b.admit({ ...account(sixth), method: 'POST', path: '/fapi/v1/marginType' });
    b.admit({ ...account(sixth), path: '/fapi/v1/leverageBracket' });
    b.admit({ ...order, ...sixth });
    b.admit({ ...order, ...sixth, path: '/fapi/v1/algoOrder' });
    b.admit({ ...account(sixth), path: '/fapi/v1/userTrades' });
    b.admit({ ...order, ...sixth });
    b.admit({ ...cancel, ...sixth });
    // A seventh and an eighth still get their first page read.
    b.admit(account({ trader: 'seventh', provenKey: true }));
    b.admit(account({ trader: 'eighth', provenKey: true }));
  });

  it("lets a trader's protective calls past the share, up to a bound of their own", () => {
    const { budget: b } = budget();
    flood(b, 'a');
    b.admit({ ...cancel, trader: 'a' });
    let cancels = 1;
    for (; cancels < 1000; cancels += 1) {
      try {
        b.admit({ ...cancel, trader: 'a' });
      } catch {
        break;
      }
    }
    expect(cancels).toBeGreaterThan(10);
    expect(cancels).toBeLessThan(1000);
  });
});

describe("an account's own limits (issue 52)", () => {
  const keyed = (apiKey: string, trader: string) => ({ ...order, trader, apiKey });

  it("a -1015 pauses that key's new orders for the exchange's window, not the address", () => {
    const { clock, budget: b } = budget();
    b.admit(keyed('key-a', 'a'));
    b.observe(URL_A, 429, () => undefined, {
      apiKey: 'key-a',
      body: '{"code":-1015,"msg":"Too many new orders; current limit is 300 orders per 10 seconds."}',
    });
    expect(b.blockedUntil(URL_A)).toBe(0);
    const refused = refusal(() => b.admit(keyed('key-a', 'a')));
    expect(refused.message).toMatch(/this API key's new orders/);
    expect(refused.retryAfterS).toBeLessThanOrEqual(10);
    // The same trader's reads and cancels, another key's orders: not paused.
    b.admit(account({ trader: 'a', provenKey: true }));
    b.admit({ ...cancel, trader: 'a', apiKey: 'key-a' });
    b.admit(keyed('key-b', 'b'));
    clock.now += 10_000;
    b.admit(keyed('key-a', 'a'));
  });

  it("an order-count header at its limit is the account's too; an IP-weight 429 (-1003) still stops everyone", () => {
    const { budget: b } = budget();
    b.observe(URL_A, 429, (name) => (name === 'x-mbx-order-count-1m' ? '1200' : undefined), {
      apiKey: 'key-a',
    });
    expect(b.blockedUntil(URL_A)).toBe(0);
    expect(() => b.admit(keyed('key-a', 'a'))).toThrow(BudgetRefusal);
    b.observe(URL_A, 429, (name) => (name === 'retry-after' ? '30' : undefined), {
      apiKey: 'key-b',
      body: '{"code":-1003,"msg":"Too many requests; current limit is 2400 requests per minute."}',
    });
    expect(b.blockedUntil(URL_A)).toBeGreaterThan(0);
    expect(() => b.admit(keyed('key-c', 'c'))).toThrow(BudgetRefusal);
  });

  it("caps each trader's new orders at the exchange's per-10 s count before they reach it", () => {
    const { clock, budget: b } = budget();
    for (let i = 0; i < ORDERS_PER_10S; i += 1) b.admit(keyed('key-a', 'a'));
    expect(refusal(() => b.admit(keyed('key-a2', 'a'))).message).toMatch(/per 10 s/);
    b.admit(keyed('key-b', 'b'));
    clock.now += 10_000;
    b.admit(keyed('key-a', 'a'));
  });
});
