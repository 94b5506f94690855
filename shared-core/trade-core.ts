// The typed face of trade-core (crates/trade-core → pkg/): the one implementation of the token vault,
// request signing, exact order math and correlation (DESIGN.md "The parts"). This is the only SPA file that
// imports pkg/; shared-core/trade-core-node.ts loads the same pkg/ in Node and re-exports these functions, so
// browser and server compute identical numbers. Every function throws before initTradeCore() has run, and
// every trade-core failure is an Error whose `code` is one of TradeCoreErrorCode.
import type * as Raw from '../pkg/trade_core.js';

/** The wasm-bindgen module of pkg/ (both loaders hand it to bindTradeCore). */
export type TradeCoreModule = typeof Raw;
/** A decimal as text ("0.1", "-12.50"). Results are always text, never binary floats. */
export type DecimalText = string;
/** A decimal input: text, or a JS number taken as its shortest round-trip text (0.1 stays 0.1). */
export type DecimalInput = string | number;
type D = DecimalInput;
export type Direction = 'BUY' | 'SELL';
/** Rounding to a number of places; see crates/trade-core/README.md. */
export type RoundingMode = 'half-away-from-zero' | 'half-even' | 'toward-zero';
/** Error codes: the CoreError variants (crates/trade-core/README.md) plus NotInitialised from this file. */
export type TradeCoreErrorCode =
  VaultErrorCode | MathErrorCode | 'InvalidKey' | 'RandomUnavailable' | 'NotInitialised';
type VaultErrorCode = 'WrongPin' | 'Malformed' | 'KdfFailed' | 'HandleClosed';
type MathErrorCode = 'InvalidDecimal' | 'InvalidArgument' | 'Overflow';
export type TradeCoreError = Error & { code: TradeCoreErrorCode };

let raw: TradeCoreModule | null = null;

function coded(code: TradeCoreErrorCode, message: string): TradeCoreError {
  return Object.assign(new Error(message), { name: 'TradeCoreError', code });
}

function core(): TradeCoreModule {
  if (raw === null)
    throw coded('NotInitialised', 'trade-core is not initialised: call initTradeCore() first');
  return raw;
}

/** Makes `module` the implementation behind every function here (the loaders call it once). */
export function bindTradeCore(module: TradeCoreModule): void {
  raw = module;
}

export function isTradeCoreReady(): boolean {
  return raw !== null;
}

/** Loads pkg/ in the browser (vite-plugin-wasm instantiates the .wasm). Safe to call more than once. */
export async function initTradeCore(): Promise<void> {
  if (raw === null) bindTradeCore(await import('../pkg/trade_core.js'));
}

/** True when `error` came from trade-core (optionally: with this code). */
export function isTradeCoreError(error: unknown, code?: TradeCoreErrorCode): error is TradeCoreError {
  const found = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof found === 'string' && (code === undefined || found === code);
}

const text = (value: DecimalInput): string => String(value);
const bytes = (value: string | Uint8Array): Uint8Array =>
  typeof value === 'string' ? new TextEncoder().encode(value) : value;

// ------------------------------------------------------------------------------------------- vault
/** Argon2id cost written into an envelope: memory in KiB, passes, lanes. */
export type KdfParams = { memoryKib: number; iterations: number; parallelism: number };
/** OWASP's Argon2id recommendation, the default of sealToken: 19 MiB, 2 passes, 1 lane. */
export const DEFAULT_KDF_PARAMS: Readonly<KdfParams> = { memoryKib: 19456, iterations: 2, parallelism: 1 };
/** What an envelope is bound to (SPEC.md §3): the PIN, the platform_uuid, the user's user_trade_token_key. */
export type VaultSecrets = [pin: string, platformUuid: string, userTradeTokenKey: string];

/** Encrypts a trade token into the versioned envelope text. Runs Argon2id once (about 20–60 ms). */
export function sealToken(
  plaintext: string,
  ...[pin, platform, key, params]: [...VaultSecrets, KdfParams?]
): string {
  if (params === undefined) return core().sealToken(plaintext, pin, platform, key);
  const { memoryKib: m, iterations: t, parallelism: p } = params;
  return core().sealTokenWithParams(plaintext, pin, platform, key, m, t, p);
}

