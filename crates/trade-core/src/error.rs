//! The one error type of trade-core.
//!
//! Every fallible function returns [`CoreError`]. In JavaScript (see `bindings.rs`) each error becomes an
//! `Error` whose `code` property is the variant name returned by [`CoreError::code`] and whose `message`
//! is the [`Display`](fmt::Display) text. The codes are a stable API: callers branch on them (for example,
//! `WrongPin` sets the trade token level to WRONG_PIN_CODE, SPEC.md §4), so a variant is never renamed.

use core::fmt;

/// Why a trade-core call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    /// The token envelope was well formed but did not authenticate. The usual cause is a wrong PIN, but a
    /// wrong `platform_uuid`, a wrong `user_trade_token_key` or an envelope altered after sealing give the
    /// same answer: AES-GCM cannot tell them apart, and telling them apart would help an attacker.
    WrongPin,
    /// The token envelope could not be parsed: wrong number of fields, unknown version or KDF, bad
    /// base64url, wrong salt or nonce length, or KDF parameters outside the accepted range.
    Malformed(String),
    /// A decimal input was not a finite decimal number (empty, `NaN`, `Infinity`, stray characters), or it
    /// needs more than 28 decimal places or 96 bits of mantissa.
    InvalidDecimal(String),
    /// An argument was outside its domain: a non-positive price, an unknown direction, mismatched series
    /// lengths, a reserved query parameter, and so on. The message names the argument.
    InvalidArgument(String),
    /// An exact decimal result does not fit rust_decimal's range (about ±7.9 × 10²⁸).
    Overflow(String),
    /// A signing key could not be read: a PKCS#8 document that does not hold an Ed25519 key, or bad
    /// PEM or base64 around it.
    InvalidKey(String),
    /// The platform's cryptographically secure random number generator failed.
    RandomUnavailable,
    /// The key derivation could not run, in practice because the Argon2 memory could not be allocated.
    KdfFailed(String),
    /// A vault handle was used after it was closed (its key has been zeroised).
    HandleClosed,
}

impl CoreError {
    /// The stable code that JavaScript sees as `error.code`: exactly the variant name.
    pub fn code(&self) -> &'static str {
        match self {
            CoreError::WrongPin => "WrongPin",
            CoreError::Malformed(_) => "Malformed",
            CoreError::InvalidDecimal(_) => "InvalidDecimal",
            CoreError::InvalidArgument(_) => "InvalidArgument",
            CoreError::Overflow(_) => "Overflow",
            CoreError::InvalidKey(_) => "InvalidKey",
            CoreError::RandomUnavailable => "RandomUnavailable",
            CoreError::KdfFailed(_) => "KdfFailed",
            CoreError::HandleClosed => "HandleClosed",
        }
    }

    pub(crate) fn malformed(msg: impl Into<String>) -> Self {
        CoreError::Malformed(msg.into())
    }

    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        CoreError::InvalidArgument(msg.into())
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::WrongPin => f.write_str(
                "the trade token could not be decrypted: wrong PIN code (or wrong user key or platform)",
            ),
            CoreError::Malformed(m) => write!(f, "malformed trade token envelope: {m}"),
            CoreError::InvalidDecimal(m) => write!(f, "invalid decimal: {m}"),
            CoreError::InvalidArgument(m) => write!(f, "invalid argument: {m}"),
            CoreError::Overflow(m) => write!(f, "decimal overflow: {m}"),
            CoreError::InvalidKey(m) => write!(f, "invalid signing key: {m}"),
            CoreError::RandomUnavailable => f.write_str("the secure random number generator is unavailable"),
            CoreError::KdfFailed(m) => write!(f, "key derivation failed: {m}"),
            CoreError::HandleClosed => f.write_str("the vault handle has been closed"),
        }
    }
}

impl std::error::Error for CoreError {}

/// Shorthand used by every module.
pub type CoreResult<T> = Result<T, CoreError>;
