// The one exchange client (DESIGN.md "Layout"): signed Binance USDⓈ-M calls, used by the SPA in client
// mode and by the server in server mode. SPEC.md §7: every call carries the X-MBX-APIKEY header and is
// signed with HMAC-SHA256 over the query (trade-core does the signing; an Ed25519 private key in PEM form
// as api_secret signs with Ed25519, which Binance also accepts), with a timestamp and recvWindow 10000;
// every call times out after 5000 ms. SPEC.md §8: exchange error codes come from one table, and a
// wrapped error carries the name of the operation that failed.
//
// A new call is one method: name the operation, pick the method and path, pass the parameters, parse the
// answer. Parameters travel in the query string for every method, which Binance accepts
// (binance-fapi.md §1) and which keeps signing to one string.
import type { AccountBalance } from '../../contracts';
import { createEd25519Signer, createSigner, type QueryParams, type Signer } from './trade-core';

export const EXCHANGE_TIMEOUT_MS = 5000;
export const EXCHANGE_RECV_WINDOW_MS = 10_000;

/** SPEC.md §8 "Type": information codes mean "nothing to change" and let a flow continue. */
export const ExchangeErrorType = { INFORMATION: 'information', ERROR: 'error', NONE: 'none' } as const;
export type ExchangeErrorType = (typeof ExchangeErrorType)[keyof typeof ExchangeErrorType];

export interface ExchangeCodeEntry {
  text: string;
  type: ExchangeErrorType;
  /** SPEC.md §8 "Returned": the code is handed back to the caller. */
  returned: boolean;
  /** SPEC.md §8 "Shown": the caller shows it to the trader as a notification. */
  shown: boolean;
}

const error = (text: string): ExchangeCodeEntry => ({
  text,
  type: ExchangeErrorType.ERROR,
  returned: true,
  shown: true,
});
const information = (text: string): ExchangeCodeEntry => ({
  text,
  type: ExchangeErrorType.INFORMATION,
  returned: true,
  shown: false,
});

/** The exchange error catalogue of SPEC.md §8, with its texts as written there. */
export const EXCHANGE_ERROR_CATALOGUE: Readonly<Record<number, ExchangeCodeEntry>> = {
  [-4046]: information('No need to change margin type'),
  [-4059]: information('No need to change position side'),
  [-2015]: error(
    'Invalid API-key, IP, or Permissions. Check your exchange API key: Add IP to White List and Allow Futures',
  ),
  [-4164]: error('Order notional must be no smaller than 5'),
  [-4140]: error('Invalid symbol status for opening position'),
  [-4014]: error('Price not increased by tick size'),
  [-4003]: error('Quantity less than or equal to zero'),
  [-4067]: error('Position side cannot be changed if there exists open orders'),
  [-2019]: error('Margin is insufficient'),
  [-2011]: error('Unknown order sent'),
  200: { text: 'Success', type: ExchangeErrorType.NONE, returned: false, shown: false },
};

/** A catalogued code, or SPEC.md §8's 'Unknown error' with the exchange's message and the code. */
export function describeExchangeCode(code: number, exchangeMessage: string): ExchangeCodeEntry {
  return EXCHANGE_ERROR_CATALOGUE[code] ?? error(`Unknown error: ${exchangeMessage} (code ${code})`);
}

/** How a call failed: the exchange answered with an error, or the transport failed (SPEC.md §8). */
export const ExchangeFailure = {
  EXCHANGE: 'EXCHANGE',
  TIMEOUT: 'TIMEOUT',
  FETCH: 'FETCH',
  PARSING: 'PARSING',
} as const;
export type ExchangeFailure = (typeof ExchangeFailure)[keyof typeof ExchangeFailure];

/** An exchange call that failed; the message is '<operation>: <text>'. */
export class ExchangeError extends Error {
  readonly type: ExchangeErrorType;
  readonly shown: boolean;

  constructor(
    readonly operation: string,
    readonly failure: ExchangeFailure,
    readonly text: string,
    readonly code?: number,
    readonly status?: number,
    entry?: ExchangeCodeEntry,
  ) {
    super(`${operation}: ${text}`);
    this.name = 'ExchangeError';
    this.type = entry?.type ?? ExchangeErrorType.ERROR;
    this.shown = entry?.shown ?? true;
  }

  /** -4046 / -4059: the exchange already had the requested setting. */
  get isInformation(): boolean {
    return this.type === ExchangeErrorType.INFORMATION;
  }
}

export interface ExchangeCredentials {
  api_key: string;
  api_secret: string;
}

