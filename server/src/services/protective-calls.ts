// The calls the server's unattended key may send (issue 54; services/unattended-keys.ts), checked on every request
// before it leaves: reads; the cancel of a Signaldesk stop, backstop or exit (sds…, sdb…, sdt…, sdr…); the placing
// of a reduce-only stop or exit with such an id. Never an opening order, a close, nor a change of leverage,
// margin type or position mode. Parameters travel in the query string for every method (exchange-client.ts).

/** The client ids of Signaldesk's protective orders: a stop, its backstop, a take profit, a trailing stop. */
const PROTECTIVE_ID = /^sd[sbtr][0-9a-f]{32}$/;
const PROTECTIVE_TYPES = new Set(['STOP', 'STOP_MARKET', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET']);
const ORDER_PATHS = new Set(['/fapi/v1/order', '/fapi/v1/algoOrder']);
/** Reads the protective work needs (an order's or exit's state, the open orders, the position). */
const READ_PATHS = new Set([
  '/fapi/v1/order',
  '/fapi/v1/algoOrder',
  '/fapi/v1/openOrders',
  '/fapi/v1/openAlgoOrders',
  '/fapi/v2/positionRisk',
  '/fapi/v3/positionRisk',
  '/fapi/v1/userTrades',
]);

/** Why a request is not protective, or undefined when it is (method, path and query of a signed request). */
export function notProtective(method: string, url: URL): string | undefined {
  const path = url.pathname.replace(/^.*(?=\/fapi\/)/, '');
  const params = url.searchParams;
  if (method === 'GET') return READ_PATHS.has(path) ? undefined : `read ${path}`;
  if (!ORDER_PATHS.has(path)) return `${method} ${path}`;
  const id = params.get('clientAlgoId') ?? params.get('origClientOrderId') ?? params.get('newClientOrderId');
  if (id === null || !PROTECTIVE_ID.test(id)) return `${method} ${path} of an order Signaldesk does not hold`;
  if (method === 'DELETE') return undefined;
  if (method !== 'POST') return `${method} ${path}`;
  if (params.get('reduceOnly') !== 'true') return 'an order that is not reduce-only';
  if (!PROTECTIVE_TYPES.has(params.get('type') ?? '')) return `an order of type ${params.get('type') ?? '?'}`;
  return undefined;
}

/** A fetch that sends protective calls only; any other request is refused before it leaves. */
export function protectiveOnly(send: typeof globalThis.fetch): typeof globalThis.fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const refused = notProtective(method, url);
    if (refused !== undefined) {
      return Promise.reject(new Error(`not a protective call: ${refused} (the PIN is needed)`));
    }
    return send(input, init);
  }) as typeof globalThis.fetch;
}
