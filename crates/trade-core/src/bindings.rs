//! The wasm-bindgen surface: thin conversions between JavaScript values and the pure modules, nothing
//! else. Typed, documented wrappers live in src/lib/trade-core.ts; call those, not these.
//!
//! Conventions: decimals cross as strings (the wrapper turns numbers into their shortest round-trip text
//! with `String(n)`); series cross as `Float64Array`; secrets cross as owned strings or byte vectors that
//! are zeroised here after use. Every error is thrown as a JavaScript `Error` with `code` = the
//! [`CoreError`] variant name and `name` = `TradeCoreError`.

use rust_decimal::Decimal;
use wasm_bindgen::prelude::*;
use zeroize::Zeroize;

use crate::correlation;
use crate::error::CoreError;
use crate::order_math::{self as om, Direction, Rounding};
use crate::signing;
use crate::vault::{self, KdfParams};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Error)]
    type JsErrorObject;
    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new(message: &str) -> JsErrorObject;
    #[wasm_bindgen(method, setter = code)]
    fn set_code(this: &JsErrorObject, code: &str);
    #[wasm_bindgen(method, setter = name)]
    fn set_name(this: &JsErrorObject, name: &str);
}

fn js_error(error: CoreError) -> JsValue {
    let object = JsErrorObject::new(&error.to_string());
    object.set_code(error.code());
    object.set_name("TradeCoreError");
    object.into()
}

type JsResult<T> = Result<T, JsValue>;

/// Overwrites secrets that JavaScript handed over (PINs, user keys, plaintexts) before their memory is freed.
fn wipe<const N: usize>(secrets: [&mut String; N]) {
    for secret in secrets {
        secret.zeroize();
    }
}

fn text(bytes: &[u8]) -> JsResult<String> {
    String::from_utf8(bytes.to_vec()).map_err(|_| js_error(CoreError::malformed("plaintext is not UTF-8")))
}

fn dec(value: &str) -> JsResult<Decimal> {
    om::parse_decimal(value).map_err(js_error)
}

fn direction(value: &str) -> JsResult<Direction> {
    Direction::parse(value).map_err(js_error)
}

fn out(result: Result<Decimal, CoreError>) -> JsResult<String> {
    result.map(om::format_decimal).map_err(js_error)
}

fn out_places(result: Result<Decimal, CoreError>, places: u32) -> JsResult<String> {
    result.map(|v| om::format_places(v, places)).map_err(js_error)
}

/// Seals with the default Argon2id cost (m = 19456 KiB, t = 2, p = 1).
#[wasm_bindgen(js_name = sealToken)]
pub fn seal_token(
    mut plaintext: String, mut pin: String, platform_uuid: &str, mut user_key: String,
) -> JsResult<String> {
    let result = vault::seal(plaintext.as_bytes(), pin.as_bytes(), platform_uuid, user_key.as_bytes());
    wipe([&mut plaintext, &mut pin, &mut user_key]);
    result.map_err(js_error)
}

/// Seals with explicit Argon2id parameters (raising the cost later, or fast tests).
#[wasm_bindgen(js_name = sealTokenWithParams)]
pub fn seal_token_with_params(
    mut plaintext: String, mut pin: String, platform_uuid: &str, mut user_key: String, memory_kib: u32,
    iterations: u32, parallelism: u32,
) -> JsResult<String> {
    let params = KdfParams { memory_kib, iterations, parallelism };
    let result = vault::seal_with_params(
        plaintext.as_bytes(),
        pin.as_bytes(),
        platform_uuid,
        user_key.as_bytes(),
        params,
    );
    wipe([&mut plaintext, &mut pin, &mut user_key]);
    result.map_err(js_error)
}

#[wasm_bindgen(js_name = openToken)]
pub fn open_token(
    envelope: &str, mut pin: String, platform_uuid: &str, mut user_key: String,
) -> JsResult<String> {
    let result = vault::open(envelope, pin.as_bytes(), platform_uuid, user_key.as_bytes());
    wipe([&mut pin, &mut user_key]);
    text(&result.map_err(js_error)?)
}

#[wasm_bindgen(js_name = rekeyToken)]
pub fn rekey_token(
    envelope: &str, mut old_pin: String, mut new_pin: String, platform_uuid: &str, mut user_key: String,
) -> JsResult<String> {
    let result =
        vault::rekey(envelope, old_pin.as_bytes(), new_pin.as_bytes(), platform_uuid, user_key.as_bytes());
    wipe([&mut old_pin, &mut new_pin, &mut user_key]);
    result.map_err(js_error)
}

