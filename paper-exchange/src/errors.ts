// Binance error codes and texts (reference §3, EC) with the HTTP status Binance answers them with (§1).
// Every rejection the exchange produces goes through ApiError, so the wire shape is always {"code","msg"}.

export class ApiError extends Error {
  readonly code: number;
  readonly status: number;

  constructor(code: number, msg: string, status = 400) {
    super(msg);
    this.code = code;
    this.status = status;
  }

  toJSON(): { code: number; msg: string } {
    return { code: this.code, msg: this.message };
  }
}

export const Errors = {
  unknown: () => new ApiError(-1000, 'An unknown error occured while processing the request.'),
  disconnected: (status = 503) =>
    new ApiError(-1001, 'Internal error; unable to process your request. Please try again.', status),
  unauthorized: (status = 403) =>
    new ApiError(-1002, 'You are not authorized to execute this request.', status),
  tooManyRequests: (limit: number) =>
    new ApiError(
      -1003,
      `Too many requests; current limit is ${limit} requests per minute. Please use the websocket for live updates to avoid polling the API.`,
      429,
    ),
  /** Binance's answer to an address that went on after 429s (binance-fapi.md §1): 418 until the ban ends. */
  banned: (ip: string, until: number) =>
    new ApiError(
      -1003,
      `Way too many requests; IP(${ip}) banned until ${until}. Please use the websocket for live updates to avoid bans.`,
      418,
    ),
  timeout: () =>
    new ApiError(
      -1007,
      'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
      408,
    ),
  tooManyOrders: (limit: number, interval: string) =>
    new ApiError(-1015, `Too many new orders; current limit is ${limit} orders per ${interval}.`, 429),
  timestampOutside: () => new ApiError(-1021, 'Timestamp for this request is outside of the recvWindow.'),
  timestampAhead: () =>
    new ApiError(-1021, "Timestamp for this request was 1000ms ahead of the server's time."),
  badSignature: () => new ApiError(-1022, 'Signature for this request is not valid.'),
  startAfterEnd: () => new ApiError(-1023, 'Start time is greater than end time.'),
  illegalChars: (param: string, range: string) =>
    new ApiError(-1100, `Illegal characters found in parameter '${param}'; legal range is '${range}'.`),
  duplicateParam: () => new ApiError(-1101, 'Duplicate values for a parameter detected.'),
  mandatory: (param: string) =>
    new ApiError(-1102, `Mandatory parameter '${param}' was not sent, was empty/null, or malformed.`),
  eitherMandatory: (a: string, b: string) =>
    new ApiError(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`),
  paramEmpty: (param: string) => new ApiError(-1105, `Parameter '${param}' was empty.`),
  notRequired: (param: string) => new ApiError(-1106, `Parameter '${param}' sent when not required.`),
  badPrecision: () => new ApiError(-1111, 'Precision is over the maximum defined for this asset.'),
  tifNotRequired: () => new ApiError(-1114, 'TimeInForce parameter sent when not required.'),
  invalidTif: () => new ApiError(-1115, 'Invalid timeInForce.'),
  invalidOrderType: () => new ApiError(-1116, 'Invalid orderType.'),
  invalidSide: () => new ApiError(-1117, 'Invalid side.'),
  emptyNewClientOrderId: () => new ApiError(-1118, 'New client order ID was empty.'),
  emptyOrigClientOrderId: () => new ApiError(-1119, 'Original client order ID was empty.'),
  badInterval: () => new ApiError(-1120, 'Invalid interval.'),
  badSymbol: () => new ApiError(-1121, 'Invalid symbol.'),
  invalidListenKey: () =>
    new ApiError(
      -1125,
      'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`',
    ),
  invalidParameter: (param: string) =>
    new ApiError(-1130, `Data sent for parameter '${param}' is not valid.`),
  newOrderRejected: (msg = 'NEW_ORDER_REJECTED') => new ApiError(-2010, msg),
  unknownOrder: () => new ApiError(-2011, 'Unknown order sent.'),
  noSuchOrder: () => new ApiError(-2013, 'Order does not exist.'),
  badApiKeyFormat: () => new ApiError(-2014, 'API-key format invalid.', 401),
  rejectedKey: (ip: string) =>
    new ApiError(-2015, `Invalid API-key, IP, or permissions for action, request ip: ${ip}`, 401),
  marginInsufficient: () => new ApiError(-2019, 'Margin is insufficient.'),
  wouldTrigger: () => new ApiError(-2021, 'Order would immediately trigger.'),
  reduceOnlyReject: () => new ApiError(-2022, 'ReduceOnly Order is rejected.'),
  maxOpenOrders: () => new ApiError(-2025, 'Reach max open order limit.'),
  maxLeverageRatio: () => new ApiError(-2027, 'Exceeded the maximum allowable position at current leverage.'),
  qtyNotPositive: () => new ApiError(-4003, 'Quantity less than or equal to zero.'),
  qtyBelowMin: () => new ApiError(-4004, 'Quantity less than min quantity.'),
  qtyAboveMax: () => new ApiError(-4005, 'Quantity greater than max quantity.'),
  priceBelowMin: () => new ApiError(-4013, 'Price less than min price.'),
  priceNotTick: () => new ApiError(-4014, 'Price not increased by tick size.'),
  invalidClientOrderId: () => new ApiError(-4015, 'Client order id is not valid.'),
  priceAboveMax: () => new ApiError(-4016, 'Price greater than max price.'),
  qtyNotStep: () => new ApiError(-4023, 'Qty not increased by step size.'),
  limitPriceTooHigh: (limit: string) => new ApiError(-4016, `Limit price can't be higher than ${limit}.`),
  limitPriceTooLow: (limit: string) => new ApiError(-4024, `Limit price can't be lower than ${limit}.`),
  invalidLeverage: (value: string) => new ApiError(-4028, `Leverage ${value} is not valid`),
  noNeedMarginType: () => new ApiError(-4046, 'No need to change margin type.'),
  marginTypeOpenOrders: () =>
    new ApiError(-4047, 'Margin type cannot be changed if there exists open orders.'),
  marginTypePosition: () => new ApiError(-4048, 'Margin type cannot be changed if there exists position.'),
  noNeedPositionSide: () => new ApiError(-4059, 'No need to change position side.'),
  invalidPositionSide: () => new ApiError(-4060, 'Invalid position side.'),
  positionSideNotMatch: () => new ApiError(-4061, "Order's position side does not match user's setting."),
  reduceOnlyConflict: () => new ApiError(-4062, 'Invalid or improper reduceOnly value.'),
  positionSideOpenOrders: () =>
    new ApiError(-4067, 'Position side cannot be changed if there exists open orders.'),
  positionSideQuantity: () =>
    new ApiError(-4068, 'Position side cannot be changed if there exists position.'),
  duplicatedClientOrderId: () => new ApiError(-4116, 'clientOrderId is duplicated'),
  postOnlyRejected: () =>
    new ApiError(
      -5022,
      'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history',
    ),
  switchToAlgo: () =>
    new ApiError(
      -4120,
      'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.',
    ),
  qtyWithClosePosition: () => new ApiError(-4137, 'Quantity must be zero with closePosition equals true'),
  reduceOnlyWithClosePosition: () =>
    new ApiError(-4138, 'Reduce only must be true with closePosition equals true'),
  symbolStatus: () => new ApiError(-4140, 'Invalid symbol status for opening position'),
  leverageReductionIsolated: () =>
    new ApiError(-4161, 'Leverage reduction is not supported in Isolated Margin Mode with open positions'),
  minNotional: (notional: string) =>
    new ApiError(
      -4164,
      `Order's notional must be no smaller than ${notional} (unless you choose reduce only)`,
    ),
} as const;

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
