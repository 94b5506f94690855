// Test support for route tests: a whole app on an in-memory PGlite database (issue 5: "in-memory PGlite per
// test file"), optionally on a real paper exchange, and a signed-up, logged-in trader. Not used at run time.
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../app';
import { openDatabase } from '../db';
import { MarketFeed } from '../engine/market-feed';
import { initTradeCore } from '../lib/trade-core';

export interface TestExchange {
  url: string;
  wsUrl: string;
}

export interface TestAppOptions {
  /** A running exchange: symbols come from it and it becomes the paper platform. */
  exchange?: TestExchange;
  logger?: FastifyBaseLogger;
}

/** A clock the test moves forward (token expiry, rate-limit windows) instead of waiting. */
export class TestClock {
  constructor(public nowMs = Date.now()) {}
  readonly now = () => this.nowMs;
  advance(ms: number): void {
    this.nowMs += ms;
  }
}

const silent = { warn: () => undefined };

export async function createTestApp(options: TestAppOptions = {}) {
  await initTradeCore();
  const database = await openDatabase({});
  const clock = new TestClock();
  // Never started: the routes under test do not need live prices.
  const feed = new MarketFeed(
    options.exchange?.url ?? 'http://127.0.0.1:9',
    options.exchange?.wsUrl ?? 'ws://127.0.0.1:9',
    [],
    silent,
  );
  const { app, hub } = await buildApp({
    feed,
    db: database.db,
    logger: options.logger,
    exchangeUrl: options.exchange?.url,
    paperExchangeUrl: options.exchange?.url,
    clock: clock.now,
  });
  await app.ready();
  return {
    app,
    hub,
    db: database.db,
    clock,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export const TEST_PASSWORD = 'Secret#1a';

let sequence = 0;

/** Signs up a new trader and logs in; returns the bearer header and the refresh cookie. */
export async function signUpAndLogIn(app: TestApp['app'], nickname = 'trader') {
  sequence += 1;
  const user_email = `${nickname}.${sequence}.${Date.now()}@example.com`;
  const signup = await app.inject({
    method: 'POST',
    url: '/api/user/',
    payload: {
      user_email,
      user_nickname: nickname,
      user_password: TEST_PASSWORD,
      user_password_repeat: TEST_PASSWORD,
    },
  });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { user_email, user_password: TEST_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { access_token, token_type } = login.json().result as { access_token: string; token_type: string };
  const refreshCookie = login.cookies.find((cookie) => cookie.name === 'refresh_token')?.value;
  return {
    user_email,
    user_uuid: signup.json().result.user_uuid as string,
    accessToken: access_token,
    headers: { authorization: `${token_type} ${access_token}` },
    refreshCookie: refreshCookie!,
  };
}
