// /api/platform_preferences/*: defaults for a new user, SPEC.md §5 bounds and steps enforced on the server
// (out of range → 400 naming the field), trade_leverage capped by the platform's trade_leverage_max.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINANCE_PLATFORM_UUID, DEFAULT_LEVERAGE_MAX } from '../../services/platforms';
import { DEFAULT_PLATFORM_PREFERENCES } from '../../services/preferences';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  headers = (await signUpAndLogIn(t.app)).headers;
});
afterAll(async () => t.close());

const getUrl = (platformUuid: string) =>
  `/api/platform_preferences/get_preferences_by_platform_uuid/${platformUuid}/`;

function save(payload: object, authorization = headers.authorization) {
  return t.app.inject({
    method: 'POST',
    url: '/api/platform_preferences/set_preferences/',
    headers: { authorization },
    payload,
  });
}

const good = {
  platform_uuid: BINANCE_PLATFORM_UUID,
  trade_margin: 12.75,
  trade_leverage: 20,
  trade_stop_loss_percent: 7.5,
  trade_take_profit_percent: 2,
  trade_treiling_stop_percent: 100,
};

describe('platform preferences', () => {
  it('answers the defaults before anything is saved', async () => {
    const response = await t.app.inject({ method: 'GET', url: getUrl(BINANCE_PLATFORM_UUID), headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: DEFAULT_PLATFORM_PREFERENCES });
  });

  it('saves and reads back the five values', async () => {
    const saved = await save(good);
    expect(saved.statusCode).toBe(200);
    const { platform_uuid: _platform, ...values } = good;
    expect(saved.json()).toEqual({ result: values });
    const read = await t.app.inject({ method: 'GET', url: getUrl(BINANCE_PLATFORM_UUID), headers });
    expect(read.json()).toEqual({ result: values });
  });

  it('keeps each user’s values apart', async () => {
    const other = await signUpAndLogIn(t.app);
    const read = await t.app.inject({
      method: 'GET',
      url: getUrl(BINANCE_PLATFORM_UUID),
      headers: other.headers,
    });
    expect(read.json()).toEqual({ result: DEFAULT_PLATFORM_PREFERENCES });
  });

  it.each([
    ['trade_margin', 1.25],
    ['trade_margin', 1000.25],
    ['trade_margin', 10.1],
    ['trade_leverage', 0],
    ['trade_leverage', 2.5],
    ['trade_leverage', DEFAULT_LEVERAGE_MAX + 1],
    ['trade_stop_loss_percent', 4.5],
    ['trade_stop_loss_percent', 100.5],
    ['trade_stop_loss_percent', 10.2],
    ['trade_take_profit_percent', 1.5],
    ['trade_treiling_stop_percent', 101],
    ['trade_margin', '10'],
  ])('answers 400 naming %s for %s', async (field, value) => {
    const response = await save({ ...good, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(new RegExp(`^${field}: `));
  });

  it('accepts a stepper sum carrying floating point noise and stores the clean value', async () => {
    const response = await save({ ...good, trade_margin: 0.1 * 3 + 10.45 });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.trade_margin).toBe(10.75);
  });

  it('answers 404 for an unknown platform and 400 for a malformed uuid', async () => {
    const unknown = crypto.randomUUID();
    expect((await t.app.inject({ method: 'GET', url: getUrl(unknown), headers })).statusCode).toBe(404);
    expect((await save({ ...good, platform_uuid: unknown })).statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'GET', url: getUrl('not-a-uuid'), headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().detail).toMatch(/^platform_uuid: /);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: getUrl(BINANCE_PLATFORM_UUID) })).statusCode).toBe(401);
    expect((await save(good, '')).statusCode).toBe(401);
  });
});
