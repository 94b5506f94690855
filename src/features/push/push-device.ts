// This device's Web Push (issue 41): the service worker's registration (public/sw.js), the device's state
// shown in Trade Preferences, turning it on and off, and keeping the server's copy current. Nothing of it is
// stored by the page: the browser keeps the subscription, the server its copy (endpoint and public keys only).
import { proxy } from 'valtio';
import type { PushSubscribeBody } from '../../../contracts/push';
import { LANGUAGES, type Language } from '../../config/constants';
import { getPushPublicKey, postPushSubscribe, postPushUnsubscribe } from './push-api';

/** What the device can do: no Web Push in this browser, notifications blocked, or a subscription or none. */
export type PushDeviceState = 'unsupported' | 'blocked' | 'off' | 'on';

/** Why Turn on or Turn off failed (push.error.* in the locales). */
export type PushError = 'no_service' | 'denied' | 'server' | 'worker';

interface PushDeviceStore {
  state: PushDeviceState | undefined;
  busy: boolean;
  error: PushError | undefined;
  /** The server's detail for a 'server' error. */
  error_detail: string | undefined;
}

export const pushDeviceStore = proxy<PushDeviceStore>({
  state: undefined,
  busy: false,
  error: undefined,
  error_detail: undefined,
});

const WORKER_URL = '/sw.js';

export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

let registering: Promise<ServiceWorkerRegistration | undefined> | undefined;

/**
 * Registers the worker once per page (when the browser has service workers); its registration once active.
 * A failed registration (a browser in a private mode that refuses workers) leaves push unsupported.
 */
export function registerPushWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return Promise.resolve(undefined);
  registering ??= navigator.serviceWorker
    .register(WORKER_URL, { scope: '/' })
    .then(() => navigator.serviceWorker.ready)
    .catch((error: unknown) => {
      console.warn('Service worker not registered', error);
      return undefined;
    });
  return registering;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await registerPushWorker();
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Reads this device's state into the store. */
export async function readPushDeviceState(): Promise<PushDeviceState> {
  let state: PushDeviceState;
  if (!pushSupported()) state = 'unsupported';
  else if (Notification.permission === 'denied') state = 'blocked';
  else {
    const registration = await registerPushWorker();
    if (!registration) state = 'unsupported';
    else state = (await registration.pushManager.getSubscription()) ? 'on' : 'off';
  }
  pushDeviceStore.state = state;
  return state;
}

function languageOf(language: string): Language {
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';
}

/** The subscribe body: PushSubscription.toJSON() and the page's language. */
function subscribeBody(subscription: PushSubscription, language: string): PushSubscribeBody {
  const json = subscription.toJSON();
  return {
    endpoint: json.endpoint ?? subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    language: languageOf(language),
  };
}

/** base64url → the bytes PushManager.subscribe takes as applicationServerKey. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription's applicationServerKey is `key` (a browser that does not say counts as the same). */
export function sameKey(current: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!current) return true;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
}

/**
 * How long a step of the browser's own (the worker's registration, its push service's subscription) may take
 * before the page says it did not answer (issue 53: a browser whose subscribe never answers left 'Turn on'
 * greyed for good). The permission prompt has no limit: a person answers it.
 */
export const PUSH_BROWSER_ANSWER_MS = 20_000;

/** `promise`, or a rejection saying `what` did not answer within `ms`. */
export function answerWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function fail(error: PushError, detail?: string): false {
  pushDeviceStore.error = error;
  pushDeviceStore.error_detail = detail;
  return false;
}

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Turn on: the browser's permission, the server's key, the browser's subscription (its push service), then the
 * server's copy. Each failure says which step failed (pushDeviceStore.error); true when the device is on.
 */
