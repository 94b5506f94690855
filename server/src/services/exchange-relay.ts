// The signed-request relay of client mode (docs/relay.md). The page signs each exchange request with
// trade-core (the api_secret and the PIN never leave it) and sends it here; this forwards it verbatim to the
// platform's base URL over the server's pooled connections (exchange-transport.ts) and hands back the
// exchange's status, body and rate-limit headers. What it checks before a request leaves:
// - the call is one the product makes (RELAYED_CALLS) and carries a fresh timestamp and a signature;
// - the signature was never forwarded before: a signed request goes to the exchange at most once (nothing
//   can replay an order through us), remembered until its timestamp can no longer be accepted;
// - the API key is not bound to another trader (relayApiKeys in db/schema.ts); a key is bound to the trader
//   whose request with it the exchange answered with a 2xx;
// - the exchange budget of our address has room for it (exchange-budget.ts).
// Nothing of a request is stored or logged beyond method, path, status and time (services/logger.ts keeps
// the query string of relay URLs out of the log).
import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { request as undiciRequest, errors as undiciErrors } from 'undici';
import type { Database } from '../db';
import { relayApiKeys } from '../db/schema';
import { HttpError } from '../http-error';
import { exchangeBudget } from './exchange-budget';
import { exchangeAgent } from './exchange-transport';
import type { SecretBox } from './secret-box';

/** Longer than the page's own 5000 ms time-out (SPEC.md §7), so the page gives up first, as it does today. */
const RELAY_UPSTREAM_TIMEOUT_MS = 6_000;
/** Binance's default and largest recvWindow (binance-fapi.md §2). */
const DEFAULT_RECV_WINDOW_MS = 5_000;
const MAX_RECV_WINDOW_MS = 60_000;
/**
 * How far a request's timestamp may stand from our clock and still be forwarded; the exchange judges it
 * again against its own (Binance: less than 1000 ms ahead, within recvWindow behind). A signature is
 * remembered until its timestamp + recvWindow has passed by this much, so clocks this far apart cannot
 * open a window for a replay.
 */
const RELAY_CLOCK_ALLOWANCE_MS = 60_000;
/** Remembered signatures; far more than the per-trader rate limit lets through in their lifetime. */
const MAX_REMEMBERED_SIGNATURES = 500_000;

/** Answer headers handed back with the exchange's answer (binance-fapi.md §1 rate-limit headers). */
const PASSED_HEADERS = /^(content-type|retry-after|x-mbx-used-weight(-\w+)?|x-mbx-order-count-\w+)$/i;

export interface RelayedRequest {
  userUuid: string;
  platformUuid: string;
  /** The platform's REST base URL, from the database (never from the request). */
  baseUrl: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The exchange path, one of RELAYED_CALLS. */
  path: string;
  /** The signed query string as received (RELAY_QUERY_PATTERN). */
  query: string;
  apiKey: string;
}

