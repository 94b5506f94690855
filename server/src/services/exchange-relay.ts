// The signed-request relay of client mode (docs/relay.md). The page signs each exchange request with
// trade-core (the api_secret and the PIN never leave it) and sends it here; this forwards it verbatim to the
// platform's base URL over the server's pooled connections (exchange-transport.ts) and hands back the
// exchange's status, body and rate-limit headers. What it checks before a request leaves:
// - the call is one the product makes (RELAYED_CALLS) and carries a fresh timestamp and a signature;
// - the signature is one the product makes (64 hex digits, or padded base64 of 64 bytes) and was never
//   forwarded before, by any instance: a signed request goes to the exchange at most once (nothing can replay
//   an order through us, in any encoding), remembered in relay_signatures until its timestamp can no longer
//   be accepted;
// - the API key is not bound to another trader (relayApiKeys in db/schema.ts); a key is bound to the trader
//   whose request with it the exchange answered with a 2xx;
// - the exchange budget of our address has room for it (exchange-budget.ts).
// Nothing of a request is stored or logged beyond method, path, status, time and that digest of its
// signature (services/logger.ts keeps the query string of relay routes out of the log).
import { createHash } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { request as undiciRequest, errors as undiciErrors } from 'undici';
import type { Database } from '../db';
import { relayApiKeys, relaySignatures } from '../db/schema';
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
/** Remembered signatures past their time are deleted at most this often. */
const SIGNATURE_PURGE_MS = 60_000;

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
  /** Key digest → owner, for keys seen bound in this process (a binding never changes hands). */
  private readonly owners = new LRUCache<string, string>({ max: 100_000 });
  private lastPurge = 0;

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly clock: () => number,
  ) {}

  async forward(relayed: RelayedRequest): Promise<RelayAnswer> {
    const { signature, expiresAt } = this.checkSigned(relayed.query);
    const digest = relayKeyDigest(this.box, relayed.platformUuid, relayed.apiKey);
    const owner = await this.ownerOf(digest);
    if (owner !== undefined && owner !== relayed.userUuid) {
      throw new HttpError(403, 'This exchange API key is connected to another Signaldesk account');
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
      apiKey: relayed.apiKey,
    });
    // Remembered before it leaves, in the database (every instance sees it): a copy that arrives while the
    // first is in flight, or at another instance, is refused too.
    if (!(await this.remember(relayed, signature, expiresAt))) {
      admission.notSent();
      throw new HttpError(409, 'This signed request was relayed already');
    }
    let answer: RelayAnswer;
    try {
      answer = await send(relayed);
    } catch (error) {
      // Not reached at all (502): the exchange counted nothing. A time-out (504) may have been counted.
      if (error instanceof HttpError && error.statusCode === 502) admission.notSent();
      throw error;
    }
    exchangeBudget.observe(relayed.baseUrl, answer.status, (name) => answer.headers[name], {
      body: answer.body,
      apiKey: relayed.apiKey,
    });
    if (acceptsKey(answer)) {
      admission.keyAccepted();
      if (owner === undefined) this.owners.set(digest, await bindRelayKey(this.db, digest, relayed.userUuid));
    }
    return answer;
  }

  /**
   * Records the signature (its decoded bytes, with the platform and the key: every encoding of one signature is
   * one entry) until the exchange can no longer accept the request; false when it was recorded already.
   * Entries past their time are purged at most once a minute.
   */
  private async remember(relayed: RelayedRequest, signature: Buffer, expiresAt: number): Promise<boolean> {
    const digest = createHash('sha256')
      .update(`${relayed.platformUuid}\n${relayed.apiKey}\n`)
      .update(signature)
      .digest('base64url');
    const now = this.clock();
    if (now - this.lastPurge > SIGNATURE_PURGE_MS) {
      // Beside the request, not on its road to the exchange; a failed purge is retried a minute later.
      this.lastPurge = now;
      void this.db
        .delete(relaySignatures)
        .where(lt(relaySignatures.expires_at, new Date(now)))
        .catch(() => undefined);
    }
    const inserted = await this.db
      .insert(relaySignatures)
      .values({ signature_digest: digest, expires_at: new Date(expiresAt) })
      .onConflictDoNothing()
      .returning({ digest: relaySignatures.signature_digest });
    return inserted.length === 1;
  }

  /** The signature's bytes and the time until which the exchange could still accept the request. */
  private checkSigned(query: string): { signature: Buffer; expiresAt: number } {
    const params = new URLSearchParams(query);
    const texts = params.getAll('signature');
    if (texts.length !== 1 || !/(^|&)signature=[^&]+$/.test(query)) {
      throw new HttpError(400, 'A relayed request must end with its signature');
    }
    const signature = signatureBytes(texts[0]!);
    if (!signature) {
      throw new HttpError(
        400,
        'The signature must be 64 hex digits (HMAC-SHA256) or the padded base64 of 64 bytes (Ed25519), percent-encoded',
      );
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
}

/**
 * The bytes of a signature as the product signs: 64 hex digits, either case (HMAC-SHA256), or standard base64
 * with its padding of 64 bytes (Ed25519); undefined for anything else (another encoding of the same bytes
 * included: one signature, one text).
 */
export function signatureBytes(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{86}==$/.test(text)) return Buffer.from(text, 'base64');
  return undefined;
}

/** The keyed digest an API key is bound by (never the key itself). */
export function relayKeyDigest(box: SecretBox, platformUuid: string, apiKey: string): string {
  return box.digest('relay api key', `${platformUuid}:${apiKey}`);
}

/**
 * Binds an API key to a trader unless another trader holds it already; answers the owner. Called after the
 * exchange's 2xx to a request signed with the key (the relay, a server-mode token's check) and for the house.
 */
export async function bindRelayKey(db: Database, digest: string, userUuid: string): Promise<string> {
  await db.insert(relayApiKeys).values({ key_digest: digest, user_uuid: userUuid }).onConflictDoNothing();
  const [row] = await db
    .select({ user_uuid: relayApiKeys.user_uuid })
    .from(relayApiKeys)
    .where(eq(relayApiKeys.key_digest, digest));
  return row?.user_uuid ?? userUuid;
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