export async function turnPushOn(language: string): Promise<boolean> {
  if (pushDeviceStore.busy) return false;
  pushDeviceStore.busy = true;
  pushDeviceStore.error = undefined;
  pushDeviceStore.error_detail = undefined;
  try {
    if (!pushSupported()) return fail('no_service');
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      await readPushDeviceState();
      return fail('denied');
    }
    let registration: ServiceWorkerRegistration | undefined;
    try {
      registration = await answerWithin(registerPushWorker(), PUSH_BROWSER_ANSWER_MS, 'Service worker');
    } catch (error) {
      return fail('worker', detailOf(error));
    }
    if (!registration) return fail('worker');
    let publicKey: string;
    try {
      publicKey = await getPushPublicKey();
    } catch (error) {
      return fail('server', detailOf(error));
    }
    let subscription: PushSubscription;
    try {
      const { pushManager } = registration;
      subscription = await answerWithin(
        (async () =>
          (await pushManager.getSubscription()) ??
          (await pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: base64UrlBytes(publicKey),
          })))(),
        PUSH_BROWSER_ANSWER_MS,
        'Push service',
      );
    } catch (error) {
      // Chromium without its vendor's push service (headless, or a network that blocks it): AbortError.
      console.warn('Push subscription failed', error);
      return fail('no_service', detailOf(error));
    }
    try {
      await postPushSubscribe(subscribeBody(subscription, language));
    } catch (error) {
      // The server does not know it: no subscription left behind that would receive nothing.
      await subscription.unsubscribe().catch(() => false);
      return fail('server', detailOf(error));
    }
    pushDeviceStore.state = 'on';
    return true;
  } finally {
    pushDeviceStore.busy = false;
  }
}

/** Turn off: the browser forgets the subscription, then the server. */
export async function turnPushOff(): Promise<boolean> {
  if (pushDeviceStore.busy) return false;
  pushDeviceStore.busy = true;
  pushDeviceStore.error = undefined;
  pushDeviceStore.error_detail = undefined;
  try {
    const subscription = await currentSubscription();
    if (subscription) {
      const endpoint = subscription.endpoint;
      await subscription.unsubscribe().catch(() => false);
      try {
        await postPushUnsubscribe({ endpoint });
      } catch (error) {
        // The browser has let go of it: the push service answers 410 and the server drops it then.
        pushDeviceStore.state = 'off';
        return fail('server', detailOf(error));
      }
    }
    pushDeviceStore.state = 'off';
    return true;
  } finally {
    pushDeviceStore.busy = false;
  }
}

/**
 * At page load and login: a device that already has a subscription sends it again, so the server knows it
 * under this login and in the page's language. Silent: a failure changes nothing the trader sees.
 */
export async function refreshPushSubscription(language: string): Promise<void> {
  if (!pushSupported()) return;
  try {
    let subscription = await currentSubscription();
    await readPushDeviceState();
    if (!subscription || Notification.permission !== 'granted') return;
    // Made under another server key (the server's master key, and with it its VAPID key, was replaced): its push
    // service would refuse every push signed with the new key, so the device subscribes again under it.
    const publicKey = await getPushPublicKey();
    if (!sameKey(subscription.options.applicationServerKey, base64UrlBytes(publicKey))) {
      const registration = await registerPushWorker();
      await subscription.unsubscribe().catch(() => false);
      if (!registration) return;
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlBytes(publicKey),
      });
    }
    await postPushSubscribe(subscribeBody(subscription, language));
  } catch (error) {
    console.warn('Push subscription not refreshed', error);
  }
}

/**
 * Before the logout call: the server forgets this device (it also drops the login's subscriptions), and so
 * does the browser, so the next trader who logs in on this device is told nothing until they turn it on.
 */
export async function forgetPushDevice(): Promise<void> {
  if (!pushSupported()) return;
  try {
    const subscription = await currentSubscription();
    if (!subscription) return;
    const endpoint = subscription.endpoint;
    await subscription.unsubscribe().catch(() => false);
    pushDeviceStore.state = 'off';
    await postPushUnsubscribe({ endpoint });
  } catch (error) {
    console.warn('Push subscription not removed', error);
  }
}
