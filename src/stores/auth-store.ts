// The current user (SPEC.md §3 User): is_init is true at start and false once the user query succeeds or
// fails. Login stores 'type token', then fetches the user and a websocket token (SPEC.md §4 "Logout", §7).
import { proxy } from 'valtio';
import type { CurrentUser, LoginBody, SignupBody } from '../../contracts/auth';
import { ApiError, clearStoredToken, getStoredToken, storeToken } from '../lib/api-client';
import { createWebsocketToken } from './api/create-websocket-token';
import { getCurrentUser } from './api/get-current-user';
import { login } from './api/login';
import { logout } from './api/logout';
import { signup } from './api/signup';

interface AuthState {
  user: CurrentUser | undefined;
  is_init: boolean;
  /** Error text of the last failed user query, shown on the profile card. */
  user_error: string | undefined;
  /** A single-use token for /api/ws_core/{token}, fetched after login; live-events takes it to connect. */
  websocket_token: string | undefined;
}

function initialState(): AuthState {
  return { user: undefined, is_init: true, user_error: undefined, websocket_token: undefined };
}

export const authStore = proxy<AuthState>(initialState());

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** GET /auth/me/. Failures are only logged (SPEC.md §8) and kept for the profile card. */
async function loadCurrentUser(): Promise<void> {
  try {
    authStore.user = await getCurrentUser();
    authStore.user_error = undefined;
  } catch (error) {
    console.error(error);
    authStore.user_error = errorText(error);
    // The api client cleared a token that could not be refreshed: nobody is logged in any more.
    if (!getStoredToken()) authStore.user = undefined;
  } finally {
    authStore.is_init = false;
  }
}

// The websocket token request in flight, so a login's fetch and live-events' take share one request.
let websocketTokenRequest: Promise<void> | undefined;

export function loadWebsocketToken(): Promise<void> {
  websocketTokenRequest ??= (async () => {
    try {
      authStore.websocket_token = (await createWebsocketToken()).token;
    } catch (error) {
      console.error(error);
    } finally {
      websocketTokenRequest = undefined;
    }
  })();
  return websocketTokenRequest;
}

/**
 * Hands out a websocket token for one connection and forgets it (tokens are single-use): the one fetched
 * after login when there is one, a new one otherwise. Undefined when none can be had (no user, network down).
 */
export async function takeWebsocketToken(): Promise<string | undefined> {
  if (websocketTokenRequest) await websocketTokenRequest;
  if (!authStore.websocket_token && authStore.user) await loadWebsocketToken();
  const token = authStore.websocket_token;
  authStore.websocket_token = undefined;
  return token;
}

/** At start: with a stored token the user is fetched; without one nobody is logged in. */
export async function initAuth(): Promise<void> {
  if (!getStoredToken()) {
    authStore.is_init = false;
    return;
  }
  authStore.is_init = true;
  await loadCurrentUser();
  if (authStore.user) await loadWebsocketToken();
}

/** Logs in; throws the ApiError for the dialog. After success the user and a websocket token are fetched. */
export async function loginUser(body: LoginBody): Promise<void> {
  const { token_type, access_token } = await login(body);
  storeToken(token_type, access_token);
  await loadCurrentUser();
  if (authStore.user) await loadWebsocketToken();
}

/** Signs up, then logs in with the same credentials so the new trader lands in the app. */
export async function signupUser(body: SignupBody): Promise<void> {
  await signup(body);
  await loginUser({ user_email: body.user_email, user_password: body.user_password });
}

/** Tells the server to drop the refresh cookie (best effort) and forgets the access token. */
export async function endSession(): Promise<void> {
  if (getStoredToken()) {
    try {
      await logout();
    } catch (error) {
      if (!(error instanceof ApiError)) console.error(error);
    }
  }
  clearStoredToken();
}

export function resetAuthStore(): void {
  Object.assign(authStore, initialState(), { is_init: false });
}
