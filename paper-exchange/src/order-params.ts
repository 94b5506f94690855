// Parameter validation of POST /fapi/v1/order and POST /fapi/v1/algoOrder (reference §6) against the symbol
// filters of exchangeInfo (reference §4): mandatory parameters by type, precision (-1111), tick (-4014),
// step (-4023), min/max, PERCENT_PRICE and MIN_NOTIONAL (-4164), in Binance's error codes.
import type { Params } from './auth.js';
import { Errors } from './errors.js';
import { findSymbol, ORDER_TYPES, TIME_IN_FORCE, type SymbolSpec } from './market/symbols.js';
import { D, isMultiple, parseDecimal, type Dec } from './num.js';
import {
  CONDITIONAL_TYPES,
  type ConditionalType,
  type OrderType,
  type PositionSide,
  type Side,
  type TimeInForce,
  type WorkingType,
} from './state.js';

export interface OrderRequest {
  spec: SymbolSpec;
  side: Side;
  positionSide: PositionSide;
  type: Exclude<OrderType, 'LIQUIDATION'>;
  timeInForce: TimeInForce;
  quantity: Dec | undefined;
  price: Dec | undefined;
  stopPrice: Dec | undefined;
  reduceOnly: boolean;
  closePosition: boolean;
  workingType: WorkingType;
  priceProtect: boolean;
  clientId: string | undefined;
  respType: 'ACK' | 'RESULT';
  activatePrice: Dec | undefined;
  callbackRate: Dec | undefined;
  goodTillDate: number;
}

export const CLIENT_ID_FORMAT = /^[.A-Z:/a-z0-9_-]{1,36}$/;
const NUMBER_RANGE = '^([0-9]{1,20})(\\.[0-9]{1,20})?$';

export function isConditional(type: string): type is ConditionalType {
  return (CONDITIONAL_TYPES as readonly string[]).includes(type);
}

export function requireSymbol(params: Params): SymbolSpec {
  const symbol = params.get('symbol');
  if (!symbol) throw Errors.mandatory('symbol');
  const spec = findSymbol(symbol.toUpperCase());
  if (!spec) throw Errors.badSymbol();
  return spec;
}

export function parseBool(params: Params, name: string): boolean | undefined {
  const value = params.get(name);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw Errors.invalidParameter(name);
}

function parseNumber(params: Params, name: string): Dec | undefined {
  const text = params.get(name);
  if (text === undefined) return undefined;
  if (text === '') throw Errors.paramEmpty(name);
  const value = parseDecimal(text);
  if (!value) throw Errors.illegalChars(name, NUMBER_RANGE);
  return value;
}

/** PRICE_FILTER [DM:common_definition]: precision, then tick, then min/max. */
export function checkPrice(spec: SymbolSpec, price: Dec): void {
  if (price.lessThanOrEqualTo(0)) throw Errors.priceBelowMin();
  if (price.decimalPlaces() > spec.pricePrecision) throw Errors.badPrecision();
  if (!isMultiple(price, new D(spec.tickSize), new D(spec.minPrice))) throw Errors.priceNotTick();
  if (price.lessThan(spec.minPrice)) throw Errors.priceBelowMin();
  if (price.greaterThan(spec.maxPrice)) throw Errors.priceAboveMax();
}

/** LOT_SIZE, or MARKET_LOT_SIZE for market executions [DM:common_definition]. */
export function checkQuantity(spec: SymbolSpec, qty: Dec, market: boolean): void {
  if (qty.lessThanOrEqualTo(0)) throw Errors.qtyNotPositive();
  if (!isMultiple(qty, new D(spec.stepSize), new D(spec.minQty))) throw Errors.qtyNotStep();
  if (qty.lessThan(spec.minQty)) throw Errors.qtyBelowMin();
  if (qty.greaterThan(market ? spec.marketMaxQty : spec.maxQty)) throw Errors.qtyAboveMax();
}

export interface OrderContext {
  dualSidePosition: boolean;
  /** POST /fapi/v1/algoOrder: trigger is `triggerPrice`, id is `clientAlgoId`, only conditional types. */
  algo: boolean;
  /** Conditional types accepted on /fapi/v1/order (pre-2025-12-09 behaviour). */
  legacyConditional: boolean;
  markOf: (symbol: string) => Dec;
}

