// The server's connections to the exchanges: one undici Agent (a keep-alive connection pool per exchange
// origin) for every exchange call the server makes, its own (server mode, the house, reconciliation) and the
// ones it relays for client mode (routes/exchange_relay), all through the exchange budget of our address
// (exchange-budget.ts). A trader 100–250 ms from the exchange pays a TCP and TLS handshake (two to three round
// trips) on every cold connection; kept connections pay none.
import { Agent, fetch as undiciFetch } from 'undici';
import {
  ExchangeClient,
  RELAY_HEADER,
  type ExchangeCredentials,
  type SigningKey,
} from '../../../shared-core/exchange-client';
import { HttpError } from '../http-error';
import { BudgetRefusal, exchangeBudget, type Admission } from './exchange-budget';
import { protectiveOnly } from './protective-calls';

/** Idle exchange connections are kept this long (Binance closes idle ones after some minutes itself). */
const KEEP_ALIVE_MS = 60_000;
/** Connections per exchange origin: enough for a burst of opens, bounded so a flood cannot hold sockets. */
const CONNECTIONS_PER_ORIGIN = 64;

export const exchangeAgent = new Agent({
  keepAliveTimeout: KEEP_ALIVE_MS,
  keepAliveMaxTimeout: 10 * KEEP_ALIVE_MS,
  connections: CONNECTIONS_PER_ORIGIN,
  connect: { timeout: 5_000 },
});

/**
 * fetch over the pool, through the exchange budget (exchange-budget.ts): a request the budget refuses never
 * leaves and is answered here with our own 429, Retry-After and RELAY_HEADER (the exchange client tells it
 * from the exchange's answer); every answer's weight header, 429 and 418 are read by the budget.
 */
export async function budgetedFetch(
  input: string | URL,
  init: RequestInit = {},
  who: { trader?: string; newKey?: boolean } = {},
): Promise<Response> {
  const url = new URL(input);
  const apiKey = new Headers(init.headers).get('x-mbx-apikey') ?? undefined;
  let admission: Admission;
  try {
    admission = exchangeBudget.admit({
      url: url.href,
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.search.slice(1),
      trader: who.trader,
      provenKey: who.newKey ? false : undefined,
      apiKey,
    });
  } catch (error) {
    if (!(error instanceof BudgetRefusal)) throw error;
    return new Response(JSON.stringify({ detail: error.message }), {
      status: 429,
      headers: {
        'content-type': 'application/json',
        'retry-after': String(error.retryAfterS),
        [RELAY_HEADER]: 'refused',
      },
    });
  }
  let response: Response;
  try {
    response = (await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: exchangeAgent,
    })) as unknown as Response;
  } catch (error) {
    // Not reached (no connection): the exchange counted nothing. A time-out may have been counted.
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    if (!timedOut) admission.notSent();
    throw error;
  }
  // A 429's code tells the account's order count (-1015) from the address's weight: its body is read (a copy).
  const body =
    response.status === 429
      ? await response
          .clone()
          .text()
          .catch(() => undefined)
      : undefined;
  exchangeBudget.observe(url.href, response.status, (name) => response.headers.get(name) ?? undefined, {
    body,
    apiKey,
  });
  if (response.ok) admission.keyAccepted();
  return response;
}

/**
 * An exchange client of the server: its requests go over the pool and through the budget, counted for the
 * trader they are made for (none for the house account). A key being checked before the exchange has accepted
 * it (`newKey`) spends the small allowance of such keys (exchange-budget.ts).
 */
export function serverExchangeClient(
  baseUrl: string,
  credentials: ExchangeCredentials | SigningKey,
  trader?: string,
  /** protectiveOnly: the client of a trader's unattended key (services/unattended-keys.ts). */
  options: { newKey?: boolean; protectiveOnly?: boolean } = {},
): ExchangeClient {
  const budgeted = ((input: string | URL, init?: RequestInit) =>
    budgetedFetch(input, init, { trader, newKey: options.newKey })) as typeof globalThis.fetch;
  const fetch = options.protectiveOnly ? protectiveOnly(budgeted) : budgeted;
  try {
    return new ExchangeClient({ baseUrl, credentials, fetch });
  } catch {
    // Only the signer can fail here: a secret that looks like a PEM key and is not one. The parser's own text
    // stays out of the answer (it can quote the input).
    throw new HttpError(400, 'api_secret: not a valid Ed25519 private key (PKCS#8 PEM)');
  }
}
