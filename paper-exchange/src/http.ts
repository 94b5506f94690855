// The HTTP pipeline every Binance endpoint goes through: raw query + raw body kept as received (the
// signature is over those bytes), parameters merged for every method and Content-Type, request weight and
// X-MBX-USED-WEIGHT-1M (reference §1), faults, API key and signature (reference §2), order-count limits, the
// handler, then the journal commit before the answer leaves. Errors are always {"code","msg"} with a 4xx.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { mergeParams, requireApiKey, verifySigned, type Params } from './auth.js';
import { ApiError, Errors } from './errors.js';
import type { Exchange } from './exchange.js';
import type { RouteDef } from './routes/route.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** Bodies are kept as raw text whatever the Content-Type: Binance ignores it and so must we (reference §1). */
export function keepRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = typeof body === 'string' ? body : body.toString('utf8');
    done(null, request.rawBody);
  });
}

export function rawQueryOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index < 0 ? '' : request.url.slice(index + 1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A time-out fault: no answer at all, then the connection drops (the socket is tracked for close()). */
async function holdWithoutAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  ms: number,
  held: Set<Socket>,
): Promise<void> {
  reply.hijack();
  const socket = request.raw.socket;
  held.add(socket);
  await sleep(ms);
  held.delete(socket);
  socket.destroy();
}

async function run(
  exchange: Exchange,
  def: RouteDef,
  request: FastifyRequest,
  reply: FastifyReply,
  held: Set<Socket>,
): Promise<unknown> {
  const now = exchange.now();
  const ip = request.ip;
  const apiKeyHeader = request.headers['x-mbx-apikey'];
  const apiKey = typeof apiKeyHeader === 'string' ? apiKeyHeader : undefined;
  const rawQuery = rawQueryOf(request);
  const rawBody = request.rawBody ?? '';
  const params: Params = mergeParams(rawQuery, rawBody);

  const limiter = exchange.limiter;
  // A banned address gets 418 and nothing else until the ban ends (binance-fapi.md §1).
  const bannedUntil = limiter.bannedUntil(ip, now);
  if (bannedUntil !== undefined) {
    reply.header('Retry-After', String(Math.ceil((bannedUntil - now) / 1000)));
    throw Errors.banned(ip, bannedUntil);
  }
  const weight = typeof def.weight === 'function' ? def.weight(params) : def.weight;
  const used = limiter.addWeight(ip, weight, now);
  reply.header('X-MBX-USED-WEIGHT-1M', String(used)).header('X-MBX-USED-WEIGHT', String(used));
  if (used > limiter.limits.requestWeightPerMinute) {
    const over = limiter.overLimit(ip, now);
    reply.header('Retry-After', String(over.retryAfterS));
    if (over.banned) throw Errors.banned(ip, now + over.retryAfterS * 1000);
    throw Errors.tooManyRequests(limiter.limits.requestWeightPerMinute);
  }

  const path = request.routeOptions.url ?? request.url;
  const latency = exchange.faults.latency(apiKey, path);
  if (latency > 0) await sleep(latency);
  const fault = exchange.faults.decide(apiKey, path, def.newOrder === true);
  if (fault?.kind === 'timeout') {
    await holdWithoutAnswer(request, reply, fault.holdMs, held);
    return reply;
  }
  if (fault?.kind === 'error') {
    const message =
      fault.status === 503
        ? 'Service Unavailable.'
        : 'Internal error; unable to process your request. Please try again.';
    throw new ApiError(-1001, message, fault.status);
  }

  const serverTime = now + exchange.faults.clockSkew(apiKey);
  let account;
  if (def.security !== 'NONE') {
    if (exchange.faults.refusesKey(apiKey)) throw Errors.rejectedKey(ip);
    account = requireApiKey(exchange.accounts, apiKey, ip);
    if (def.security === 'SIGNED') verifySigned(account, { rawQuery, rawBody, params, serverTime });
  }
  if (def.newOrder && account) {
    if (fault?.kind === 'reject') throw new ApiError(fault.code, fault.msg);
    const counts = exchange.limiter.addOrder(account.id, now);
    reply
      .header('X-MBX-ORDER-COUNT-10S', String(counts.per10s))
      .header('X-MBX-ORDER-COUNT-1M', String(counts.perMinute));
  }
  return def.handler({ exchange, core: exchange.core, params, account, now, serverTime });
}

export function registerRoutes(
  app: FastifyInstance,
  exchange: Exchange,
  routes: RouteDef[],
  held: Set<Socket>,
): void {
  for (const def of routes) {
    for (const url of def.paths) {
      app.route({
        method: def.method,
        url,
        handler: async (request, reply) => {
          const header = request.headers['x-mbx-apikey'];
          const params = mergeParams(rawQueryOf(request), request.rawBody ?? '');
          const logged = exchange.requests.begin(typeof header === 'string' ? header : undefined, {
            method: request.method,
            path: url,
            symbol: params.get('symbol'),
            type: params.get('type'),
            clientId: params.get('newClientOrderId') ?? params.get('clientAlgoId'),
            receivedAt: exchange.now(),
          });
          reply.raw.once('finish', () => {
            logged.answeredAt = exchange.now();
            logged.status = reply.statusCode;
          });
          try {
            const result = await run(exchange, def, request, reply, held);
            if (reply.sent) return reply;
            exchange.commit();
            return reply.send(result);
          } catch (error) {
            // A rejected request may still have changed state (a fill before a later failure): persist it.
            exchange.commit();
            throw error;
          }
        },
      });
    }
  }
}

/** Every failure answers {"code","msg"} with a 4xx (a fault-injected 5xx being the only 5xx). */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.status).send(error.toJSON());
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ code: -1000, msg: (error as Error).message });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(400).send(Errors.unknown().toJSON());
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ code: -1000, msg: `Path ${request.method} ${request.url.split('?')[0]} not found.` });
  });
}
