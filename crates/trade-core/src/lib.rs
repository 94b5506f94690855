//! trade-core: everything in Signaldesk that must be exact or secret, computed once (DESIGN.md "The parts").
//!
//! - [`vault`]: the encrypted trade-token envelope (Argon2id + HKDF-SHA256 + AES-256-GCM).
//! - [`signing`]: Binance request signing (HMAC-SHA256 hex, Ed25519 base64) and the signed query builder.
//! - [`order_math`]: order quantity, stop price, PNL, ROE, notional, margins, liquidation price in exact
//!   decimals.
//! - [`correlation`]: Pearson correlation and the lagged scan of the analysis screen.
//!
//! The modules are plain Rust (tested and benchmarked natively); `bindings` is the only place that knows
//! about wasm-bindgen, and [`error::CoreError`] is the one error type.

pub mod bindings;
pub mod correlation;
pub mod error;
pub mod order_math;
pub mod signing;
pub mod vault;

pub use error::{CoreError, CoreResult};
