// GET /api/auth/create_websocket_token/ and /api/ws_core/{token}: a token opens one socket, once, within
// its lifetime; anything else is closed with 4401. The hub then reaches the socket by user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { WS_LOGGED_OUT_CLOSE_CODE, WS_UNAUTHORIZED_CLOSE_CODE } from '../../services/socket-hub';
import { WEBSOCKET_TOKEN_TTL_MS } from '../../services/sessions';
import { TEST_PASSWORD, createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function websocketToken(authorization: string): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/auth/create_websocket_token/',
    headers: { authorization },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().result.expires_in).toBe(WEBSOCKET_TOKEN_TTL_MS / 1000);
  return response.json().result.token;
}

/** Connects, listening for the close code from before the socket opens (no frame can slip by). */
async function connect(path: string): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  let closed!: Promise<number>;
  const socket = await t.app.injectWS(
    path,
    {},
    {
      onInit: (ws) => {
        closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
      },
    },
  );
  return { socket, closed };
}

function nextMessage(socket: WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

describe('websocket tokens', () => {
  it('needs a logged-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/create_websocket_token/' });
    expect(response.statusCode).toBe(401);
  });

  it('opens a socket that receives events sent to its user, and only once', async () => {
    const user = await signUpAndLogIn(t.app);
    const other = await signUpAndLogIn(t.app);
    const token = await websocketToken(user.headers.authorization);
    const { socket } = await connect(`/api/ws_core/${token}`);
    const { socket: otherSocket } = await connect(
      `/api/ws_core/${await websocketToken(other.headers.authorization)}`,
    );
    const received = nextMessage(socket);
    let otherReceived = false;
    otherSocket.on('message', () => (otherReceived = true));

    t.hub.sendToUser(user.user_uuid, { event: 'bad_event', message: { detail: 'for you' } });
    expect(await received).toEqual({ event: 'bad_event', message: { detail: 'for you' } });
    expect(otherReceived).toBe(false);

    const replay = await connect(`/api/ws_core/${token}`);
    expect(await replay.closed).toBe(WS_UNAUTHORIZED_CLOSE_CODE);
    socket.terminate();
    otherSocket.terminate();
  });

  it("logout closes the login's open sockets and revokes its unspent tokens; another login's socket stays (issue 38 item 4)", async () => {
    const user = await signUpAndLogIn(t.app);
    const otherLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      remoteAddress: user.remoteAddress,
      payload: { user_email: user.user_email, user_password: TEST_PASSWORD },
    });
    const other = `bearer ${otherLogin.json().result.access_token as string}`;
    const open = await connect(`/api/ws_core/${await websocketToken(user.headers.authorization)}`);
    const unspent = await websocketToken(user.headers.authorization);
    const elsewhere = await connect(`/api/ws_core/${await websocketToken(other)}`);
    let elsewhereClosed = false;
    elsewhere.socket.on('close', () => (elsewhereClosed = true));

    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      cookies: { refresh_token: user.refreshCookie },
    });
    expect(logout.statusCode).toBe(200);
    expect(await open.closed).toBe(WS_LOGGED_OUT_CLOSE_CODE);
    const late = await connect(`/api/ws_core/${unspent}`);
    expect(await late.closed).toBe(WS_UNAUTHORIZED_CLOSE_CODE);
    // The trader's other login still gets its events.
    const received = nextMessage(elsewhere.socket);
    t.hub.sendToUser(user.user_uuid, { event: 'bad_event', message: { detail: 'still here' } });
    expect(await received).toEqual({ event: 'bad_event', message: { detail: 'still here' } });
    expect(elsewhereClosed).toBe(false);
    elsewhere.socket.terminate();
  });

  it('closes with 4401 for an unknown or expired token', async () => {
    const unknown = await connect('/api/ws_core/not-a-token');
    expect(await unknown.closed).toBe(WS_UNAUTHORIZED_CLOSE_CODE);

    const user = await signUpAndLogIn(t.app);
    const token = await websocketToken(user.headers.authorization);
    t.clock.advance(WEBSOCKET_TOKEN_TTL_MS + 1000);
    const expired = await connect(`/api/ws_core/${token}`);
    expect(await expired.closed).toBe(WS_UNAUTHORIZED_CLOSE_CODE);
  });
});
