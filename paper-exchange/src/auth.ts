// Authentication exactly as Binance (reference §1-2): parameters merged from the raw query and the raw body
// whatever the method and Content-Type (query wins), HMAC-SHA256 over query+body as received or an Ed25519
// signature, timestamp/recvWindow, API-key errors with HTTP 401, and the request-weight / order-count limits.
import crypto from 'node:crypto';
import type { Accounts } from './accounts.js';
import { ApiError, Errors } from './errors.js';
import type { AccountRecord } from './state.js';

export type Params = Map<string, string>;

/** Splits an x-www-form-urlencoded string, rejecting a parameter that appears twice (-1101). */
function parsePart(raw: string): Params {
  const params: Params = new Map();
  if (!raw) return params;
  for (const [name, value] of new URLSearchParams(raw)) {
    if (params.has(name)) throw Errors.duplicateParam();
    params.set(name, value);
  }
  return params;
}

/** Body parameters: form encoding; a JSON object body is accepted too (some clients send one). */
function parseBody(rawBody: string): Params {
  const trimmed = rawBody.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new ApiError(-1100, 'Illegal characters found in a parameter.');
    }
    const params: Params = new Map();
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (value !== null && value !== undefined) params.set(name, String(value));
    }
    return params;
  }
  return parsePart(trimmed);
}

/** Query and body merged; a parameter present in both takes the query's value [GI]. */
export function mergeParams(rawQuery: string, rawBody: string): Params {
  const merged = parseBody(rawBody);
  for (const [name, value] of parsePart(rawQuery)) merged.set(name, value);
  return merged;
}

/** totalParams with the signature parameter taken out of whichever part holds it (reference §2). */
export function signedPayload(rawQuery: string, rawBody: string): string {
  const strip = (part: string) =>
    part
      .split('&')
      .filter((pair) => !pair.startsWith('signature='))
      .join('&');
  return strip(rawQuery) + strip(rawBody);
}

const API_KEY_FORMAT = /^[A-Za-z0-9]{1,128}$/;

/** The account of the X-MBX-APIKEY header, or the Binance error for a missing, malformed or unknown key. */
export function requireApiKey(accounts: Accounts, header: string | undefined, ip: string): AccountRecord {
  if (!header) throw Errors.rejectedKey(ip);
  if (!API_KEY_FORMAT.test(header)) throw Errors.badApiKeyFormat();
  const account = accounts.findByApiKey(header);
  if (!account) throw Errors.rejectedKey(ip);
  return account;
}

/**
 * Signatures are read as strictly as the product writes them, so no test passes on leniency: HMAC-SHA256 as
 * 64 hex digits (either case), Ed25519 as standard base64 with its padding (88 characters, 64 bytes). Another
 * encoding of the same bytes (unpadded, URL-safe, a trailing line break, a '+' left unencoded and read as a
 * space) is an invalid signature, -1022.
 */
