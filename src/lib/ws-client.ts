// The websocket client (SPEC.md §7 "Websocket", DESIGN.md "How data flows"). It opens /api/ws_core/{token},
// parses every frame with contracts' serverEvent and hands events to one callback; it knows no store.
// A lost connection is retried with capped exponential backoff, and every retry asks for a NEW token
// (websocket tokens are single-use). What happens to the connection is reported through onStatus, which
// the caller turns into the notifications of SPEC.md §8.
import { serverEvent, type ClientEvent, type ServerEvent } from '../../contracts';
import { WS_RECONNECT_MAX_MS, WS_RECONNECT_MIN_MS } from '../config/constants';
import { API_PREFIX } from './api-client';

export const WsStatus = {
  /** The socket opened ('Websocket connected'). */
  CONNECTED: 'connected',
  /** An open socket closed, or the first attempt of an outage failed ('Websocket closed'). */
  CLOSED: 'closed',
  /** The socket reported an error ('Websocket error'). */
  ERROR: 'error',
  /** A frame was not JSON or not a known event ('Websocket onmessage error'). */
  MESSAGE_ERROR: 'message_error',
  /** Handling a well-formed event threw ('Websocket receive event error'). */
  EVENT_ERROR: 'event_error',
} as const;
export type WsStatus = (typeof WsStatus)[keyof typeof WsStatus];

/** The part of the WebSocket API the client uses: the browser's, or the `ws` package's in tests. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

const OPEN_STATE = 1;
const NORMAL_CLOSURE = 1000;

export interface WsClientOptions {
  /** The socket URL for a token; defaults to /api/ws_core/{token} on this page's host. */
  urlFor?: (token: string) => string;
  /** A fresh single-use token for a reconnect; undefined (or a rejection) when none can be had now. */
  renewToken: () => Promise<string | undefined>;
  onEvent: (event: ServerEvent) => void;
  onStatus: (status: WsStatus, detail?: string) => void;
  WebSocketImpl?: WebSocketConstructor;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

export interface WsClient {
  /** Opens the socket with a token (a no-op while one is open or opening). */
  connect(token: string): void;
  /** Opens the socket with a token from renewToken, retrying with the backoff until one is had. */
  start(): void;
  /** Sends an event if the socket is open; false otherwise. */
  send(event: ClientEvent): boolean;
  /** Closes for good: no reconnect and no 'closed' report. */
  close(): void;
  isOpen(): boolean;
}

/** ws:// or wss:// URL of /api/ws_core/{token} on the page's host. */
function websocketUrl(token: string): string {
  const { protocol, host } = globalThis.location;
  const scheme = protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${host}${API_PREFIX}/ws_core/${encodeURIComponent(token)}`;
}

/** Delay before reconnect attempt `attempt` (0-based): min · 2^attempt, capped at max. */
export function reconnectDelayMs(attempt: number, minMs: number, maxMs: number): number {
  return Math.min(maxMs, minMs * 2 ** Math.min(attempt, 30));
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function createWsClient(options: WsClientOptions): WsClient {
  const {
    urlFor = websocketUrl,
    renewToken,
    onEvent,
    onStatus,
    reconnectMinMs = WS_RECONNECT_MIN_MS,
    reconnectMaxMs = WS_RECONNECT_MAX_MS,
  } = options;
  const Impl: WebSocketConstructor =
    options.WebSocketImpl ?? (globalThis.WebSocket as unknown as WebSocketConstructor);

  let socket: WebSocketLike | undefined;
  let isStopped = true;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  // An outage (a lost connection and its failed retries) reports 'closed' and 'error' once each, not per
  // retry; message errors are reported once per distinct text per connection.
  const reportedThisOutage = new Set<WsStatus>();
  const reportedMessageErrors = new Set<string>();

  function reportOnce(status: WsStatus, detail?: string): void {
    if (reportedThisOutage.has(status)) return;
    reportedThisOutage.add(status);
    onStatus(status, detail);
  }

  function handleFrame(data: unknown): void {
    let event: ServerEvent;
    try {
      const parsed = serverEvent.safeParse(JSON.parse(String(data)));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
        throw new Error(`${issue?.message ?? 'Unknown event'}${where}`);
      }
      event = parsed.data;
    } catch (error) {
      const detail = describe(error);
      if (!reportedMessageErrors.has(detail)) {
        reportedMessageErrors.add(detail);
        onStatus(WsStatus.MESSAGE_ERROR, detail);
      }
      return;
    }
    try {
      onEvent(event);
    } catch (error) {
      onStatus(WsStatus.EVENT_ERROR, `${event.event}: ${describe(error)}`);
    }
  }

  function open(token: string): void {
    let current: WebSocketLike;
    try {
      current = new Impl(urlFor(token));
    } catch (error) {
      reportOnce(WsStatus.ERROR, describe(error));
      scheduleReconnect();
      return;
    }
    socket = current;
    current.onopen = () => {
      if (socket !== current) return;
      attempt = 0;
      reportedThisOutage.clear();
      reportedMessageErrors.clear();
      onStatus(WsStatus.CONNECTED);
    };
    current.onmessage = (message) => {
      if (socket === current) handleFrame(message.data);
    };
    current.onerror = () => {
      if (socket === current && !isStopped) reportOnce(WsStatus.ERROR);
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = undefined;
      if (isStopped) return;
      reportOnce(WsStatus.CLOSED, event.reason || undefined);
      scheduleReconnect();
    };
  }

  function scheduleReconnect(): void {
    if (isStopped || reconnectTimer !== undefined) return;
    const delay = reconnectDelayMs(attempt, reconnectMinMs, reconnectMaxMs);
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void reconnect();
    }, delay);
  }

  async function reconnect(): Promise<void> {
    let token: string | undefined;
    try {
      token = await renewToken();
    } catch {
      token = undefined;
    }
    if (isStopped || socket) return;
    if (token === undefined) {
      scheduleReconnect();
      return;
    }
    open(token);
  }

  return {
    connect(token) {
      if (socket) return;
      isStopped = false;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      open(token);
    },
    start() {
      if (socket || !isStopped) return;
      isStopped = false;
      void reconnect();
    },
    send(event) {
      if (!socket || socket.readyState !== OPEN_STATE) return false;
      socket.send(JSON.stringify(event));
      return true;
    },
    close() {
      isStopped = true;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const current = socket;
      socket = undefined;
      attempt = 0;
      reportedThisOutage.clear();
      current?.close(NORMAL_CLOSURE);
    },
    isOpen() {
      return socket?.readyState === OPEN_STATE;
    },
  };
}
