// /api/trade_preferences/*: defaults for a new user and SPEC.md §5 "Global preference" bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRADE_PREFERENCES } from '../../services/preferences';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  headers = (await signUpAndLogIn(t.app)).headers;
});
afterAll(async () => t.close());

const read = () => t.app.inject({ method: 'GET', url: '/api/trade_preferences/get_preferences/', headers });
const save = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/trade_preferences/set_preferences/', headers, payload });

const good = {
  trade_auto_open_delay: 5,
  trade_auto_close_delay: 60,
  minimal_accuracy: 72.5,
  trade_in_server_side: 1,
};

/** Web Push's kinds (issue 41), all on until the trader turns one off. */
const PUSH_ON = {
  push_signals: 1,
  push_trade_opened: 1,
  push_trade_closed: 1,
  push_unprotected: 1,
  push_refusals: 1,
};

describe('trade preferences', () => {
  it('answers the defaults before anything is saved', async () => {
    const response = await read();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: DEFAULT_TRADE_PREFERENCES });
  });

  it('saves and reads back the four values; the risk limits it leaves out stay off (0), the exits on the exchange', async () => {
    const stored = {
      ...good,
      trade_max_open_trades: 0,
      trade_daily_loss_limit: 0,
      trade_exits_on_exchange: 1,
      trade_follow_when_away: 1,
      trade_server_acts_when_away: 0,
      trade_one_click_close: 0,
      ...PUSH_ON,
    };
    expect((await save(good)).json()).toEqual({ result: stored });
    expect((await read()).json()).toEqual({ result: stored });
  });

  it('saves the risk limits (issue 18), and a later save without them keeps them', async () => {
    const limits = { trade_max_open_trades: 3, trade_daily_loss_limit: 50 };
    expect((await save({ ...good, ...limits })).json()).toEqual({
      result: {
        ...good,
        ...limits,
        trade_exits_on_exchange: 1,
        trade_follow_when_away: 1,
        trade_server_acts_when_away: 0,
        trade_one_click_close: 0,
        ...PUSH_ON,
      },
    });
    expect((await save({ ...good, minimal_accuracy: 80 })).json()).toEqual({
      result: {
        ...good,
        minimal_accuracy: 80,
        ...limits,
        trade_exits_on_exchange: 1,
        trade_follow_when_away: 1,
        trade_server_acts_when_away: 0,
        trade_one_click_close: 0,
        ...PUSH_ON,
      },
    });
    expect((await read()).json()).toEqual({
      result: {
        ...good,
        minimal_accuracy: 80,
        ...limits,
        trade_exits_on_exchange: 1,
        trade_follow_when_away: 1,
        trade_server_acts_when_away: 0,
        trade_one_click_close: 0,
        ...PUSH_ON,
      },
    });
  });

  it('turns the exits held by the exchange off (issue 35), and a later save without the field keeps it off', async () => {
    const off = await save({ ...good, trade_exits_on_exchange: 0 });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().result.trade_exits_on_exchange).toBe(0);
    await save({ ...good, minimal_accuracy: 70 });
    expect((await read()).json().result).toMatchObject({ minimal_accuracy: 70, trade_exits_on_exchange: 0 });
    const refused = await save({ ...good, trade_exits_on_exchange: 2 });
    expect(refused.statusCode).toBe(400);
    expect((await save({ ...good, trade_exits_on_exchange: 1 })).json().result.trade_exits_on_exchange).toBe(
      1,
    );
  });

  it('turns following the account while away off (issue 37), and a later save without the field keeps it off', async () => {
    const off = await save({ ...good, trade_follow_when_away: 0 });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().result.trade_follow_when_away).toBe(0);
    await save({ ...good, minimal_accuracy: 70 });
    expect((await read()).json().result).toMatchObject({ minimal_accuracy: 70, trade_follow_when_away: 0 });
    expect((await save({ ...good, trade_follow_when_away: 2 })).statusCode).toBe(400);
    expect((await save({ ...good, trade_follow_when_away: 1 })).json().result.trade_follow_when_away).toBe(1);
  });

  it('saves one-click close (issue 39): off by default, kept by a later save without the field', async () => {
    expect((await read()).json().result.trade_one_click_close).toBe(0);
    const on = await save({ ...good, trade_one_click_close: 1 });
    expect(on.statusCode, on.body).toBe(200);
    await save({ ...good, minimal_accuracy: 75 });
    expect((await read()).json().result).toMatchObject({ minimal_accuracy: 75, trade_one_click_close: 1 });
    expect((await save({ ...good, trade_one_click_close: 3 })).statusCode).toBe(400);
  });

  it('accepts minimal_accuracy on its 0.1 step despite floating point noise', async () => {
    const response = await save({ ...good, minimal_accuracy: 60 + 0.1 * 3 });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.minimal_accuracy).toBe(60.3);
  });

  it.each([
    ['trade_auto_open_delay', -1],
    ['trade_auto_open_delay', 61],
    ['trade_auto_open_delay', 1.5],
    ['trade_auto_close_delay', 61],
    ['minimal_accuracy', 59.9],
    ['minimal_accuracy', 100.1],
    ['minimal_accuracy', 70.05],
    ['trade_in_server_side', 2],
  ])('answers 400 naming %s for %s', async (field, value) => {
    const response = await save({ ...good, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(new RegExp(`^${field}: `));
  });

  it('answers 400 for a missing field and 401 without a token', async () => {
    const { minimal_accuracy: _omitted, ...rest } = good;
    expect((await save(rest)).statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/trade_preferences/get_preferences/' });
    expect(anonymous.statusCode).toBe(401);
  });
});