export interface ExchangeClientOptions {
  /** REST base URL without a trailing slash, e.g. https://fapi.binance.com (platform_url). */
  baseUrl: string;
  credentials: ExchangeCredentials;
  timeoutMs?: number;
  recvWindowMs?: number;
  /** Clock for the signed timestamp, ms since the epoch. */
  now?: () => number;
  fetch?: typeof fetch;
}

type Params = Record<string, string | number | boolean | undefined>;
type Method = 'GET' | 'POST' | 'DELETE';

/** GET /fapi/v2/account, the fields we read (binance-fapi.md §7); amounts are decimal strings. */
interface RawAccount {
  availableBalance?: unknown;
  totalMarginBalance?: unknown;
  totalUnrealizedProfit?: unknown;
  totalWalletBalance?: unknown;
}

/** The signer of a secret: Ed25519 for a PEM private key, HMAC-SHA256 otherwise (binance-fapi.md §2). */
function signerFor(secret: string): Signer {
  return secret.trimStart().startsWith('-----BEGIN') ? createEd25519Signer(secret) : createSigner(secret);
}

export class ExchangeClient {
  private readonly baseUrl: string;

  constructor(private readonly options: ExchangeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The signed query string; the signer's wasm memory is released at once. */
  private sign(params: QueryParams): string {
    const signer = signerFor(this.options.credentials.api_secret);
    try {
      const timestamp = (this.options.now ?? Date.now)();
      return signer.signedQuery(params, {
        timestamp,
        recvWindow: this.options.recvWindowMs ?? EXCHANGE_RECV_WINDOW_MS,
      });
    } finally {
      signer.free();
    }
  }

  /** The account totals of SPEC.md §3, parsed to numbers. */
  async getAccount(): Promise<AccountBalance> {
    const operation = 'getAccount';
    const raw = await this.signedRequest<RawAccount>(operation, 'GET', '/fapi/v2/account');
    return {
      available_balance: toNumber(operation, 'availableBalance', raw.availableBalance),
      total_margin_balance: toNumber(operation, 'totalMarginBalance', raw.totalMarginBalance),
      total_unrealized_profit: toNumber(operation, 'totalUnrealizedProfit', raw.totalUnrealizedProfit),
      total_wallet_balance: toNumber(operation, 'totalWalletBalance', raw.totalWalletBalance),
    };
  }

  private async signedRequest<T>(
    operation: string,
    method: Method,
    path: string,
    params: Params = {},
  ): Promise<T> {
    const entries = Object.entries(params).filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
    );
    const query = this.sign(entries);
    const send = this.options.fetch ?? fetch;
    let response: Response;
    let body: unknown;
    try {
      response = await send(`${this.baseUrl}${path}?${query}`, {
        method,
        headers: { 'X-MBX-APIKEY': this.options.credentials.api_key },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? EXCHANGE_TIMEOUT_MS),
      });
      body = await response.json().catch(() => undefined);
    } catch (cause) {
      const timedOut =
        cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
      if (timedOut) throw new ExchangeError(operation, ExchangeFailure.TIMEOUT, 'Timeout');
      throw new ExchangeError(
        operation,
        ExchangeFailure.FETCH,
        cause instanceof Error ? cause.message : String(cause),
      );
    }
    const { code, msg } = (body ?? {}) as { code?: unknown; msg?: unknown };
    const numericCode = typeof code === 'string' ? Number(code) : code;
    // Binance answers errors as { code: <negative>, msg }, usually with a 4xx status (binance-fapi.md §1).
    if (typeof numericCode === 'number' && numericCode < 0) {
      const entry = describeExchangeCode(numericCode, typeof msg === 'string' ? msg : '');
      throw new ExchangeError(
        operation,
        ExchangeFailure.EXCHANGE,
        entry.text,
        numericCode,
        response.status,
        entry,
      );
    }
    if (!response.ok) {
      throw new ExchangeError(
        operation,
        ExchangeFailure.EXCHANGE,
        `HTTP error ${response.status}`,
        undefined,
        response.status,
      );
    }
    if (body === undefined) {
      throw new ExchangeError(
        operation,
        ExchangeFailure.PARSING,
        'Invalid answer',
        undefined,
        response.status,
      );
    }
    return body as T;
  }
}

function toNumber(operation: string, field: string, value: unknown): number {
  const number = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) {
    throw new ExchangeError(operation, ExchangeFailure.PARSING, `Invalid ${field} in answer`);
  }
  return number;
}

/** One-call form of ExchangeClient.getAccount for callers that make a single request. */
export function getAccount(options: ExchangeClientOptions): Promise<AccountBalance> {
  return new ExchangeClient(options).getAccount();
}