/** Decrypts an envelope. Throws code `WrongPin` (wrong PIN, platform or user key) or `Malformed`. */
export const openToken = (envelope: string, ...secrets: VaultSecrets): string =>
  core().openToken(envelope, ...secrets);

/** Re-encrypts under a new PIN with fresh salt, nonce and the default cost (SPEC.md §2 "Change PIN Code"). */
export const rekeyToken = (
  envelope: string,
  oldPin: string,
  ...[newPin, platform, key]: VaultSecrets
): string => core().rekeyToken(envelope, oldPin, newPin, platform, key);

/** An unlocked envelope: its key stays in wasm memory until free(), so open() costs no KDF run. */
export interface VaultHandle {
  /** The plaintext of the handle's current envelope. */
  open(): string;
  /** Encrypts new content under the same key (fresh nonce); the result becomes the handle's envelope. */
  reseal(plaintext: string): string;
  /** The envelope text the handle currently opens. */
  readonly envelope: string;
  readonly closed: boolean;
  /** Zeroises the key; later calls throw code `HandleClosed`. */
  free(): void;
}

/** Runs the KDF once and checks the PIN; throws like openToken. */
export function unlockVault(envelope: string, ...secrets: VaultSecrets): VaultHandle {
  let handle: Raw.VaultHandle | null = core().unlockToken(envelope, ...secrets);
  const live = (): Raw.VaultHandle => {
    if (handle === null) throw coded('HandleClosed', 'the vault handle has been closed');
    return handle;
  };
  return {
    open: () => live().open(),
    reseal: (plaintext) => live().reseal(plaintext),
    get envelope() {
      return live().envelope();
    },
    get closed() {
      return handle === null;
    },
    free() {
      handle?.close();
      handle?.free();
      handle = null;
    },
  };
}

// ----------------------------------------------------------------------------------------- signing

/** Ordered query parameters; values are sent as String(value). */
export type QueryParams = ReadonlyArray<readonly [string, string | number | boolean]>;
/** timestamp: ms since the epoch; recvWindow: ms, 1–60000 (Binance), omitted when undefined. */
export type QueryTiming = { timestamp: number; recvWindow?: number };

const flat = (params: QueryParams): string[] => params.flatMap(([name, value]) => [name, String(value)]);

/** `name=value&…&recvWindow=…&timestamp=…`, percent-encoded (RFC 3986), unsigned. */
export function buildQuery(params: QueryParams, timing: QueryTiming): string {
  return core().buildQuery(flat(params), timing.timestamp, timing.recvWindow);
}

/** Lower-case hex HMAC-SHA256 over `query` followed by `body` (Binance totalParams, no separator). */
export const hmacSign = (secret: string, query: string, body = ''): string =>
  core().hmacSha256Hex(secret, query + body);

/** A signer that keeps one API key's prepared state in wasm memory; free() releases it. */
export interface Signer {
  /** Signature of `query` + `body`: lower-case hex (HMAC) or standard base64 (Ed25519). */
  sign(query: string, body?: string): string;
  /** buildQuery(…) + `&signature=…` (percent-encoded), the signature last. */
  signedQuery(params: QueryParams, timing: QueryTiming): string;
  free(): void;
}

/** HMAC-SHA256 signer for an API secret; the key schedule is computed once. */
export function createSigner(secret: string): Signer {
  const signer = new (core().HmacSigner)(secret);
  return {
    sign: (query, body = '') => signer.sign(query, body),
    signedQuery: (params, timing) => signer.signedQuery(flat(params), timing.timestamp, timing.recvWindow),
    free: () => signer.free(),
  };
}

/** Ed25519 signer for a PKCS#8 private key (PEM or base64 DER); `publicKey` is base64 of the raw 32 bytes. */
export function createEd25519Signer(pkcs8: string): Signer & { readonly publicKey: string } {
  const signer = new (core().Ed25519Signer)(pkcs8);
  return {
    sign: (query, body = '') => signer.signText(query + body),
    signedQuery: (params, timing) => signer.signedQuery(flat(params), timing.timestamp, timing.recvWindow),
    publicKey: signer.publicKey(),
    free: () => signer.free(),
  };
}

