// The errors a route, a service or the engine throws to answer a request with a status and `{ "detail" }`
// (DESIGN.md "How things run"; plugins/errors.ts turns them into the answer). A neutral module, so that
// services and the engine need not import a plugin.
import { ExchangeError, ExchangeFailure } from '../../shared-core/exchange-client';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as Retry-After (seconds) with a 429 or 503. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** The HTTP answer for an exchange failure: 400 with the catalogue text when refused, 502 otherwise. */
export function exchangeHttpError(error: ExchangeError): HttpError {
  // A refusal is the exchange's answer to this request (a code, HTTP 4xx): the trader's request cannot be
  // carried out, 400. No answer, an unreadable one, or the exchange failing (HTTP 5xx, even with a code such
  // as -1001) is a bad gateway, 502.
  // Our exchange budget kept the request from leaving (services/exchange-budget.ts): a 429 of our own.
  if (error.failure === ExchangeFailure.EXCHANGE && error.code === undefined && error.status === 429) {
    return new HttpError(429, error.message);
  }
  // The transport's own text (undici's) can quote the request, its API key header included: never passed on.
  if (error.failure === ExchangeFailure.FETCH) {
    return new HttpError(502, `${error.operation}: The exchange could not be reached`);
  }
  const refused =
    error.failure === ExchangeFailure.EXCHANGE &&
    error.code !== undefined &&
    (error.status === undefined || error.status < 500);
  return new HttpError(refused ? 400 : 502, error.message);
}
