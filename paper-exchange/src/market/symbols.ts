// The eight USDⓈ-M perpetuals the paper exchange lists, with Binance's filters, precisions and leverage
// brackets (reference §4 exchangeInfo shape, §7 leverageBracket shape). Model parameters (start level,
// volatility, volume) live here too so one table describes each market.
import { D } from '../num.js';
import { BRACKETS_100, BRACKETS_125, BRACKETS_75, buildBrackets, type LeverageBracket } from './brackets.js';

export type { LeverageBracket } from './brackets.js';

export interface SymbolSpec {
  symbol: string;
  baseAsset: string;
  pricePrecision: number;
  quantityPrecision: number;
  tickSize: string;
  minPrice: string;
  maxPrice: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  marketMaxQty: string;
  minNotional: string;
  maxLeverage: number;
  onboardDate: number;
  underlyingSubType: string[];
  liquidationFee: string;
  marketTakeBound: string;
  /** Model: price level at the start of the simulated history, in USDT. */
  startPrice: number;
  /** Model: long-run annualised volatility of log returns. */
  annualVol: number;
  /** Model: loading on the common market factor (correlation with the market). */
  marketLoading: number;
  /** Model: average traded base quantity per minute. */
  baseVolumePerMinute: number;
  brackets: LeverageBracket[];
}