/// A derived key kept inside wasm memory; `close()` (or `free()`) zeroises it.
#[wasm_bindgen]
pub struct VaultHandle {
    inner: Option<vault::Unlocked>,
}

#[wasm_bindgen]
impl VaultHandle {
    fn unlocked(&self) -> JsResult<&vault::Unlocked> {
        self.inner.as_ref().ok_or_else(|| js_error(CoreError::HandleClosed))
    }

    pub fn open(&self) -> JsResult<String> {
        text(&self.unlocked()?.open().map_err(js_error)?)
    }

    pub fn reseal(&mut self, mut plaintext: String) -> JsResult<String> {
        let unlocked = self.inner.as_mut().ok_or_else(|| js_error(CoreError::HandleClosed))?;
        let result = unlocked.reseal(plaintext.as_bytes());
        plaintext.zeroize();
        result.map_err(js_error)
    }

    pub fn envelope(&self) -> JsResult<String> {
        Ok(self.unlocked()?.envelope())
    }

    /// Drops the key now (its memory is zeroised); later calls fail with `HandleClosed`.
    pub fn close(&mut self) {
        self.inner = None;
    }
}

#[wasm_bindgen(js_name = unlockToken)]
pub fn unlock_token(
    envelope: &str, mut pin: String, platform_uuid: &str, mut user_key: String,
) -> JsResult<VaultHandle> {
    let result = vault::unlock(envelope, pin.as_bytes(), platform_uuid, user_key.as_bytes());
    wipe([&mut pin, &mut user_key]);
    Ok(VaultHandle { inner: Some(result.map_err(js_error)?) })
}

/// Raw Argon2id (version 0x13), with the optional secret and associated data of RFC 9106.
#[wasm_bindgen(js_name = argon2idHash)]
#[allow(clippy::too_many_arguments)]
pub fn argon2id_hash(
    password: &[u8], salt: &[u8], secret: &[u8], data: &[u8], memory_kib: u32, iterations: u32,
    parallelism: u32, out_len: u32,
) -> JsResult<Vec<u8>> {
    vault::argon2id_raw(
        password,
        salt,
        secret,
        data,
        KdfParams { memory_kib, iterations, parallelism },
        out_len as usize,
    )
    .map_err(js_error)
}

/// Raw HKDF-SHA256 (RFC 5869); an empty salt means "no salt".
#[wasm_bindgen(js_name = hkdfSha256)]
pub fn hkdf_sha256(ikm: &[u8], salt: &[u8], info: &[u8], out_len: u32) -> JsResult<Vec<u8>> {
    vault::hkdf_raw(ikm, salt, info, out_len as usize).map_err(js_error)
}

/// Raw AES-256-GCM encryption; returns ciphertext ‖ 16-byte tag.
#[wasm_bindgen(js_name = aes256GcmEncrypt)]
pub fn aes256_gcm_encrypt(key: &[u8], nonce: &[u8], plaintext: &[u8], aad: &[u8]) -> JsResult<Vec<u8>> {
    vault::aes256gcm_raw(key, nonce, plaintext, aad).map_err(js_error)
}

fn pairs(flat: &[String]) -> JsResult<Vec<(&str, &str)>> {
    if !flat.len().is_multiple_of(2) {
        return Err(js_error(CoreError::invalid("parameters must be [name, value] pairs")));
    }
    Ok(flat.chunks_exact(2).map(|p| (p[0].as_str(), p[1].as_str())).collect())
}

fn timestamp(ms: f64) -> JsResult<u64> {
    if ms.is_finite() && ms >= 0.0 && ms.fract() == 0.0 && ms <= 9_007_199_254_740_991.0 {
        Ok(ms as u64)
    } else {
        Err(js_error(CoreError::invalid("timestamp must be a non-negative integer of milliseconds")))
    }
}

#[wasm_bindgen(js_name = hmacSha256Hex)]
pub fn hmac_sha256_hex(mut secret: String, payload: &str) -> String {
    let signature = signing::hmac_sha256_hex(secret.as_bytes(), payload.as_bytes());
    secret.zeroize();
    signature
}

#[wasm_bindgen(js_name = hmacSha256HexBytes)]
pub fn hmac_sha256_hex_bytes(mut key: Vec<u8>, data: &[u8]) -> String {
    let signature = signing::hmac_sha256_hex(&key, data);
    key.zeroize();
    signature
}

/// Unsigned `params…&recvWindow=…&timestamp=…` (params as a flat [name, value, name, value…] list).
#[wasm_bindgen(js_name = buildQuery)]
pub fn build_query(params: Vec<String>, timestamp_ms: f64, recv_window_ms: Option<u32>) -> JsResult<String> {
    signing::build_query(&pairs(&params)?, timestamp(timestamp_ms)?, recv_window_ms).map_err(js_error)
}

