// The login lanes cannot be turned against others (issue 52): one trader's login-device cookie, copied into
// twenty loops of right-password logins, once filled the fast lane (other owners got 429 for 24 s) and starved
// the common lane (a new browser got no answer at all), and made 458 sessions in 105 s. Now one e-mail holds at
// most one place in the fast lane, the lanes are served in turn, no hash waits past HASH_WAIT_LIMIT_MS, and an
// e-mail's logins are limited like its failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_LANE_PER_EMAIL, HASH_WAIT_LIMIT_MS, usePasswordCostForTests } from '../../services/password';
import { TEST_PASSWORD, createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';
import { LOGIN_SUCCESS_BLOCKED, LOGIN_SUCCESS_LIMIT } from './index';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The lanes only fill when a hash takes what a real one takes.
  usePasswordCostForTests('production');
});
afterAll(async () => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function login(user_email: string, remoteAddress: string, device?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { user_email, user_password: TEST_PASSWORD },
    remoteAddress,
    ...(device ? { cookies: { login_device: device } } : {}),
  });
}

async function deviceOf(email: string, remoteAddress: string): Promise<string> {
  const answer = await login(email, remoteAddress);
  expect(answer.statusCode, answer.body).toBe(200);
  const device = answer.cookies.find((cookie) => cookie.name === 'login_device')?.value;
  expect(device).toBeTruthy();
  return device!;
}

/**
 * Logs in as a trader would: again after each 429's Retry-After, until logged in or `withinMs` has passed
 * (an attempt still unanswered then counts as no answer). The status of the last answer, or 'no answer'.
 */
async function getIn(email: string, remoteAddress: string, withinMs: number, device?: string) {
  const started = performance.now();
  const left = () => withinMs - (performance.now() - started);
  const pending: Promise<unknown>[] = [];
  let last: number | 'no answer' = 'no answer';
  let tries = 0;
  while (left() > 0) {
    tries += 1;
    const attempt = login(email, remoteAddress, device);
    pending.push(attempt);
    const answer = await Promise.race([attempt, sleep(left()).then(() => undefined)]);
    if (!answer) {
      last = 'no answer';
      break;
    }
    last = answer.statusCode;
    if (last === 200) break;
    expect(last, answer.body).toBe(429);
    expect(answer.json().detail).toEqual(expect.any(String));
    await sleep(Math.min(Number(answer.headers['retry-after'] ?? 1) * 1000, Math.max(0, left())));
  }
  return { status: last, ms: performance.now() - started, tries, pending };
}

describe('one trader looping logins with his own cookie cannot stop the others', () => {
  it('20 loops of right-password logins with one cookie: another trader with his own cookie gets in within 5 s, one from a new browser within 10 s', async () => {
    const looper = await signUpAndLogIn(t.app);
    const owner = await signUpAndLogIn(t.app);
    const newcomer = await signUpAndLogIn(t.app);
    const looperDevice = await deviceOf(looper.user_email, looper.remoteAddress);
    const ownerDevice = await deviceOf(owner.user_email, owner.remoteAddress);

    let looping = true;
    let sent = 0;
    let sessions = 0;
    let slowestMs = 0;
    const statuses = new Map<number, number>();
    const loops = Array.from({ length: 20 }, async (_, loop) => {
      while (looping) {
        sent += 1;
        const started = performance.now();
        // A fresh address each time: the per-address request rate does not stop the loops.
        const answer = await login(looper.user_email, `198.51.${loop}.${(sent % 250) + 1}`, looperDevice);
        slowestMs = Math.max(slowestMs, performance.now() - started);
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
        if (answer.statusCode === 200) sessions += 1;
        else await sleep(20);
      }
    });
    await sleep(300);
    let withCookie, fromNewBrowser;
    try {
      // One after the other, each timed from its own first try, while the loops go on.
      withCookie = await getIn(owner.user_email, owner.remoteAddress, 5_000, ownerDevice);
      fromNewBrowser = await getIn(newcomer.user_email, newcomer.remoteAddress, 10_000);
    } finally {
      looping = false;
      await Promise.all(loops);
    }
    await Promise.all([...withCookie!.pending, ...fromNewBrowser!.pending]);
    console.info(
      `login loops: ${sent} logins sent (${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}), ` +
        `slowest answer ${slowestMs.toFixed(0)} ms; another owner in after ${withCookie!.tries} tries, ` +
        `${withCookie!.ms.toFixed(0)} ms; a new browser after ${fromNewBrowser!.tries} tries, ` +
        `${fromNewBrowser!.ms.toFixed(0)} ms`,
    );
    expect(withCookie!.status).toBe(200);
    expect(fromNewBrowser!.status).toBe(200);
    // Each of the loops' logins was answered (a refusal, not a hang) ...
    expect(slowestMs).toBeLessThan(HASH_WAIT_LIMIT_MS + 15_000);
    // ... and the e-mail's logins are bounded: its two earlier ones, the loops' and these make the
    // limit, then 429.
    let more = 0;
    let refused = await login(looper.user_email, looper.remoteAddress, looperDevice);
    while (refused.statusCode === 200 && more < LOGIN_SUCCESS_LIMIT.maxFailures) {
      more += 1;
      refused = await login(looper.user_email, looper.remoteAddress, looperDevice);
    }
    expect(2 + sessions + more).toBe(LOGIN_SUCCESS_LIMIT.maxFailures);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: LOGIN_SUCCESS_BLOCKED });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(FAST_LANE_PER_EMAIL).toBe(1);
  }, 60_000);
});