/** One-shot HMAC signed query: the official Binance example is buildSignedQuery(params, {secret, …}). */
export function buildSignedQuery(params: QueryParams, timing: QueryTiming & { secret: string }): string {
  const signer = createSigner(timing.secret);
  try {
    return signer.signedQuery(params, timing);
  } finally {
    signer.free();
  }
}

/** Standard base64 Ed25519 signature of `message` (text is UTF-8 encoded). */
export function ed25519Sign(pkcs8: string, message: string | Uint8Array): string {
  const signer = new (core().Ed25519Signer)(pkcs8);
  try {
    return signer.sign(bytes(message));
  } finally {
    signer.free();
  }
}

// -------------------------------------------------------------------------------------- order math
// Units: prices in USDT per base unit, margins / PNL / notional in USDT, quantities in base units,
// percents as percents (5 = 5 %), rates as fractions (0.005 = 0.5 %), precisions as decimal places.

export type OrderSize = { margin: D; leverage: D; entryPrice: D; quantityPrecision: number };
export type StopLoss = {
  direction: Direction;
  entryPrice: D;
  stopLossPercent: D;
  leverage: D;
  pricePrecision: number;
};
export type Position = { direction: Direction; quantity: D; entryPrice: D; currentPrice: D };
/** walletBalance: isolated wallet (USDT); maintMarginRate: fraction; maintAmount: the bracket's cum (USDT). */
export type Liquidation = Omit<Position, 'currentPrice'> & {
  walletBalance: D;
  maintMarginRate: D;
  maintAmount: D;
  pricePrecision: number;
};

/** SPEC.md §5: margin × leverage ÷ entry price, rounded toward zero to the quantity precision. */
export const orderQuantity = (o: OrderSize): DecimalText =>
  core().orderQuantity(text(o.margin), text(o.leverage), text(o.entryPrice), o.quantityPrecision);
/** SPEC.md §5: entry × (100 ∓ stop-loss % ÷ leverage) ÷ 100 (− for BUY), rounded half away from zero. */
export const stopPrice = (o: StopLoss): DecimalText =>
  core().stopPrice(
    o.direction,
    text(o.entryPrice),
    text(o.stopLossPercent),
    text(o.leverage),
    o.pricePrecision,
  );
/**
 * Issue 35, the exits held by the exchange: the take profit's trigger price, the first tick at which the trade
 * monitor's TAKE_PROFIT fires (its ROE, rounded to 2 decimals, at the take-profit %).
 */
export const takeProfitPrice = (o: {
  direction: Direction;
  entryPrice: D;
  takeProfitPercent: D;
  leverage: D;
  pricePrecision: number;
}): DecimalText =>
  core().takeProfitPrice(
    o.direction,
    text(o.entryPrice),
    text(o.takeProfitPercent),
    text(o.leverage),
    o.pricePrecision,
  );
/** The trailing stop's activatePrice: the first tick at which the monitor's trailing level rises above −SL %. */
export const trailingActivationPrice = (o: {
  direction: Direction;
  entryPrice: D;
  trailingPercent: D;
  leverage: D;
  pricePrecision: number;
}): DecimalText =>
  core().trailingActivationPrice(
    o.direction,
    text(o.entryPrice),
    text(o.trailingPercent),
    text(o.leverage),
    o.pricePrecision,
  );
/** The exchange's callbackRate: trailing % ÷ leverage to one decimal (the caller checks Binance's 0.1–10). */
export const trailingCallbackRate = (trailingPercent: D, leverage: D): DecimalText =>
  core().trailingCallbackRate(text(trailingPercent), text(leverage));
/** Unrealized PNL (USDT) = quantity × (current − entry), negated for SELL. Exact. */
export const unrealizedPnl = (o: Position): DecimalText =>
  core().unrealizedPnl(o.direction, text(o.quantity), text(o.entryPrice), text(o.currentPrice));
/** ROE in percent = PNL ÷ initial margin × 100 (28 significant digits). */
export const roePercent = (pnl: D, initialMargin: D): DecimalText =>
  core().roePercent(text(pnl), text(initialMargin));