#[wasm_bindgen]
pub struct HmacSigner {
    inner: signing::HmacSigner,
}

#[wasm_bindgen]
impl HmacSigner {
    #[wasm_bindgen(constructor)]
    pub fn new(mut secret: String) -> HmacSigner {
        let inner = signing::HmacSigner::new(secret.as_bytes());
        secret.zeroize();
        HmacSigner { inner }
    }

    pub fn sign(&self, query: &str, body: &str) -> String {
        self.inner.sign(query, body)
    }

    #[wasm_bindgen(js_name = signBytes)]
    pub fn sign_bytes(&self, data: &[u8]) -> String {
        signing::to_hex(&self.inner.mac(&[data]))
    }

    #[wasm_bindgen(js_name = signedQuery)]
    pub fn signed_query(
        &self, params: Vec<String>, timestamp_ms: f64, recv_window_ms: Option<u32>,
    ) -> JsResult<String> {
        self.inner.signed_query(&pairs(&params)?, timestamp(timestamp_ms)?, recv_window_ms).map_err(js_error)
    }
}

#[wasm_bindgen]
pub struct Ed25519Signer {
    inner: signing::Ed25519Signer,
}

#[wasm_bindgen]
impl Ed25519Signer {
    /// `pkcs8`: PEM (`-----BEGIN PRIVATE KEY-----`) or base64 of the DER.
    #[wasm_bindgen(constructor)]
    pub fn new(mut pkcs8: String) -> JsResult<Ed25519Signer> {
        let result = signing::Ed25519Signer::from_pkcs8(&pkcs8);
        pkcs8.zeroize();
        Ok(Ed25519Signer { inner: result.map_err(js_error)? })
    }

    pub fn sign(&self, message: &[u8]) -> String {
        self.inner.sign(message)
    }

    #[wasm_bindgen(js_name = signText)]
    pub fn sign_text(&self, message: &str) -> String {
        self.inner.sign(message.as_bytes())
    }

    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> String {
        self.inner.public_key()
    }

    #[wasm_bindgen(js_name = signedQuery)]
    pub fn signed_query(
        &self, params: Vec<String>, timestamp_ms: f64, recv_window_ms: Option<u32>,
    ) -> JsResult<String> {
        self.inner.signed_query(&pairs(&params)?, timestamp(timestamp_ms)?, recv_window_ms).map_err(js_error)
    }
}

#[wasm_bindgen(js_name = orderQuantity)]
pub fn order_quantity(
    margin: &str, leverage: &str, entry_price: &str, quantity_precision: u32,
) -> JsResult<String> {
    let q = om::order_quantity(dec(margin)?, dec(leverage)?, dec(entry_price)?, quantity_precision);
    out_places(q, quantity_precision)
}

#[wasm_bindgen(js_name = stopPrice)]
pub fn stop_price(
    side: &str, entry_price: &str, stop_loss_percent: &str, leverage: &str, price_precision: u32,
) -> JsResult<String> {
    let p = om::stop_price(
        direction(side)?,
        dec(entry_price)?,
        dec(stop_loss_percent)?,
        dec(leverage)?,
        price_precision,
    );
    out_places(p, price_precision)
}

#[wasm_bindgen(js_name = takeProfitPrice)]
pub fn take_profit_price(
    side: &str, entry_price: &str, take_profit_percent: &str, leverage: &str, price_precision: u32,
) -> JsResult<String> {
    let p = om::take_profit_price(
        direction(side)?,
        dec(entry_price)?,
        dec(take_profit_percent)?,
        dec(leverage)?,
        price_precision,
    );
    out_places(p, price_precision)
}

#[wasm_bindgen(js_name = trailingActivationPrice)]
pub fn trailing_activation_price(
    side: &str, entry_price: &str, trailing_percent: &str, leverage: &str, price_precision: u32,
) -> JsResult<String> {
    let p = om::trailing_activation_price(
        direction(side)?,
        dec(entry_price)?,
        dec(trailing_percent)?,
        dec(leverage)?,
        price_precision,
    );
    out_places(p, price_precision)
}

#[wasm_bindgen(js_name = trailingCallbackRate)]
pub fn trailing_callback_rate(trailing_percent: &str, leverage: &str) -> JsResult<String> {
    out_places(om::trailing_callback_rate(dec(trailing_percent)?, dec(leverage)?), 1)
}