export interface RelayAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class ExchangeRelay {
  private readonly signatures = new LRUCache<string, true>({
    max: MAX_REMEMBERED_SIGNATURES,
    ttlAutopurge: false,
  });
  /** Key digest → owner, for keys seen bound in this process (a binding never changes hands). */
  private readonly owners = new LRUCache<string, string>({ max: 100_000 });

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly clock: () => number,
  ) {}

  async forward(relayed: RelayedRequest): Promise<RelayAnswer> {
    const { signature, expiresAt } = this.checkSigned(relayed.query);
    const digest = this.box.digest('relay api key', `${relayed.platformUuid}:${relayed.apiKey}`);
    const owner = await this.ownerOf(digest);
    if (owner !== undefined && owner !== relayed.userUuid) {
      throw new HttpError(403, 'This exchange API key is connected to another Signaldesk account');
    }
    // Remembered before it leaves: a copy that arrives while the first is in flight is refused too.
    const now = this.clock();
    if (this.signatures.has(signature)) {
      throw new HttpError(409, 'This signed request was relayed already');
    }
    // The exchange budget of our address (exchange-budget.ts): a key not yet accepted for this trader gets
    // only a small allowance. Refused, nothing is remembered or sent.
    const admission = exchangeBudget.admit({
      url: relayed.baseUrl,
      method: relayed.method,
      path: relayed.path,
      query: relayed.query,
      trader: relayed.userUuid,
      provenKey: owner === relayed.userUuid,
    });
    this.signatures.set(signature, true, { ttl: Math.max(1, expiresAt - now) });
    let answer: RelayAnswer;
    try {
      answer = await send(relayed);
    } catch (error) {
      // Not reached at all (502): the exchange counted nothing. A time-out (504) may have been counted.
      if (error instanceof HttpError && error.statusCode === 502) admission.notSent();
      throw error;
    }
    exchangeBudget.observe(relayed.baseUrl, answer.status, (name) => answer.headers[name]);
    if (acceptsKey(answer)) {
      admission.keyAccepted();
      if (owner === undefined) await this.bind(digest, relayed.userUuid);
    }
    return answer;
  }

  /** The signature and the time until which the exchange could still accept the request. */
  private checkSigned(query: string): { signature: string; expiresAt: number } {
    const params = new URLSearchParams(query);
    const signature = params.get('signature')?.toLowerCase();
    if (!signature || !/(^|&)signature=[^&]+$/.test(query)) {
      throw new HttpError(400, 'A relayed request must end with its signature');
    }
    const timestamp = Number(params.get('timestamp'));
    const recvWindow = Number(params.get('recvWindow') ?? DEFAULT_RECV_WINDOW_MS);
    if (!Number.isSafeInteger(timestamp) || timestamp <= 0) {
      throw new HttpError(400, 'A relayed request must carry its timestamp');
    }
    if (!Number.isSafeInteger(recvWindow) || recvWindow <= 0 || recvWindow > MAX_RECV_WINDOW_MS) {
      throw new HttpError(400, `recvWindow must be 1 to ${MAX_RECV_WINDOW_MS} ms`);
    }
    const now = this.clock();
    if (
      timestamp > now + RELAY_CLOCK_ALLOWANCE_MS ||
      timestamp + recvWindow < now - RELAY_CLOCK_ALLOWANCE_MS
    ) {
      throw new HttpError(400, "The request's timestamp is too far from the server's time");
    }
    return { signature, expiresAt: timestamp + recvWindow + RELAY_CLOCK_ALLOWANCE_MS };
  }

  private async ownerOf(digest: string): Promise<string | undefined> {
    const known = this.owners.get(digest);
    if (known) return known;
    const [row] = await this.db
      .select({ user_uuid: relayApiKeys.user_uuid })
      .from(relayApiKeys)
      .where(eq(relayApiKeys.key_digest, digest));
    if (row) this.owners.set(digest, row.user_uuid);
    return row?.user_uuid;
  }

  /** Binds the key to the trader unless another trader's request bound it first. */
  private async bind(digest: string, userUuid: string): Promise<void> {
    await this.db
      .insert(relayApiKeys)
      .values({ key_digest: digest, user_uuid: userUuid, created_at: new Date(this.clock()) })
      .onConflictDoNothing();
    const [row] = await this.db
      .select({ user_uuid: relayApiKeys.user_uuid })
      .from(relayApiKeys)
      .where(and(eq(relayApiKeys.key_digest, digest)));
    if (row) this.owners.set(digest, row.user_uuid);
  }
}

/**
 * The exchange accepted the key and its signature: a 2xx, nothing else. Any other answer (an error code that
 * the exchange gives before it checks the key, its 429) proves nothing about the key.
 */
function acceptsKey(answer: RelayAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** The request as it came, to the platform's base URL; 502 when the exchange cannot be reached, 504 on time-out. */
async function send(relayed: RelayedRequest): Promise<RelayAnswer> {
  const url = `${relayed.baseUrl.replace(/\/+$/, '')}${relayed.path}?${relayed.query}`;
  try {
    const response = await undiciRequest(url, {
      method: relayed.method,
      headers: { 'x-mbx-apikey': relayed.apiKey },
      dispatcher: exchangeAgent,
      headersTimeout: RELAY_UPSTREAM_TIMEOUT_MS,
      bodyTimeout: RELAY_UPSTREAM_TIMEOUT_MS,
    });
    const body = await response.body.text();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (PASSED_HEADERS.test(name) && typeof value === 'string') headers[name] = value;
    }
    return { status: response.statusCode, headers, body };
  } catch (error) {
    const timedOut =
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      error instanceof undiciErrors.ConnectTimeoutError;
    if (timedOut) throw new HttpError(504, 'The exchange did not answer in time');
    throw new HttpError(502, 'The exchange could not be reached');
  }
}
