// The server's connections to the exchanges: one undici Agent (a keep-alive connection pool per exchange
// origin) for every exchange call the server makes, its own (server mode, the house, reconciliation) and the
// ones it relays for client mode (routes/exchange_relay). A trader 100–250 ms from the exchange pays a TCP
// and TLS handshake (two to three round trips) on every cold connection; kept connections pay none.
import { Agent, fetch as undiciFetch } from 'undici';
import {
  ExchangeClient,
  type ExchangeCredentials,
  type SigningKey,
} from '../../../shared-core/exchange-client';

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

/** fetch over the pool (undici's own fetch: the Agent and the fetch come from one undici). */
const exchangeFetch = ((input: string | URL, init?: RequestInit) =>
  undiciFetch(input, {
    ...(init as Parameters<typeof undiciFetch>[1]),
    dispatcher: exchangeAgent,
  })) as unknown as typeof fetch;

/** An exchange client of the server: its requests go over the pool. */
export function serverExchangeClient(
  baseUrl: string,
  credentials: ExchangeCredentials | SigningKey,
): ExchangeClient {
  return new ExchangeClient({ baseUrl, credentials, fetch: exchangeFetch });
}