export function parseOrderRequest(params: Params, context: OrderContext): OrderRequest {
  const spec = requireSymbol(params);
  const mark = context.markOf(spec.symbol);
  const side = params.get('side');
  if (!side) throw Errors.mandatory('side');
  if (side !== 'BUY' && side !== 'SELL') throw Errors.invalidSide();
  if (context.algo) {
    const algoType = params.get('algoType');
    if (!algoType) throw Errors.mandatory('algoType');
    if (algoType !== 'CONDITIONAL') throw Errors.invalidParameter('algoType');
  }
  const type = params.get('type');
  if (!type) throw Errors.mandatory('type');
  if (!(ORDER_TYPES as readonly string[]).includes(type)) throw Errors.invalidOrderType();
  const conditional = isConditional(type);
  if (context.algo && !conditional) throw Errors.invalidOrderType();
  if (!context.algo && conditional && !context.legacyConditional) throw Errors.switchToAlgo();
  const orderType = type as OrderRequest['type'];

  const positionSide = (params.get('positionSide') ??
    (context.dualSidePosition ? '' : 'BOTH')) as PositionSide;
  if (positionSide && !['BOTH', 'LONG', 'SHORT'].includes(positionSide)) throw Errors.invalidPositionSide();
  if (context.dualSidePosition ? positionSide === 'BOTH' || !positionSide : positionSide !== 'BOTH') {
    throw Errors.positionSideNotMatch();
  }

  const closePosition = parseBool(params, 'closePosition') ?? false;
  const reduceOnlyParam = parseBool(params, 'reduceOnly');
  if (context.dualSidePosition && reduceOnlyParam) throw Errors.notRequired('reduceOnly');
  if (closePosition) {
    if (orderType !== 'STOP_MARKET' && orderType !== 'TAKE_PROFIT_MARKET')
      throw Errors.notRequired('closePosition');
    if (reduceOnlyParam) throw Errors.notRequired('reduceOnly');
    if (params.has('quantity')) throw Errors.qtyWithClosePosition();
  }
  const reduceOnly = reduceOnlyParam ?? false;

  const tifText = params.get('timeInForce');
  if (tifText !== undefined && !(TIME_IN_FORCE as readonly string[]).includes(tifText))
    throw Errors.invalidTif();
  const limitPriced = orderType === 'LIMIT' || orderType === 'STOP' || orderType === 'TAKE_PROFIT';
  if (orderType === 'LIMIT' && tifText === undefined) throw Errors.mandatory('timeInForce');
  const timeInForce = (tifText ?? 'GTC') as TimeInForce;
  let goodTillDate = 0;
  if (timeInForce === 'GTD') {
    const gtd = params.get('goodTillDate');
    if (!gtd) throw Errors.mandatory('goodTillDate');
    if (!/^\d{13}$/.test(gtd)) throw Errors.invalidParameter('goodTillDate');
    goodTillDate = Number(gtd);
  }

  const marketExecution = !limitPriced;
  let quantity = parseNumber(params, 'quantity');
  if (!closePosition && quantity === undefined) throw Errors.mandatory('quantity');
  if (quantity !== undefined) checkQuantity(spec, quantity, marketExecution);

  let price = parseNumber(params, 'price');
  if (limitPriced) {
    if (price === undefined) throw Errors.mandatory('price');
    checkPrice(spec, price);
  } else if (price !== undefined) {
    if (!price.isZero()) throw Errors.notRequired('price');
    price = undefined;
  }

  // Each route reads its own names only, as Binance does (binance-fapi.md §6): /fapi/v1/order takes stopPrice
  // and activationPrice, /fapi/v1/algoOrder triggerPrice and activatePrice. The other route's name is not
  // read, so a client that sends the wrong one meets the missing parameter, not a lenient stand-in.
  const triggerName = context.algo ? 'triggerPrice' : 'stopPrice';
  const activateName = context.algo ? 'activatePrice' : 'activationPrice';
  let stopPrice = parseNumber(params, triggerName);
  let activatePrice: Dec | undefined;
  let callbackRate: Dec | undefined;
  if (orderType === 'TRAILING_STOP_MARKET') {
    activatePrice = parseNumber(params, activateName);
    if (activatePrice !== undefined) checkPrice(spec, activatePrice);
    callbackRate = parseNumber(params, 'callbackRate');
    if (callbackRate === undefined) throw Errors.mandatory('callbackRate');
    if (callbackRate.lessThan('0.1') || callbackRate.greaterThan(10) || callbackRate.decimalPlaces() > 1) {
      throw Errors.invalidParameter('callbackRate');
    }
    stopPrice = undefined;
  } else if (conditional) {
    if (stopPrice === undefined) throw Errors.mandatory(triggerName);
    checkPrice(spec, stopPrice);
  } else if (stopPrice !== undefined) {
    if (!stopPrice.isZero()) throw Errors.notRequired(triggerName);
    stopPrice = undefined;
  }

  if (orderType === 'LIMIT' && price) {
    // PERCENT_PRICE against the mark price [DM:common_definition].
    const up = mark.times('1.05');
    const down = mark.times('0.95');
    if (side === 'BUY' && price.greaterThan(up))
      throw Errors.limitPriceTooHigh(up.toFixed(spec.pricePrecision));
    if (side === 'SELL' && price.lessThan(down))
      throw Errors.limitPriceTooLow(down.toFixed(spec.pricePrecision));
  }

  const clientName = context.algo ? 'clientAlgoId' : 'newClientOrderId';
  const clientId = params.get(clientName);
  if (clientId !== undefined) {
    if (clientId === '') throw Errors.emptyNewClientOrderId();
    if (!CLIENT_ID_FORMAT.test(clientId)) throw Errors.invalidClientOrderId();
  }

  const workingType = (params.get('workingType') ?? 'CONTRACT_PRICE') as WorkingType;
  if (workingType !== 'CONTRACT_PRICE' && workingType !== 'MARK_PRICE')
    throw Errors.invalidParameter('workingType');
  const respType = (params.get('newOrderRespType') ?? 'ACK') as 'ACK' | 'RESULT';
  if (respType !== 'ACK' && respType !== 'RESULT') throw Errors.invalidParameter('newOrderRespType');
  const priceProtect = parseBool(params, 'priceProtect') ?? false;

  if (!reduceOnly && !closePosition && quantity !== undefined) {
    // MIN_NOTIONAL: price × qty; market executions use the mark price [DM:common_definition].
    const reference = orderType === 'MARKET' ? mark : (price ?? stopPrice ?? activatePrice ?? mark);
    if (quantity.times(reference).lessThan(spec.minNotional)) throw Errors.minNotional(spec.minNotional);
  }
  if (closePosition) quantity = undefined;

  return {
    spec,
    side,
    positionSide,
    type: orderType,
    timeInForce,
    quantity,
    price,
    stopPrice,
    reduceOnly,
    closePosition,
    workingType,
    priceProtect,
    clientId,
    respType,
    activatePrice,
    callbackRate,
    goodTillDate,
  };
}
