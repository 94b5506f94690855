// The open websockets of this instance, per user, and the fan-out of server events to them (SPEC.md §7
// /api/ws_core/{token}); plugins/websocket.ts accepts the sockets and hands them here. Every frame is a
// contracts/ws ServerEvent serialised once per broadcast, not once per socket.
// Several instances (docs/server.md "Several instances"): broadcast and sendToUser reach the sockets of every
// instance — this one's at once, the others' through the event bus. broadcastHere and sendToUserHere stay in
// this process (the prices each instance gets from its own market feed).
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { serverEvent, type ServerEvent } from '../../../contracts';
import { LocalEventBus, type EventBus } from './event-bus';

/** Close code for an unauthenticated socket (4000-4999 are free for applications; 4401 mirrors HTTP 401). */
export const WS_UNAUTHORIZED_CLOSE_CODE = 4401;
/** Close code for a trader over a limit (sockets or frames; 4429 mirrors HTTP 429). */
export const WS_LIMIT_CLOSE_CODE = 4429;
export const WS_TOO_MANY_SOCKETS = 'Too many websockets for this trader';
export const WS_TOO_MANY_FRAMES = 'Too many frames per second';

/** Bus topic of the hub: a socket event for every socket (no user) or for one user's. */
const HUB_TOPIC = 'ws';
/** Bus topic of a login's end: every instance closes that login's sockets (issue 38 item 4). */
const SESSION_END_TOPIC = 'ws-session-end';
/** Close code of a socket whose login ended (logout). */
export const WS_LOGGED_OUT_CLOSE_CODE = 4401;
const hubMessage = z.object({ user_uuid: z.string().optional(), event: serverEvent });

export class SocketHub {
  private readonly sockets = new Set<WebSocket>();
  private readonly byUser = new Map<string, Set<WebSocket>>();
  private readonly bySession = new Map<string, Set<WebSocket>>();
  /** Sockets that answered the last ping (or connected since). */
  private readonly alive = new WeakSet<WebSocket>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribeSessions: () => void;

  /** `bus` carries sends to the sockets of the other instances; without one the hub is this process's alone. */
  constructor(private readonly bus: EventBus = new LocalEventBus()) {
    this.unsubscribe = bus.subscribe(HUB_TOPIC, (payload) => this.fromBus(payload));
    this.unsubscribeSessions = bus.subscribe(SESSION_END_TOPIC, (payload) => {
      const sid = (payload as { sid?: unknown } | null)?.sid;
      if (typeof sid === 'string') this.closeSessionHere(sid);
    });
  }

  add(socket: WebSocket, userUuid?: string, sessionUuid?: string): void {
    if (sessionUuid) {
      const own = this.bySession.get(sessionUuid) ?? new Set<WebSocket>();
      own.add(socket);
      this.bySession.set(sessionUuid, own);
      socket.on('close', () => {
        const open = this.bySession.get(sessionUuid);
        open?.delete(socket);
        if (open?.size === 0) this.bySession.delete(sessionUuid);
      });
    }
    this.sockets.add(socket);
    this.alive.add(socket);
    socket.on('pong', () => this.alive.add(socket));
    if (userUuid) {
      const own = this.byUser.get(userUuid) ?? new Set<WebSocket>();
      own.add(socket);
      this.byUser.set(userUuid, own);
    }
    socket.on('close', () => {
      this.sockets.delete(socket);
      if (!userUuid) return;
      const own = this.byUser.get(userUuid);
      own?.delete(socket);
      if (own?.size === 0) this.byUser.delete(userUuid);
    });
  }

  get size(): number {
    return this.sockets.size;
  }

  /** Open sockets of one user on this instance. */
  countOf(userUuid: string): number {
    return this.byUser.get(userUuid)?.size ?? 0;
  }

  /** Users with at least one open socket. */
  connectedUsers(): string[] {
    return [...this.byUser.keys()];
  }

  /** One heartbeat: drops sockets that missed the previous ping, pings the rest. */
  sweep(): void {
    for (const socket of this.sockets) {
      if (!this.alive.has(socket)) {
        socket.terminate();
        continue;
      }
      this.alive.delete(socket);
      if (socket.readyState === socket.OPEN) socket.ping();
    }
  }

  /** Sends to every open socket of every instance. */
  broadcast(event: ServerEvent): void {
    this.broadcastHere(event);
    this.bus.publish(HUB_TOPIC, { event });
  }

  /** Sends to every open socket of one user on every instance (their trades, their notifications). */
  sendToUser(userUuid: string, event: ServerEvent): void {
    this.sendToUserHere(userUuid, event);
    this.bus.publish(HUB_TOPIC, { user_uuid: userUuid, event });
  }

  /** Sends to every open socket of this instance. */
  broadcastHere(event: ServerEvent): void {
    const frame = JSON.stringify(event);
    for (const socket of this.sockets) {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    }
  }

  /** Sends to the open sockets of one user on this instance. */
  sendToUserHere(userUuid: string, event: ServerEvent): void {
    const own = this.byUser.get(userUuid);
    if (!own) return;
    const frame = JSON.stringify(event);
    for (const socket of own) {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    }
  }

  /** A login ended (logout): its sockets close on every instance, so nothing more reaches them. */
  closeSession(sessionUuid: string): void {
    this.closeSessionHere(sessionUuid);
    this.bus.publish(SESSION_END_TOPIC, { sid: sessionUuid });
  }

  private closeSessionHere(sessionUuid: string): void {
    for (const socket of this.bySession.get(sessionUuid) ?? [])
      socket.close(WS_LOGGED_OUT_CLOSE_CODE, 'Logged out');
    this.bySession.delete(sessionUuid);
  }

  send(socket: WebSocket, event: ServerEvent): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
  }

  closeAll(): void {
    this.unsubscribe();
    this.unsubscribeSessions();
    this.bySession.clear();
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    this.byUser.clear();
  }

  /** An event another instance sent: to this instance's sockets (of its user), checked against contracts/ws. */
  private fromBus(payload: unknown): void {
    const userUuid = (payload as { user_uuid?: unknown } | null)?.user_uuid;
    if (typeof userUuid === 'string' && !this.byUser.has(userUuid)) return;
    const parsed = hubMessage.safeParse(payload);
    if (!parsed.success) return;
    const { user_uuid, event } = parsed.data;
    if (user_uuid === undefined) this.broadcastHere(event);
    else if (this.byUser.has(user_uuid)) this.sendToUserHere(user_uuid, event);
  }
}
