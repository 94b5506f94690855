import { beforeEach, describe, expect, test, vi } from 'vitest';
import { authStore, loadWebsocketToken, resetAuthStore, takeWebsocketToken } from './auth-store';
import { createWebsocketToken } from './api/create-websocket-token';

vi.mock('./api/create-websocket-token', () => ({ createWebsocketToken: vi.fn() }));

const USER = {
  user_uuid: '22222222-2222-4222-8222-222222222222',
  user_email: 'a@b.c',
  user_nickname: 'abcd',
  user_trade_token_key: 'a'.repeat(64),
};

beforeEach(() => {
  resetAuthStore();
  vi.mocked(createWebsocketToken).mockReset();
});

describe('websocket tokens are single-use', () => {
  test('the token fetched after login is handed out once, then a new one is fetched', async () => {
    let n = 0;
    vi.mocked(createWebsocketToken).mockImplementation(async () => ({ token: `t${++n}`, expires_in: 60 }));
    authStore.user = USER;
    await loadWebsocketToken();
    expect(await takeWebsocketToken()).toBe('t1');
    expect(authStore.websocket_token).toBeUndefined();
    expect(await takeWebsocketToken()).toBe('t2');
    expect(createWebsocketToken).toHaveBeenCalledTimes(2);
  });

  test('a take during the login fetch waits for it instead of fetching a second token', async () => {
    let release: (value: { token: string; expires_in: number }) => void = () => undefined;
    vi.mocked(createWebsocketToken).mockImplementationOnce(
      () => new Promise((resolve) => (release = resolve)),
    );
    authStore.user = USER;
    const login = loadWebsocketToken();
    const taken = takeWebsocketToken();
    release({ token: 'from-login', expires_in: 60 });
    await login;
    expect(await taken).toBe('from-login');
    expect(createWebsocketToken).toHaveBeenCalledTimes(1);
  });

  test('without a user, or when the fetch fails, there is no token', async () => {
    expect(await takeWebsocketToken()).toBeUndefined();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(createWebsocketToken).mockRejectedValue(new Error('offline'));
    authStore.user = USER;
    expect(await takeWebsocketToken()).toBeUndefined();
  });
});