/** Notional (USDT) = |quantity| × price. Exact. */
export const notional = (quantity: D, price: D): DecimalText => core().notional(text(quantity), text(price));
/** Initial margin (USDT) = |quantity| × price ÷ leverage (28 significant digits). */
export const initialMargin = (quantity: D, price: D, leverage: D): DecimalText =>
  core().initialMargin(text(quantity), text(price), text(leverage));
/** Possible loss (USDT) = margin × trailing-stop % × 0.01 (SPEC.md §3). Exact. */
export const possibleLoss = (margin: D, trailingStopPercent: D): DecimalText =>
  core().possibleLoss(text(margin), text(trailingStopPercent));
/** Isolated one-way liquidation price (binance-fapi.md §12), rounded half away from zero; 0 if none. */
export const liquidationPrice = (o: Liquidation): DecimalText =>
  core().liquidationPrice(
    o.direction,
    text(o.quantity),
    text(o.entryPrice),
    text(o.walletBalance),
    text(o.maintMarginRate),
    text(o.maintAmount),
    o.pricePrecision,
  );

/** `value` with exactly `places` decimals (1.005 → "1.01"; mode defaults to half away from zero). */
export const roundDecimal = (
  value: D,
  places: number,
  mode: RoundingMode = 'half-away-from-zero',
): DecimalText => core().roundDecimal(text(value), places, mode);
export const addDecimals = (a: D, b: D): DecimalText => core().addDecimals(text(a), text(b));
export const subDecimals = (a: D, b: D): DecimalText => core().subDecimals(text(a), text(b));
export const mulDecimals = (a: D, b: D): DecimalText => core().mulDecimals(text(a), text(b));
/** a ÷ b rounded exactly to `places` decimals. */
export const divDecimals = (
  a: D,
  b: D,
  places: number,
  mode: RoundingMode = 'half-away-from-zero',
): DecimalText => core().divDecimals(text(a), text(b), places, mode);
/** −1, 0 or 1 as a <, = or > b. */
export const compareDecimals = (a: D, b: D): -1 | 0 | 1 =>
  core().compareDecimals(text(a), text(b)) as -1 | 0 | 1;
/** Exact sum (current_pnl, possible_loss, realized PNL: SPEC.md §3); "0" for an empty list. */
export const sumDecimals = (values: readonly D[]): DecimalText => core().sumDecimals(values.map(text));

// ------------------------------------------------------------------------------------- correlation

/** SPEC.md §3 analysis result, wire names. */
export type LagMax = { max_corr: number; lag_at_max_corr: number };
export interface AnalysisResult {
  lag_price_list: { lag: number; corr_buy: number; corr_sell: number }[];
  lag_buy: LagMax;
  lag_sell: LagMax;
}
type Series = Float64Array | readonly number[];
const f64 = (s: Series): Float64Array => (s instanceof Float64Array ? s : Float64Array.from(s));

/** Pearson correlation; 0 for fewer than 2 points or zero variance; code InvalidArgument on mismatch. */
export const pearson = (x: Series, y: Series): number => core().pearson(f64(x), f64(y));

/**
 * Correlation of buy and sell signal series with the price series at lags −maxLag…maxLag (lag k pairs the
 * signal at t with the price at t + k), and the greatest correlation of each with its lag.
 */
export function lagScan(buy: Series, sell: Series, price: Series, maxLag: number): AnalysisResult {
  const out = core().lagScan(f64(buy), f64(sell), f64(price), maxLag);
  const rows = (out.length - 4) / 3;
  const lag_price_list = Array.from({ length: rows }, (_, i) => ({
    lag: out[3 * i] ?? 0,
    corr_buy: out[3 * i + 1] ?? 0,
    corr_sell: out[3 * i + 2] ?? 0,
  }));
  const at = (i: number) => out[3 * rows + i] ?? 0;
  return {
    lag_price_list,
    lag_buy: { max_corr: at(0), lag_at_max_corr: at(1) },
    lag_sell: { max_corr: at(2), lag_at_max_corr: at(3) },
  };
}