export const SYMBOLS: readonly SymbolSpec[] = [
  {
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    pricePrecision: 2,
    quantityPrecision: 3,
    tickSize: '0.10',
    minPrice: '261.10',
    maxPrice: '809484',
    stepSize: '0.001',
    minQty: '0.001',
    maxQty: '1000',
    marketMaxQty: '120',
    minNotional: '100',
    maxLeverage: 125,
    onboardDate: 1569398400000,
    underlyingSubType: ['PoW'],
    liquidationFee: '0.012500',
    marketTakeBound: '0.05',
    startPrice: 97000,
    annualVol: 0.55,
    marketLoading: 0.85,
    baseVolumePerMinute: 150,
    brackets: buildBrackets(BRACKETS_125),
  },
  {
    symbol: 'ETHUSDT',
    baseAsset: 'ETH',
    pricePrecision: 2,
    quantityPrecision: 3,
    tickSize: '0.01',
    minPrice: '39.86',
    maxPrice: '306177',
    stepSize: '0.001',
    minQty: '0.001',
    maxQty: '10000',
    marketMaxQty: '2000',
    minNotional: '20',
    maxLeverage: 125,
    onboardDate: 1569398400000,
    underlyingSubType: ['Layer-1'],
    liquidationFee: '0.012500',
    marketTakeBound: '0.05',
    startPrice: 3400,
    annualVol: 0.7,
    marketLoading: 0.8,
    baseVolumePerMinute: 2000,
    brackets: buildBrackets(BRACKETS_125, 0.5),
  },
  {
    symbol: 'BNBUSDT',
    baseAsset: 'BNB',
    pricePrecision: 3,
    quantityPrecision: 2,
    tickSize: '0.010',
    minPrice: '6.600',
    maxPrice: '100000',
    stepSize: '0.01',
    minQty: '0.01',
    maxQty: '100000',
    marketMaxQty: '2000',
    minNotional: '5',
    maxLeverage: 75,
    onboardDate: 1581292800000,
    underlyingSubType: ['CEX'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
    startPrice: 690,
    annualVol: 0.55,
    marketLoading: 0.65,
    baseVolumePerMinute: 500,
    brackets: buildBrackets(BRACKETS_75, 2),
  },
  {
    symbol: 'SOLUSDT',
    baseAsset: 'SOL',
    pricePrecision: 4,
    quantityPrecision: 2,
    tickSize: '0.0100',
    minPrice: '0.4200',
    maxPrice: '6857',
    stepSize: '0.01',
    minQty: '0.01',
    maxQty: '1000000',
    marketMaxQty: '5000',
    minNotional: '5',
    maxLeverage: 100,
    onboardDate: 1600300800000,
    underlyingSubType: ['Layer-1'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
    startPrice: 200,
    annualVol: 0.9,
    marketLoading: 0.7,
    baseVolumePerMinute: 20000,
    brackets: buildBrackets(BRACKETS_100),
  },
  {
    symbol: 'XRPUSDT',
    baseAsset: 'XRP',
    pricePrecision: 4,
    quantityPrecision: 1,
    tickSize: '0.0001',
    minPrice: '0.0143',
    maxPrice: '100000',
    stepSize: '0.1',
    minQty: '0.1',
    maxQty: '10000000',
    marketMaxQty: '2000000',
    minNotional: '5',
    maxLeverage: 75,
    onboardDate: 1578787200000,
    underlyingSubType: ['Payment'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
    startPrice: 2.4,
    annualVol: 0.85,
    marketLoading: 0.65,
    baseVolumePerMinute: 700000,
    brackets: buildBrackets(BRACKETS_75, 2),
  },
  {
    symbol: 'DOGEUSDT',
    baseAsset: 'DOGE',
    pricePrecision: 6,
    quantityPrecision: 0,
    tickSize: '0.000010',
    minPrice: '0.002440',
    maxPrice: '30',
    stepSize: '1',
    minQty: '1',
    maxQty: '50000000',
    marketMaxQty: '30000000',
    minNotional: '5',
    maxLeverage: 75,
    onboardDate: 1594771200000,
    underlyingSubType: ['Meme'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
    startPrice: 0.36,
    annualVol: 1.0,
    marketLoading: 0.65,
    baseVolumePerMinute: 3500000,
    brackets: buildBrackets(BRACKETS_75, 2),
  },
  {
    symbol: 'ADAUSDT',
    baseAsset: 'ADA',
    pricePrecision: 5,
    quantityPrecision: 0,
    tickSize: '0.00010',
    minPrice: '0.01740',
    maxPrice: '2000',
    stepSize: '1',
    minQty: '1',
    maxQty: '10000000',
    marketMaxQty: '3000000',
    minNotional: '5',
    maxLeverage: 75,
    onboardDate: 1580083200000,
    underlyingSubType: ['Layer-1'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
    startPrice: 1.0,
    annualVol: 0.85,
    marketLoading: 0.65,
    baseVolumePerMinute: 400000,
    brackets: buildBrackets(BRACKETS_75),
  },
  {
    symbol: 'LINKUSDT',
    baseAsset: 'LINK',
    pricePrecision: 3,
    quantityPrecision: 2,
    tickSize: '0.001',
    minPrice: '0.460',
    maxPrice: '200000',
    stepSize: '0.01',
    minQty: '0.01',
    maxQty: '500000',
    marketMaxQty: '20000',
    minNotional: '5',
    maxLeverage: 75,
    onboardDate: 1578268800000,
    underlyingSubType: ['Infrastructure'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
    startPrice: 23,
    annualVol: 0.9,
    marketLoading: 0.65,
    baseVolumePerMinute: 14000,
    brackets: buildBrackets(BRACKETS_75),
  },
];

const BY_NAME = new Map(SYMBOLS.map((spec) => [spec.symbol, spec]));

export function findSymbol(symbol: string): SymbolSpec | undefined {
  return BY_NAME.get(symbol);
}

export const SYMBOL_NAMES: readonly string[] = SYMBOLS.map((spec) => spec.symbol);

export const ORDER_TYPES = [
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
] as const;

export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'] as const;

/** Maker and taker commission rates of the default (VIP 0) fee tier. */
export const MAKER_FEE_RATE = '0.0002';
export const TAKER_FEE_RATE = '0.0005';

export type SymbolStatus =
  'TRADING' | 'PENDING_TRADING' | 'PRE_DELIVERING' | 'DELIVERING' | 'DELIVERED' | 'SETTLING' | 'CLOSE';

/** One entry of exchangeInfo.symbols, exactly the fields and value types of DM:Exchange_Information. */
export function exchangeInfoSymbol(spec: SymbolSpec, status: SymbolStatus): Record<string, unknown> {
  return {
    symbol: spec.symbol,
    pair: spec.symbol,
    contractType: 'PERPETUAL',
    deliveryDate: 4133404800000,
    onboardDate: spec.onboardDate,
    status,
    maintMarginPercent: '2.5000',
    requiredMarginPercent: '5.0000',
    baseAsset: spec.baseAsset,
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    pricePrecision: spec.pricePrecision,
    quantityPrecision: spec.quantityPrecision,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    underlyingSubType: spec.underlyingSubType,
    settlePlan: 0,
    triggerProtect: '0.0500',
    liquidationFee: spec.liquidationFee,
    marketTakeBound: spec.marketTakeBound,
    maxMoveOrderLimit: 10000,
    filters: [
      {
        filterType: 'PRICE_FILTER',
        minPrice: spec.minPrice,
        maxPrice: spec.maxPrice,
        tickSize: spec.tickSize,
      },
      { filterType: 'LOT_SIZE', minQty: spec.minQty, maxQty: spec.maxQty, stepSize: spec.stepSize },
      {
        filterType: 'MARKET_LOT_SIZE',
        minQty: spec.minQty,
        maxQty: spec.marketMaxQty,
        stepSize: spec.stepSize,
      },
      { filterType: 'MAX_NUM_ORDERS', limit: 200 },
      { filterType: 'MIN_NOTIONAL', notional: spec.minNotional },
      { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: 4 },
    ],
    orderTypes: [...ORDER_TYPES],
    timeInForce: [...TIME_IN_FORCE],
  };
}

/** Bracket that applies to a position of this absolute notional (USDT). */
export function bracketFor(spec: SymbolSpec, absNotional: InstanceType<typeof D>): LeverageBracket {
  for (const bracket of spec.brackets) {
    if (absNotional.lessThan(bracket.notionalCap)) return bracket;
  }
  const last = spec.brackets[spec.brackets.length - 1];
  if (!last) throw new Error(`no leverage brackets for ${spec.symbol}`);
  return last;
}

/** Largest position notional allowed at this leverage: the cap of the last bracket that still allows it. */
export function maxNotionalForLeverage(spec: SymbolSpec, leverage: number): number {
  let cap = 0;
  for (const bracket of spec.brackets) {
    if (bracket.initialLeverage >= leverage) cap = bracket.notionalCap;
  }
  return cap;
}
