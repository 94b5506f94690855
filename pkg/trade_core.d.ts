/* tslint:disable */
/* eslint-disable */

export class Ed25519Signer {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * `pkcs8`: PEM (`-----BEGIN PRIVATE KEY-----`) or base64 of the DER.
     */
    constructor(pkcs8: string);
    publicKey(): string;
    signText(message: string): string;
    sign(message: Uint8Array): string;
    signedQuery(params: string[], timestamp_ms: number, recv_window_ms?: number | null): string;
}

export class HmacSigner {
    free(): void;
    [Symbol.dispose](): void;
    constructor(secret: string);
    signBytes(data: Uint8Array): string;
    sign(query: string, body: string): string;
    signedQuery(params: string[], timestamp_ms: number, recv_window_ms?: number | null): string;
}

/**
 * A derived key kept inside wasm memory; `close()` (or `free()`) zeroises it.
 */
export class VaultHandle {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Drops the key now (its memory is zeroised); later calls fail with `HandleClosed`.
     */
    close(): void;
    envelope(): string;
    open(): string;
    reseal(plaintext: string): string;
}

export function addDecimals(a: string, b: string): string;

/**
 * Raw AES-256-GCM encryption; returns ciphertext ‖ 16-byte tag.
 */
export function aes256GcmEncrypt(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array;

/**
 * Raw Argon2id (version 0x13), with the optional secret and associated data of RFC 9106.
 */
export function argon2idHash(password: Uint8Array, salt: Uint8Array, secret: Uint8Array, data: Uint8Array, memory_kib: number, iterations: number, parallelism: number, out_len: number): Uint8Array;

/**
 * Unsigned `params…&recvWindow=…&timestamp=…` (params as a flat [name, value, name, value…] list).
 */
export function buildQuery(params: string[], timestamp_ms: number, recv_window_ms?: number | null): string;

/**
 * −1, 0 or 1 as `a` is less than, equal to or greater than `b`.
 */
export function compareDecimals(a: string, b: string): number;

export function divDecimals(a: string, b: string, places: number, mode: string): string;

/**
 * Raw HKDF-SHA256 (RFC 5869); an empty salt means "no salt".
 */
export function hkdfSha256(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, out_len: number): Uint8Array;

export function hmacSha256Hex(secret: string, payload: string): string;

export function hmacSha256HexBytes(key: Uint8Array, data: Uint8Array): string;

export function initialMargin(quantity: string, price: string, leverage: string): string;

/**
 * Flat answer: `[lag, corr_buy, corr_sell]` per lag (ascending), then `[lag_buy.max_corr,
 * lag_buy.lag_at_max_corr, lag_sell.max_corr, lag_sell.lag_at_max_corr]`.
 */
export function lagScan(buy: Float64Array, sell: Float64Array, price: Float64Array, max_lag: number): Float64Array;

export function liquidationPrice(side: string, quantity: string, entry_price: string, wallet_balance: string, maint_margin_rate: string, maint_amount: string, price_precision: number): string;

export function mulDecimals(a: string, b: string): string;

export function notional(quantity: string, price: string): string;

export function openToken(envelope: string, pin: string, platform_uuid: string, user_key: string): string;

export function orderQuantity(margin: string, leverage: string, entry_price: string, quantity_precision: number): string;

export function pearson(x: Float64Array, y: Float64Array): number;

export function possibleLoss(margin: string, trailing_stop_percent: string): string;

export function rekeyToken(envelope: string, old_pin: string, new_pin: string, platform_uuid: string, user_key: string): string;

export function roePercent(pnl: string, initial_margin: string): string;

export function roundDecimal(value: string, places: number, mode: string): string;

/**
 * Seals with the default Argon2id cost (m = 19456 KiB, t = 2, p = 1).
 */
export function sealToken(plaintext: string, pin: string, platform_uuid: string, user_key: string): string;

/**
 * Seals with explicit Argon2id parameters (raising the cost later, or fast tests).
 */
export function sealTokenWithParams(plaintext: string, pin: string, platform_uuid: string, user_key: string, memory_kib: number, iterations: number, parallelism: number): string;

export function stopPrice(side: string, entry_price: string, stop_loss_percent: string, leverage: string, price_precision: number): string;

export function subDecimals(a: string, b: string): string;

export function sumDecimals(values: string[]): string;

export function takeProfitPrice(side: string, entry_price: string, take_profit_percent: string, leverage: string, price_precision: number): string;

export function trailingActivationPrice(side: string, entry_price: string, trailing_percent: string, leverage: string, price_precision: number): string;

export function trailingCallbackRate(trailing_percent: string, leverage: string): string;

export function unlockToken(envelope: string, pin: string, platform_uuid: string, user_key: string): VaultHandle;

export function unrealizedPnl(side: string, quantity: string, entry_price: string, current_price: string): string;
