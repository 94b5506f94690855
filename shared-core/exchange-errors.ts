// The exchange error catalogue of SPEC.md §8 and the error every exchange call fails with. Split from
// exchange-client.ts, which re-exports all of it: import from either.
// SPEC.md §8: exchange error codes come from one table, and a wrapped error carries the name of the
// operation that failed.

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
  // Not in SPEC.md §8: since 2025-12-09 Binance answers it to a STOP order on /fapi/v1/order; the client then
  // places the stop through the Algo Order API (DESIGN.md "Conditional orders"), so the trader never sees it.
  [-4120]: information(
    'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.',
  ),
  [-2015]: error(
    'Invalid API-key, IP, or Permissions. Check your exchange API key: Add IP to White List and Allow Futures',
  ),
  [-4164]: error('Order notional must be no smaller than 5'),
  [-4140]: error('Invalid symbol status for opening position'),
  [-4014]: error('Price not increased by tick size'),
  [-4003]: error('Quantity less than or equal to zero'),
  [-4067]: error('Position side cannot be changed if there exists open orders'),
  [-2019]: error('Margin is insufficient'),
  // Not in SPEC.md §8 (issue 53): the position the order makes is above what its leverage bracket allows.
  [-2027]: error('Exceeded the maximum allowable position at current leverage.'),
  [-2011]: error('Unknown order sent'),
  200: { text: 'Success', type: ExchangeErrorType.NONE, returned: false, shown: false },
};

/**
 * -4164's text with the filter's own value, as the exchange's message names it ("Order's notional must be no
 * smaller than 100 (unless you choose reduce only)"): SPEC.md §8's text says 5, the minimum of most symbols, and
 * a trader refused on BTCUSDT (100) must read the number that refused him (issue 53).
 */
export const MIN_NOTIONAL_TEXT = /^Order notional must be no smaller than (\d+(?:\.\d+)?)$/;
const minNotionalOf = (exchangeMessage: string) =>
  /no smaller than (\d+(?:\.\d+)?)/.exec(exchangeMessage)?.[1];

/**
 * The open's own refusal before the MARKET order when the brackets say the exchange would answer -2027 (issue
 * 53), naming the cap and the leverage, which the exchange's text does not.
 */
export const BRACKET_CAP_TEXT =
  /^Exceeded the maximum allowable position at current leverage: (\d+(?:\.\d+)?) USDT at x(\d+)$/;
export const bracketCapText = (cap: string, leverage: number | string) =>
  `Exceeded the maximum allowable position at current leverage: ${cap} USDT at x${leverage}`;

/** A catalogued code, or SPEC.md §8's 'Unknown error' with the exchange's message and the code. */
export function describeExchangeCode(code: number, exchangeMessage: string): ExchangeCodeEntry {
  const entry = EXCHANGE_ERROR_CATALOGUE[code];
  const notional = code === -4164 ? minNotionalOf(exchangeMessage) : undefined;
  if (entry && notional !== undefined)
    return { ...entry, text: `Order notional must be no smaller than ${notional}` };
  return entry ?? error(`Unknown error: ${exchangeMessage} (code ${code})`);
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

  /** -4046 / -4059 / -4120: the exchange already had the requested setting, or wants another route. */
  get isInformation(): boolean {
    return this.type === ExchangeErrorType.INFORMATION;
  }

  /**
   * The request may or may not have been carried out: no answer (timeout, network), an answer we could not
   * read, a backend timeout (-1007, HTTP 408) or an HTTP 5xx, whose execution status Binance calls unknown
   * (binance-fapi.md §1, §3).
   */
  get outcomeUnknown(): boolean {
    if (this.failure !== ExchangeFailure.EXCHANGE) return true;
    return this.code === -1007 || this.status === 408 || (this.status ?? 0) >= 500;
  }
}
