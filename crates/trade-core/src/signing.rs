//! Request signing for Binance USDⓈ-M SIGNED endpoints (SPEC.md §7 "Exchange futures calls",
//! shared/references/binance-fapi.md §2).
//!
//! HMAC keys: `signature` = lower-case hex HMAC-SHA256 keyed with the API secret over `totalParams`, the raw
//! query string immediately followed by the raw request body (no separator). Ed25519 keys (which Binance
//! recommends over HMAC keys): the same payload signed with the PKCS#8 private key, signature in standard
//! base64, percent-encoded when placed in the query. Either way `signature` is the last parameter.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ed25519_dalek::pkcs8::DecodePrivateKey;
use ed25519_dalek::{Signer as _, SigningKey};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::error::{CoreError, CoreResult};

type HmacSha256 = Hmac<Sha256>;

/// Binance rejects a recvWindow above 60000 ms (binance-fapi.md §2).
pub const MAX_RECV_WINDOW_MS: u32 = 60_000;
/// Parameters the query builder adds itself, so callers may not pass them.
const RESERVED_PARAMS: [&str; 3] = ["signature", "timestamp", "recvWindow"];

/// HMAC-SHA256 signer built once per API secret. The key schedule (the inner and outer padded-key hash
/// states) is computed in [`HmacSigner::new`] and cloned for each signature, so signing a request hashes
/// only the payload.
#[derive(Clone)]
pub struct HmacSigner {
    keyed: HmacSha256,
}

impl HmacSigner {
    /// A signer for `secret` (any length; HMAC hashes keys longer than 64 bytes first).
    pub fn new(secret: &[u8]) -> Self {
        // `Hmac` accepts keys of every length, so this cannot fail; the fallback keeps the function total.
        let keyed =
            HmacSha256::new_from_slice(secret).unwrap_or_else(|_| HmacSha256::new(&Default::default()));
        HmacSigner { keyed }
    }

    /// Raw 32-byte HMAC-SHA256 over the concatenation of `parts`.
    pub fn mac(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut mac = self.keyed.clone();
        for part in parts {
            mac.update(part);
        }
        mac.finalize().into_bytes().into()
    }

    /// Lower-case hex signature over `query` followed by `body` (Binance `totalParams`).
    pub fn sign(&self, query: &str, body: &str) -> String {
        to_hex(&self.mac(&[query.as_bytes(), body.as_bytes()]))
    }

    /// [`build_query`] followed by `&signature=<hex>`.
    pub fn signed_query(
        &self, params: &[(&str, &str)], timestamp_ms: u64, recv_window_ms: Option<u32>,
    ) -> CoreResult<String> {
        let mut query = build_query(params, timestamp_ms, recv_window_ms)?;
        let signature = self.sign(&query, "");
        query.push_str("&signature=");
        query.push_str(&signature);
        Ok(query)
    }
}

/// One-shot lower-case hex HMAC-SHA256 of `payload` under `secret`.
pub fn hmac_sha256_hex(secret: &[u8], payload: &[u8]) -> String {
    to_hex(&HmacSigner::new(secret).mac(&[payload]))
}

/// Ed25519 signer for a Binance Ed25519 API key, built once from its PKCS#8 private key.
pub struct Ed25519Signer {
    key: SigningKey,
}

impl Ed25519Signer {
    /// Reads a PKCS#8 private key given as PEM (`-----BEGIN PRIVATE KEY-----`) or as base64 of the DER.
    pub fn from_pkcs8(text: &str) -> CoreResult<Self> {
        let text = text.trim();
        let key = if text.starts_with("-----BEGIN") {
            SigningKey::from_pkcs8_pem(text).map_err(|e| CoreError::InvalidKey(format!("PKCS#8 PEM: {e}")))?
        } else {
            let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
            let der = STANDARD
                .decode(compact)
                .map_err(|_| CoreError::InvalidKey("neither PEM nor base64 DER".into()))?;
            SigningKey::from_pkcs8_der(&der).map_err(|e| CoreError::InvalidKey(format!("PKCS#8 DER: {e}")))?
        };
        Ok(Ed25519Signer { key })
    }

    /// Raw 64-byte signature.
    pub fn sign_raw(&self, message: &[u8]) -> [u8; 64] {
        self.key.sign(message).to_bytes()
    }

    /// Standard base64 signature, as Binance expects before URL-encoding.
    pub fn sign(&self, message: &[u8]) -> String {
        STANDARD.encode(self.sign_raw(message))
    }

    /// The 32-byte public key in standard base64 (what is registered with the exchange).
    pub fn public_key(&self) -> String {
        STANDARD.encode(self.key.verifying_key().to_bytes())
    }

    /// [`build_query`] followed by `&signature=<percent-encoded base64>`.
    pub fn signed_query(
        &self, params: &[(&str, &str)], timestamp_ms: u64, recv_window_ms: Option<u32>,
    ) -> CoreResult<String> {
        let mut query = build_query(params, timestamp_ms, recv_window_ms)?;
        let signature = self.sign(query.as_bytes());
        query.push_str("&signature=");
        percent_encode_into(&signature, &mut query);
        Ok(query)
    }
}

/// Builds `k1=v1&k2=v2…&recvWindow=<ms>&timestamp=<ms>` from ordered parameters, the order of Binance's
/// own signed example. Keys and values are percent-encoded (RFC 3986: everything but `A–Z a–z 0–9 - . _ ~`
/// as `%XX` of its UTF-8 bytes), so the signed text is exactly the text sent. `recvWindow` is omitted when
/// `None`.
pub fn build_query(
    params: &[(&str, &str)], timestamp_ms: u64, recv_window_ms: Option<u32>,
) -> CoreResult<String> {
    let mut query =
        String::with_capacity(64 + params.iter().map(|(k, v)| k.len() + v.len() + 2).sum::<usize>());
    for (key, value) in params {
        if key.is_empty() {
            return Err(CoreError::invalid("query parameter name must not be empty"));
        }
        if RESERVED_PARAMS.contains(key) {
            return Err(CoreError::invalid(format!("'{key}' is added by the signer; do not pass it")));
        }
        percent_encode_into(key, &mut query);
        query.push('=');
        percent_encode_into(value, &mut query);
        query.push('&');
    }
    if let Some(window) = recv_window_ms {
        if window == 0 || window > MAX_RECV_WINDOW_MS {
            return Err(CoreError::invalid(format!(
                "recvWindow {window} ms outside 1..={MAX_RECV_WINDOW_MS}"
            )));
        }
        query.push_str("recvWindow=");
        query.push_str(&window.to_string());
        query.push('&');
    }
    query.push_str("timestamp=");
    query.push_str(&timestamp_ms.to_string());
    Ok(query)
}

/// Appends `text` percent-encoded (RFC 3986 unreserved characters kept, upper-case hex otherwise).
pub fn percent_encode_into(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0x0f)] as char);
        }
    }
}

/// Lower-case hex, as Binance prints signatures.
pub fn to_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 0x0f)] as char);
    }
    out
}