function verifyHmac(secret: string, payload: string, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = crypto.createHmac('sha256', secret).update(payload).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

function verifyEd25519(publicKeyPem: string, payload: string, signature: string): boolean {
  if (!/^[A-Za-z0-9+/]{86}==$/.test(signature)) return false;
  try {
    return crypto.verify(null, Buffer.from(payload), publicKeyPem, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

export interface SignedRequest {
  rawQuery: string;
  rawBody: string;
  params: Params;
  /** Server clock as this account sees it (clock-skew faults shift it). */
  serverTime: number;
}

/** Signature first, then the timestamp window [GI]: accept iff ts < server + 1000 and server − ts <= recvWindow. */
export function verifySigned(account: AccountRecord, request: SignedRequest): void {
  const { params } = request;
  const signature = params.get('signature');
  const timestampText = params.get('timestamp');
  if (!timestampText) throw Errors.mandatory('timestamp');
  if (!signature) throw Errors.mandatory('signature');
  const payload = signedPayload(request.rawQuery, request.rawBody);
  const valid =
    account.keyType === 'HMAC'
      ? verifyHmac(account.secret, payload, signature)
      : verifyEd25519(account.secret, payload, signature);
  if (!valid) throw Errors.badSignature();
  if (!/^\d{1,16}$/.test(timestampText)) throw Errors.illegalChars('timestamp', '^[0-9]{1,16}$');
  const timestamp = Number(timestampText);
  const recvWindowText = params.get('recvWindow');
  let recvWindow = 5000;
  if (recvWindowText !== undefined) {
    if (!/^\d{1,6}$/.test(recvWindowText)) throw Errors.illegalChars('recvWindow', '^[0-9]{1,6}$');
    recvWindow = Number(recvWindowText);
    if (recvWindow > 60000) throw Errors.invalidParameter('recvWindow');
  }
  if (timestamp >= request.serverTime + 1000) throw Errors.timestampAhead();
  if (request.serverTime - timestamp > recvWindow) throw Errors.timestampOutside();
}

export interface Limits {
  /** REQUEST_WEIGHT per minute per IP (exchangeInfo rateLimits). */
  requestWeightPerMinute: number;
  /** ORDERS per minute per account. */
  ordersPerMinute: number;
  /** ORDERS per 10 seconds per account. */
  ordersPer10s: number;
  /**
   * Requests an address may still send in a minute after that minute's 429 before it is banned (418), as
   * Binance bans an address that does not back off after 429s (binance-fapi.md §1).
   */
  requestsAfter429: number;
  /** How long a ban lasts, seconds (Binance: 2 minutes for a first ban, up to 3 days). */
  banSeconds: number;
}

export const DEFAULT_LIMITS: Limits = {
  requestWeightPerMinute: 2400,
  ordersPerMinute: 1200,
  ordersPer10s: 300,
  requestsAfter429: 5,
  banSeconds: 120,
};

/** Fixed-window counters like Binance's: the minute (or 10 s) window resets at its boundary. */
export class RateLimiter {
  private readonly weights = new Map<string, { window: number; used: number }>();
  private readonly strikes = new Map<string, { window: number; count: number }>();
  private readonly bans = new Map<string, number>();
  private readonly orders = new Map<
    number,
    { minute: number; perMinute: number; tenSeconds: number; per10s: number }
  >();

  constructor(public limits: Limits) {}

  /** Adds the weight of a request; returns the weight used in this minute (for X-MBX-USED-WEIGHT-1M). */
  addWeight(ip: string, weight: number, now: number): number {
    const window = Math.floor(now / 60000);
    const entry = this.weights.get(ip);
    const current = entry && entry.window === window ? entry : { window, used: 0 };
    current.used += weight;
    this.weights.set(ip, current);
    return current.used;
  }

  /**
   * A request over the minute's weight: answers the seconds to wait (Retry-After, to the minute's end), and bans
   * the address once it has gone on for more than requestsAfter429 requests after its first 429 of the minute.
   */
  overLimit(ip: string, now: number): { retryAfterS: number; banned: boolean } {
    const window = Math.floor(now / 60000);
    const entry = this.strikes.get(ip);
    const strikes = entry && entry.window === window ? entry : { window, count: 0 };
    strikes.count += 1;
    this.strikes.set(ip, strikes);
    if (strikes.count > this.limits.requestsAfter429 + 1) {
      this.bans.set(ip, now + this.limits.banSeconds * 1000);
      return { retryAfterS: this.limits.banSeconds, banned: true };
    }
    return { retryAfterS: Math.max(1, Math.ceil(((window + 1) * 60000 - now) / 1000)), banned: false };
  }

  /** The end of the address's ban (ms since the epoch), or undefined when it is not banned. */
  bannedUntil(ip: string, now: number): number | undefined {
    const until = this.bans.get(ip);
    if (until === undefined) return undefined;
    if (until > now) return until;
    this.bans.delete(ip);
    return undefined;
  }

  usedWeight(ip: string, now: number): number {
    const entry = this.weights.get(ip);
    return entry && entry.window === Math.floor(now / 60000) ? entry.used : 0;
  }

  /** Counts one new order; returns both counts, or throws -1015 beyond a limit. */
  addOrder(accountId: number, now: number): { per10s: number; perMinute: number } {
    const minute = Math.floor(now / 60000);
    const tenSeconds = Math.floor(now / 10000);
    const entry = this.orders.get(accountId) ?? { minute, perMinute: 0, tenSeconds, per10s: 0 };
    if (entry.minute !== minute) Object.assign(entry, { minute, perMinute: 0 });
    if (entry.tenSeconds !== tenSeconds) Object.assign(entry, { tenSeconds, per10s: 0 });
    entry.perMinute += 1;
    entry.per10s += 1;
    this.orders.set(accountId, entry);
    if (entry.per10s > this.limits.ordersPer10s)
      throw Errors.tooManyOrders(this.limits.ordersPer10s, '10 seconds');
    if (entry.perMinute > this.limits.ordersPerMinute)
      throw Errors.tooManyOrders(this.limits.ordersPerMinute, 'minute');
    return { per10s: entry.per10s, perMinute: entry.perMinute };
  }
}
