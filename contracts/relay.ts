// The signed-request relay (docs/relay.md): client mode's road to an exchange that refuses browser origins.
// The page signs each exchange request with trade-core and sends it to
// /api/exchange_relay/{platform_uuid}{exchange path}?{signed query} with the X-MBX-APIKEY header; the server
// forwards it verbatim to the platform's base URL and answers with the exchange's status, body and rate-limit
// headers.
import { z } from 'zod';
import { resultOf } from './common';

/** The exchange calls the product makes (shared-core/exchange-client.ts): the only ones the relay forwards. */
export const RELAYED_CALLS = {
  '/fapi/v2/account': ['GET'],
  '/fapi/v2/positionRisk': ['GET'],
  '/fapi/v1/leverage': ['POST'],
  '/fapi/v1/marginType': ['POST'],
  '/fapi/v1/positionSide/dual': ['POST'],
  '/fapi/v1/order': ['GET', 'POST', 'DELETE'],
  '/fapi/v1/algoOrder': ['GET', 'POST', 'DELETE'],
  // After the MARKET order (issue 18): the fills' commission, and the maintenance bracket of the position.
  '/fapi/v1/userTrades': ['GET'],
  '/fapi/v1/leverageBracket': ['GET'],
} as const satisfies Record<string, readonly RelayMethod[]>;
export type RelayedPath = keyof typeof RELAYED_CALLS;
export type RelayMethod = 'GET' | 'POST' | 'DELETE';

/** Path parameters of a relayed request: the platform whose exchange it goes to. */
export const relayParams = z.object({ platform_uuid: z.uuid() });

/** The exchange's API key header; the rest of a relayed request is the signed query string. */
export const relayHeaders = z.object({
  'x-mbx-apikey': z
    .string()
    .min(1)
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'Must be printable ASCII without spaces'),
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
