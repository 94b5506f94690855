// The process logger. Secrets never reach a log (issue 5, DESIGN.md): credential headers, the fields of
// request bodies and answers that carry passwords, PINs, exchange keys or the user's token key, and the
// websocket token in /api/ws_core/{token} URLs are redacted wherever they appear.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Field names whose values are secret wherever they appear (bodies, answers, error contexts). */
const SECRET_FIELDS = [
  'api_key',
  'api_secret',
  'pin_code',
  'user_password',
  'user_password_repeat',
  'user_trade_token_key',
  'access_token',
  'envelope',
] as const;

export const REDACTED = '[redacted]';

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-mbx-apikey"]',
  'req.headers["x-admin-token"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]),
];

/**
 * /api/ws_core/<token> → /api/ws_core/[redacted] (the token is a bearer credential until used); a relayed
 * exchange request keeps its path only (its query holds the signed parameters, docs/relay.md). Decided by the
 * route that matched when there is one (`route`), else by the decoded path: a percent-encoded spelling such
 * as /api/exchange%5Frelay/ reaches the same route and is redacted the same.
 */
export function redactUrl(url: string | undefined, route?: string): string | undefined {
  if (url === undefined) return url;
  const [rawPath = '', ...query] = url.split('?');
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // A malformed escape: judged on the text as it came.
  }
  if (route?.startsWith('/api/exchange_relay/') || path.includes('/exchange_relay/')) return rawPath;
  if (route === '/api/ws_core/:token' || path.includes('/ws_core/')) {
    return [`/api/ws_core/${REDACTED}`, ...query].join('?');
  }
  return url;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  routeOptions?: { url?: string };
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Drizzle puts a failed query's parameters (hashes, keys, envelopes) into its message: cut them out. */
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n {4}at |$)/g;

function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== 'object') return serialized;
  const scrub = (text: unknown) =>
    typeof text === 'string' ? text.replace(QUERY_PARAMS, `\nparams: ${REDACTED}`) : text;
  const { params: _params, ...rest } = serialized;
  return { ...rest, message: scrub(rest.message), stack: scrub(rest.stack) };
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: {
        err: serializeError,
        req: (request: LoggedRequest) => ({
          method: request.method,
          url: redactUrl(request.url, request.routeOptions?.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    destination,
  );
}

/**
 * Fastify's request lines, one per request instead of two (half the logging work of a busy route such as the
 * open list polled every second): the request and its outcome together when the answer is sent. A websocket
 * upgrade never completes as a reply, so it is logged when it arrives (its token redacted by `req`).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (request.headers.upgrade) request.log.info({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
