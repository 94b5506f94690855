// A push subscription is one trader's (issue 52): another trader who learns a device's endpoint could subscribe
// it with keys of their own, and the upsert handed the row to them — the owner's device was told nothing more.
// Now that is refused (409) and the row kept; the same browser's own subscription (its keys) still passes to the
// trader logged in there.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../../db/schema';
import { PUSH_ENDPOINT_TAKEN } from '../../services/web-push';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';
import { startPushEndpoint, type PushEndpoint } from '../../../test/push-endpoint';

let push: PushEndpoint;
let t: TestApp;
beforeAll(async () => {
  push = await startPushEndpoint();
  t = await createTestApp({ pushEndpointOrigins: [push.origin] });
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

async function subscribe(
  trader: Awaited<ReturnType<typeof signUpAndLogIn>>,
  endpoint: string,
  keys: { p256dh: string; auth: string },
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/push/subscribe/',
    headers: trader.headers,
    payload: { endpoint, keys, language: 'en' },
  });
}

const rowOf = async (endpoint: string) =>
  (await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)))[0];

describe('a push subscription cannot be taken over', () => {
  it("subscribing another trader's endpoint with other keys is refused with 409 and the owner's device is still told", async () => {
    const owner = await signUpAndLogIn(t.app, 'owner');
    const intruder = await signUpAndLogIn(t.app, 'intruder');
    const device = push.device();
    expect((await subscribe(owner, device.endpoint, device.keys)).statusCode).toBe(200);

    const taken = await subscribe(intruder, device.endpoint, push.device().keys);
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toEqual({ detail: PUSH_ENDPOINT_TAKEN });
    const row = await rowOf(device.endpoint);
    expect(row?.user_uuid).toBe(owner.user_uuid);
    expect(row?.p256dh).toBe(device.keys.p256dh);
    expect(row?.auth).toBe(device.keys.auth);
    // Unsubscribing it does nothing either: it is not the intruder's.
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/push/unsubscribe/',
      headers: intruder.headers,
      payload: { endpoint: device.endpoint },
    });
    expect(off.statusCode).toBe(200);
    expect((await rowOf(device.endpoint))?.user_uuid).toBe(owner.user_uuid);

    // The owner's news still reaches the owner's device, readable with its keys.
    t.app.webPush.refusal(owner.user_uuid, PAPER_PLATFORM_UUID, -2015, 'Invalid API-key');
    const told = await push.next(device, (message) => message.kind === 'refusal');
    expect(told.kind).toBe('refusal');
    // And refreshing its own subscription is still the owner's right.
    expect((await subscribe(owner, device.endpoint, device.keys)).statusCode).toBe(200);
  });

  it("the same browser's subscription (its own keys) passes to the trader who logs in there", async () => {
    const first = await signUpAndLogIn(t.app, 'first');
    const second = await signUpAndLogIn(t.app, 'second');
    const device = push.device();
    expect((await subscribe(first, device.endpoint, device.keys)).statusCode).toBe(200);
    const next = await subscribe(second, device.endpoint, device.keys);
    expect(next.statusCode, next.body).toBe(200);
    expect((await rowOf(device.endpoint))?.user_uuid).toBe(second.user_uuid);
  });
});