/// A binding that parses every argument as a decimal, calls the order-math function and writes the
/// unrounded result as canonical text.
macro_rules! decimal_binding {
    ($js:literal, $name:ident($($arg:ident),+) => $call:expr) => {
        #[wasm_bindgen(js_name = $js)]
        pub fn $name($($arg: &str),+) -> JsResult<String> {
            $(let $arg = dec($arg)?;)+
            out($call)
        }
    };
}

decimal_binding!("roePercent", roe_percent(pnl, initial_margin) => om::roe_percent(pnl, initial_margin));
decimal_binding!("notional", notional(quantity, price) => om::notional(quantity, price));
decimal_binding!("initialMargin", initial_margin(quantity, price, leverage) =>
    om::initial_margin(quantity, price, leverage));
decimal_binding!("possibleLoss", possible_loss(margin, trailing_stop_percent) =>
    om::possible_loss(margin, trailing_stop_percent));
decimal_binding!("addDecimals", add_decimals(a, b) => om::sum(&[a, b]));
decimal_binding!("subDecimals", sub_decimals(a, b) =>
    a.checked_sub(b).ok_or_else(|| CoreError::Overflow("difference is out of range".into())));
decimal_binding!("mulDecimals", mul_decimals(a, b) =>
    a.checked_mul(b).ok_or_else(|| CoreError::Overflow("product is out of range".into())));

#[wasm_bindgen(js_name = unrealizedPnl)]
pub fn unrealized_pnl(
    side: &str, quantity: &str, entry_price: &str, current_price: &str,
) -> JsResult<String> {
    out(om::unrealized_pnl(direction(side)?, dec(quantity)?, dec(entry_price)?, dec(current_price)?))
}

#[wasm_bindgen(js_name = liquidationPrice)]
pub fn liquidation_price(
    side: &str, quantity: &str, entry_price: &str, wallet_balance: &str, maint_margin_rate: &str,
    maint_amount: &str, price_precision: u32,
) -> JsResult<String> {
    let p = om::liquidation_price(
        direction(side)?,
        dec(quantity)?,
        dec(entry_price)?,
        dec(wallet_balance)?,
        dec(maint_margin_rate)?,
        dec(maint_amount)?,
        price_precision,
    );
    out_places(p, price_precision)
}

#[wasm_bindgen(js_name = roundDecimal)]
pub fn round_decimal(value: &str, places: u32, mode: &str) -> JsResult<String> {
    let mode = Rounding::parse(mode).map_err(js_error)?;
    out_places(om::round(dec(value)?, places, mode), places)
}

#[wasm_bindgen(js_name = divDecimals)]
pub fn div_decimals(a: &str, b: &str, places: u32, mode: &str) -> JsResult<String> {
    let mode = Rounding::parse(mode).map_err(js_error)?;
    out_places(om::div_round(dec(a)?, dec(b)?, places, mode), places)
}

/// −1, 0 or 1 as `a` is less than, equal to or greater than `b`.
#[wasm_bindgen(js_name = compareDecimals)]
pub fn compare_decimals(a: &str, b: &str) -> JsResult<i32> {
    Ok(dec(a)?.cmp(&dec(b)?) as i32)
}

#[wasm_bindgen(js_name = sumDecimals)]
pub fn sum_decimals(values: Vec<String>) -> JsResult<String> {
    let parsed = values.iter().map(|v| dec(v)).collect::<JsResult<Vec<_>>>()?;
    out(om::sum(&parsed))
}

#[wasm_bindgen]
pub fn pearson(x: &[f64], y: &[f64]) -> JsResult<f64> {
    correlation::pearson(x, y).map_err(js_error)
}

/// Flat answer: `[lag, corr_buy, corr_sell]` per lag (ascending), then `[lag_buy.max_corr,
/// lag_buy.lag_at_max_corr, lag_sell.max_corr, lag_sell.lag_at_max_corr]`.
#[wasm_bindgen(js_name = lagScan)]
pub fn lag_scan(buy: &[f64], sell: &[f64], price: &[f64], max_lag: u32) -> JsResult<Vec<f64>> {
    let scan = correlation::lag_scan(buy, sell, price, max_lag).map_err(js_error)?;
    let mut flat = Vec::with_capacity(scan.lag_price_list.len() * 3 + 4);
    for point in &scan.lag_price_list {
        flat.extend_from_slice(&[f64::from(point.lag), point.corr_buy, point.corr_sell]);
    }
    flat.extend_from_slice(&[
        scan.lag_buy.max_corr,
        f64::from(scan.lag_buy.lag_at_max_corr),
        scan.lag_sell.max_corr,
        f64::from(scan.lag_sell.lag_at_max_corr),
    ]);
    Ok(flat)
}
