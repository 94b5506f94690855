import { describe, expect, test, vi } from 'vitest';
import {
  PUSH_BROWSER_ANSWER_MS,
  answerWithin,
  base64UrlBytes,
  pushSupported,
  readPushDeviceState,
  sameKey,
} from './push-device';
import { isAppPath } from './use-push';

describe('Web Push helpers (issue 41)', () => {
  test('base64url (with or without padding) decodes to the bytes of the key', () => {
    expect([...base64UrlBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
    expect([...base64UrlBytes('AQID_-8=')]).toEqual([1, 2, 3, 255, 239]);
    // A VAPID public key: 65 bytes, uncompressed P-256 (0x04 first).
    const key = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
    const bytes = base64UrlBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });

  test('a subscription made under another server key is told apart (the device subscribes again)', () => {
    const key = base64UrlBytes('AQID_-8');
    expect(sameKey(new Uint8Array([1, 2, 3, 255, 239]).buffer, key)).toBe(true);
    expect(sameKey(new Uint8Array([1, 2, 3, 255, 238]).buffer, key)).toBe(false);
    expect(sameKey(new Uint8Array([1, 2, 3, 255]).buffer, key)).toBe(false);
    expect(sameKey(null, key)).toBe(true);
  });

  test('the page follows only paths of this site from the worker', () => {
    expect(isAppPath('/trading?signal=1')).toBe(true);
    expect(isAppPath('/trade_history?trade=2')).toBe(true);
    expect(isAppPath('//evil.example/x')).toBe(false);
    expect(isAppPath('https://evil.example/')).toBe(false);
    expect(isAppPath(undefined)).toBe(false);
  });

  test('a browser without service workers is "unsupported"', async () => {
    expect(pushSupported()).toBe(false);
    expect(await readPushDeviceState()).toBe('unsupported');
  });
});

// Issue 53: a browser whose push service never answers no longer leaves 'Turn on' greyed for good.
describe('answerWithin', () => {
  test('a step that never answers is refused after the limit, saying which; an answer in time passes', async () => {
    vi.useFakeTimers();
    try {
      const never = answerWithin(new Promise<never>(() => undefined), PUSH_BROWSER_ANSWER_MS, 'Push service');
      const outcome = never.then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await vi.advanceTimersByTimeAsync(PUSH_BROWSER_ANSWER_MS - 1);
      let settled = false;
      void outcome.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBe('Push service: no answer in 20 s');
      expect(await answerWithin(Promise.resolve('sub'), PUSH_BROWSER_ANSWER_MS, 'Push service')).toBe('sub');
    } finally {
      vi.useRealTimers();
    }
  });
});
