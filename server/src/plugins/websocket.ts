// Websocket at /api/ws_core/{token} (SPEC.md §7). The token is a single-use websocket token of
// GET /api/auth/create_websocket_token/; a socket with a missing, used or expired token is closed with
// code 4401. Accepted sockets go to the hub (services/socket-hub.ts), which keeps them per user and fans
// events out; this plugin only wires: the route, the limits, the heartbeat and the client frames.
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clientEvent, type ClientEvent, type ServerEvent } from '../../../contracts';
import {
  WS_LIMIT_CLOSE_CODE,
  WS_TOO_MANY_FRAMES,
  WS_TOO_MANY_SOCKETS,
  WS_UNAUTHORIZED_CLOSE_CODE,
  type SocketHub,
} from '../services/socket-hub';

/** The largest frame a client may send; ws closes a socket that sends more with 1009. */
export const WS_MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * Per trader on one instance: open sockets (a page holds one; tabs and reconnects add a few), and client frames
 * per second on each socket, a token bucket of `framesPerSecond` with room for a burst of twice that. The SPA
 * asks about each open trade at most every 750 ms (src/app/live-events.ts): 500 trades are about 670 frames a
 * second, inside the limit.
 */
export interface WebsocketLimits {
  socketsPerUser: number;
  framesPerSecond: number;
}
export const DEFAULT_WEBSOCKET_LIMITS: WebsocketLimits = { socketsPerUser: 20, framesPerSecond: 1000 };
/** A ping every 30 s; a socket that has not answered the previous one by then is dropped. */
const WS_HEARTBEAT_MS = 30_000;

export interface WebsocketOptions {
  hub: SocketHub;
  /** Events a socket receives right after it connects (the current state). */
  greeting: () => ServerEvent[];
  /** The user (and login) of a valid unused websocket token, consuming it; undefined otherwise. */
  consumeToken: (token: string) => Promise<{ userUuid: string; familyUuid?: string } | undefined>;
  /** Heartbeat period; default WS_HEARTBEAT_MS. */
  heartbeatMs?: number;
  /** Default DEFAULT_WEBSOCKET_LIMITS. */
  limits?: Partial<WebsocketLimits>;
  /**
   * A well-formed client event of the socket's user; `reply` answers on that socket only. Without a handler
   * client events are accepted and not answered.
   */
  onClientEvent?: (event: ClientEvent, userUuid: string, reply: (event: ServerEvent) => void) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the websocket route's preValidation when its token was valid. */
    wsUserUuid?: string;
    /** The login the socket's token was issued to (logout closes its sockets). */
    wsFamilyUuid?: string;
  }
}

/** A token bucket: `take()` is false once more than the rate (plus its burst) was asked for. */
function frameBucket(perSecond: number): { take(): boolean } {
  const capacity = perSecond * 2;
  let tokens = capacity;
  let at = performance.now();
  return {
    take() {
      const now = performance.now();
      tokens = Math.min(capacity, tokens + ((now - at) / 1000) * perSecond);
      at = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

export const websocketPlugin = fp<WebsocketOptions>(
  async (
    app: FastifyInstance,
    { hub, greeting, consumeToken, heartbeatMs = WS_HEARTBEAT_MS, onClientEvent, limits: given },
  ) => {
    const limits = { ...DEFAULT_WEBSOCKET_LIMITS, ...given };
    await app.register(websocket, {
      options: { maxPayload: WS_MAX_PAYLOAD_BYTES },
      // Errors of an open socket are the client's doing (an oversized frame, a protocol violation) or the
      // network's: a warning with ws's code, no stack. ws has closed the socket (1009 for an oversized frame).
      errorHandler: (error, socket, request) => {
        const code = (error as { code?: unknown }).code;
        request.log.warn({ code, reason: error.message, user_uuid: request.wsUserUuid }, 'websocket: closed');
        socket.terminate();
      },
    });
    app.route({
      method: 'GET',
      url: '/api/ws_core/:token',
      schema: { hide: true },
      // The token is checked before the upgrade completes, so the handler below attaches its listeners
      // synchronously and no early frame is lost. A plain HTTP request never spends a token.
      preValidation: async (request: FastifyRequest) => {
        if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
        const { token } = request.params as { token?: string };
        const spent = token ? await consumeToken(token) : undefined;
        request.wsUserUuid = spent?.userUuid;
        request.wsFamilyUuid = spent?.familyUuid;
      },
      // The same path without an upgrade: a 426 that says what the path is for.
      handler: async (_request, reply) =>
        reply
          .status(426)
          .header('upgrade', 'websocket')
          .send({ detail: 'This path takes a websocket connection (Upgrade: websocket)' }),
      wsHandler: (socket, request) => {
        const userUuid = request.wsUserUuid;
        if (!userUuid) {
          socket.close(WS_UNAUTHORIZED_CLOSE_CODE, 'Invalid or expired websocket token');
          return;
        }
        if (hub.countOf(userUuid) >= limits.socketsPerUser) {
          socket.close(WS_LIMIT_CLOSE_CODE, WS_TOO_MANY_SOCKETS);
          return;
        }
        hub.add(socket, userUuid, request.wsFamilyUuid);
        const frames = frameBucket(limits.framesPerSecond);
        socket.on('message', (data) => {
          if (!frames.take()) {
            if (socket.readyState === socket.OPEN) socket.close(WS_LIMIT_CLOSE_CODE, WS_TOO_MANY_FRAMES);
            return;
          }
          // contracts/ws clientEvent; a frame that is not one is answered with bad_event and the socket stays.
          // A valid one goes to onClientEvent (update_trade_by_current_price_from_client: the trade monitor).
          let parsed: unknown;
          try {
            parsed = JSON.parse(data.toString());
          } catch {
            parsed = undefined;
          }
          const event = clientEvent.safeParse(parsed);
          if (!event.success) {
            hub.send(socket, { event: 'bad_event', message: { detail: 'Unknown or malformed event' } });
            return;
          }
          onClientEvent?.(event.data, userUuid, (answer) => hub.send(socket, answer));
        });
        for (const event of greeting()) hub.send(socket, event);
      },
    });
    const heartbeat = setInterval(() => hub.sweep(), heartbeatMs).unref();
    app.addHook('onClose', async () => {
      clearInterval(heartbeat);
      hub.closeAll();
    });
  },
);
