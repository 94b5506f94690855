// The signed-request relay (docs/relay.md): client mode's road to an exchange that refuses browser origins.
// The page signs each exchange request with trade-core and sends it to
// /api/exchange_relay/{platform_uuid}{exchange path}?{signed query} with the X-MBX-APIKEY header; the server
// forwards it verbatim to the platform's base URL and answers with the exchange's status, body and rate-limit
// headers.
import { z } from 'zod';
import { resultOf } from './common';
import { apiKey } from './trade-tokens';

/** The exchange calls the product makes (shared-core/exchange-client.ts): the only ones the relay forwards. */
export const RELAYED_CALLS = {
  '/fapi/v2/account': ['GET'],
  '/fapi/v2/positionRisk': ['GET'],
  '/fapi/v1/leverage': ['POST'],
  '/fapi/v1/marginType': ['POST'],
  '/fapi/v1/positionSide/dual': ['POST'],
  '/fapi/v1/order': ['GET', 'POST', 'DELETE'],
  '/fapi/v1/algoOrder': ['GET', 'POST', 'DELETE'],
  // Before an open on a flat symbol (issue 52): Signaldesk's exits and stops left on it are cancelled first.
  '/fapi/v1/openAlgoOrders': ['GET'],
  // And the regular ones (issue 54): a stop-limit that triggered and did not fill rests there under its id.
  '/fapi/v1/openOrders': ['GET'],
  // After the MARKET order (issue 18): the fills' commission; the brackets (issue 53: read with the settings,
  // before the order, for the leverage's cap and the maintenance bracket; the page's table once a session).
  '/fapi/v1/userTrades': ['GET'],
  '/fapi/v1/leverageBracket': ['GET'],
} as const satisfies Record<string, readonly RelayMethod[]>;
export type RelayedPath = keyof typeof RELAYED_CALLS;

/**
 * Issue 39: the answers the page expects on every open and close and reads as "already so": the exchange's "no
 * change needed" to a setting (SPEC.md §4: margin type ISOLATED -4046, one-way mode -4059) and "no such order"
 * to a look-up by client id (-2013: this signal's opening order, a stop), and "use the Algo Order API" to a STOP
 * (-4120). Binance sends them as HTTP 400, which a
 * browser logs as a failed request each time; the relay answers them 200 with the exchange's body unchanged (the
 * code and its message, which the exchange client still reads, so nothing else changes) and the exchange's own
 * status in RELAY_EXCHANGE_STATUS_HEADER. Only these codes on these calls: any other answer keeps its status.
 */
export const RELAY_NO_CHANGE_ANSWERS: Readonly<Record<string, number>> = {
  'POST /fapi/v1/marginType': -4046,
  'POST /fapi/v1/positionSide/dual': -4059,
  'GET /fapi/v1/order': -2013,
  // A STOP on the old path (binance-fapi.md: conditional orders moved to the Algo Order API): the page's first
  // stop of a session learns the route from it and places the stop there (exchange-client placeStopOrder).
  'POST /fapi/v1/order': -4120,
  'GET /fapi/v1/algoOrder': -2013,
};
export const RELAY_EXCHANGE_STATUS_HEADER = 'x-signaldesk-exchange-status';
export type RelayMethod = 'GET' | 'POST' | 'DELETE';

/** Path parameters of a relayed request: the platform whose exchange it goes to. */
export const relayParams = z.object({ platform_uuid: z.uuid() });

/** The exchange's API key header; the rest of a relayed request is the signed query string. */
export const relayHeaders = z.object({
  'x-mbx-apikey': apiKey,
});

/**
 * The signed query as the page built it: `…&timestamp=…&signature=…`, percent-encoded (RFC 3986); the
 * relay forwards these bytes unchanged, so they are held to the characters such a query has.
 */
export const RELAY_QUERY_PATTERN = /^[A-Za-z0-9%._~=&+-]{1,4096}$/;

/** The address the exchange sees our requests come from: the one to allow on an IP-restricted API key. */
export const egressIpAnswer = resultOf(
  z.object({
    /** IPv4 or IPv6 text; null while it is not known (not configured, and not found at start). */
    egress_ip: z.string().nullable(),
  }),
).meta({ id: 'EgressIpAnswer' });
export type EgressIpAnswer = z.infer<typeof egressIpAnswer>;
