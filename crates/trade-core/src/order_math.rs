//! Order math in exact decimals: order size and stop price (SPEC.md §5), PNL, ROE, notional, initial
//! margin, possible loss (SPEC.md §3 "Trade store") and the isolated one-way liquidation price
//! (shared/references/binance-fapi.md §12).
//!
//! Inputs are decimal strings (JavaScript numbers reach us as their shortest round-trip text, so `0.1`
//! stays 0.1). Sums, differences and products are exact. Quotients that are rounded to a number of places
//! ([`div_round`]: quantity, stop price, liquidation price) are exact too: the rounding is decided on the
//! integer remainder, never on a truncated quotient. Unrounded quotients (ROE %, initial margin) carry 28
//! significant digits.
//!
//! Rounding modes, named once here:
//! - [`QUANTITY_ROUNDING`] = [`Rounding::TowardZero`]: an order never costs more than margin × leverage,
//!   so it never fails for insufficient margin because of rounding (ccxt truncates to the step size too).
//! - [`PRICE_ROUNDING`] = [`Rounding::HalfAwayFromZero`]: the stop price is the nearest tick, halves away
//!   from zero (commercial rounding, what a trader expects from "rounded to the price precision").

use rust_decimal::{Decimal, RoundingStrategy};

use crate::error::{CoreError, CoreResult};

mod text;
pub use text::{format_decimal, format_places, parse_decimal};

/// How a value is rounded to a number of decimal places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Nearest; a tie goes away from zero (1.005 → 1.01, −1.005 → −1.01).
    HalfAwayFromZero,
    /// Nearest; a tie goes to the even neighbour (banker's rounding: 0.125 → 0.12).
    HalfEven,
    /// Truncate: drop the extra digits (0.0129 → 0.012, −0.0129 → −0.012).
    TowardZero,
}

impl Rounding {
    /// Parses the names used across the JavaScript boundary.
    pub fn parse(name: &str) -> CoreResult<Self> {
        match name {
            "half-away-from-zero" => Ok(Rounding::HalfAwayFromZero),
            "half-even" => Ok(Rounding::HalfEven),
            "toward-zero" => Ok(Rounding::TowardZero),
            _ => Err(CoreError::invalid(format!(
                "rounding '{name}' is not one of half-away-from-zero, half-even, toward-zero"
            ))),
        }
    }

    fn strategy(self) -> RoundingStrategy {
        match self {
            Rounding::HalfAwayFromZero => RoundingStrategy::MidpointAwayFromZero,
            Rounding::HalfEven => RoundingStrategy::MidpointNearestEven,
            Rounding::TowardZero => RoundingStrategy::ToZero,
        }
    }
}

/// Rounding of order quantities (see the module docs).
pub const QUANTITY_ROUNDING: Rounding = Rounding::TowardZero;
/// Rounding of prices (see the module docs).
pub const PRICE_ROUNDING: Rounding = Rounding::HalfAwayFromZero;
/// Most decimal places a result can have (rust_decimal's scale limit).
pub const MAX_PLACES: u32 = 28;

/// Trade direction (SPEC.md §3 trade_direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Buy,
    Sell,
}

impl Direction {
    /// `BUY` or `SELL` (the lower-case forms of the history screen are accepted too).
    pub fn parse(text: &str) -> CoreResult<Self> {
        match text {
            "BUY" | "buy" => Ok(Direction::Buy),
            "SELL" | "sell" => Ok(Direction::Sell),
            _ => Err(CoreError::invalid(format!("direction '{text}' is neither BUY nor SELL"))),
        }
    }

    fn sign(self) -> Decimal {
        match self {
            Direction::Buy => Decimal::ONE,
            Direction::Sell => Decimal::NEGATIVE_ONE,
        }
    }
}

fn check_places(places: u32) -> CoreResult<()> {
    if places > MAX_PLACES {
        return Err(CoreError::invalid(format!("places {places} exceeds {MAX_PLACES}")));
    }
    Ok(())
}

fn overflow(what: &str) -> CoreError {
    CoreError::Overflow(format!("{what} is out of range"))
}

fn positive(value: Decimal, name: &str) -> CoreResult<Decimal> {
    if value > Decimal::ZERO {
        Ok(value)
    } else {
        Err(CoreError::invalid(format!("{name} must be greater than 0")))
    }
}

fn mul(a: Decimal, b: Decimal, what: &str) -> CoreResult<Decimal> {
    a.checked_mul(b).ok_or_else(|| overflow(what))
}

/// Rounds `value` to `places` decimals.
pub fn round(value: Decimal, places: u32, mode: Rounding) -> CoreResult<Decimal> {
    check_places(places)?;
    Ok(value.round_dp_with_strategy(places, mode.strategy()))
}

/// `num ÷ den` rounded to `places` decimals, decided exactly: with num = a·10⁻ˢᵃ and den = b·10⁻ˢᵇ the
/// result is round(a·10^(sb+places−sa) ÷ b) in 128-bit integers, the tie checked on the remainder. Only
/// when those integers would overflow does it fall back to a 28-significant-digit quotient.
pub fn div_round(num: Decimal, den: Decimal, places: u32, mode: Rounding) -> CoreResult<Decimal> {
    check_places(places)?;
    if den.is_zero() {
        return Err(CoreError::invalid("division by zero"));
    }
    let exp = i64::from(den.scale()) + i64::from(places) - i64::from(num.scale());
    let scaled = if exp >= 0 {
        scale_up(num.mantissa(), exp).map(|n| (n, den.mantissa()))
    } else {
        scale_up(den.mantissa(), -exp).map(|d| (num.mantissa(), d))
    };
    let Some((n, d)) = scaled else {
        let quotient = num.checked_div(den).ok_or_else(|| overflow("quotient"))?;
        return round(quotient, places, mode);
    };
    // 64-bit division when the operands allow it: wasm has it natively, 128-bit division is a libcall.
    let (q, r) = match (i64::try_from(n), i64::try_from(d)) {
        (Ok(n64), Ok(d64)) if d64 != -1 => (i128::from(n64 / d64), i128::from(n64 % d64)),
        _ => (n / d, n % d),
    };
    let (r_abs, d_abs) = (r.unsigned_abs(), d.unsigned_abs());
    let away = match mode {
        Rounding::TowardZero => false,
        Rounding::HalfAwayFromZero => r_abs >= d_abs - r_abs,
        Rounding::HalfEven => r_abs > d_abs - r_abs || (r_abs == d_abs - r_abs && q % 2 != 0),
    };
    let negative = (n < 0) != (d < 0);
    let q = if away && r != 0 {
        if negative {
            q - 1
        } else {
            q + 1
        }
    } else {
        q
    };
    Decimal::try_from_i128_with_scale(q, places).map_err(|_| overflow("quotient"))
}

/// m × 10^e, None on overflow. Small operands (the usual prices and margins) multiply in 64 bits.
fn scale_up(m: i128, e: i64) -> Option<i128> {
    const POW10: [i64; 19] = {
        let mut table = [1i64; 19];
        let mut i = 1;
        while i < 19 {
            table[i] = table[i - 1] * 10;
            i += 1;
        }
        table
    };
    let e = usize::try_from(e).ok()?;
    match (i64::try_from(m), POW10.get(e)) {
        (Ok(small), Some(&p)) if small.unsigned_abs() < 1 << 31 && p < 1 << 31 => Some(i128::from(small * p)),
        _ => 10i128.checked_pow(u32::try_from(e).ok()?)?.checked_mul(m),
    }
}

/// Order quantity = margin × leverage ÷ entry price, rounded toward zero to the symbol's quantity
/// precision (SPEC.md §5 "Order size"). Units: margin in quote currency (USDT), price in USDT per base
/// unit, result in base units. May be zero when the margin buys less than one step; the exchange then
/// answers -4003 (SPEC.md §8).
pub fn order_quantity(
    margin: Decimal, leverage: Decimal, entry_price: Decimal, quantity_precision: u32,
) -> CoreResult<Decimal> {
    positive(margin, "margin")?;
    positive(leverage, "leverage")?;
    positive(entry_price, "entry price")?;
    div_round(mul(margin, leverage, "margin × leverage")?, entry_price, quantity_precision, QUANTITY_ROUNDING)
}

/// Stop price (SPEC.md §5): BUY entry × (100 − stop-loss % ÷ leverage) ÷ 100, SELL entry × (100 +
/// stop-loss % ÷ leverage) ÷ 100, rounded half away from zero to the price precision. Computed as
/// entry × (100·leverage ∓ sl) ÷ (100·leverage) so that sl ÷ leverage is never rounded on its own.
/// A BUY whose stop-loss % ÷ leverage reaches 100 would have a stop at or below zero: `InvalidArgument`.
pub fn stop_price(
    direction: Direction, entry_price: Decimal, stop_loss_percent: Decimal, leverage: Decimal,
    price_precision: u32,
) -> CoreResult<Decimal> {
    positive(entry_price, "entry price")?;
    positive(leverage, "leverage")?;
    if stop_loss_percent < Decimal::ZERO {
        return Err(CoreError::invalid("stop-loss percent must not be negative"));
    }
    let hundred_lev = mul(Decimal::ONE_HUNDRED, leverage, "100 × leverage")?;
    let factor = match direction {
        Direction::Buy => hundred_lev.checked_sub(stop_loss_percent),
        Direction::Sell => hundred_lev.checked_add(stop_loss_percent),
    }
    .ok_or_else(|| overflow("stop factor"))?;
    if factor <= Decimal::ZERO {
        return Err(CoreError::invalid("stop-loss percent ÷ leverage must be below 100 for a BUY"));
    }
    div_round(mul(entry_price, factor, "entry × factor")?, hundred_lev, price_precision, PRICE_ROUNDING)
}

/// Entry × (100·leverage ± roe) ÷ (100·leverage): the price at which the trade's ROE is `roe` percent
/// (+ for BUY), rounded to `price_precision` by `mode`; with the remainder of the division, to tell an exact
/// quotient. `InvalidArgument` when the price would be at or below zero.
fn price_at_roe(
    direction: Direction, entry_price: Decimal, roe: Decimal, leverage: Decimal, price_precision: u32,
    mode: Rounding,
) -> CoreResult<(Decimal, bool)> {
    positive(entry_price, "entry price")?;
    positive(leverage, "leverage")?;
    let hundred_lev = mul(Decimal::ONE_HUNDRED, leverage, "100 × leverage")?;
    let factor = hundred_lev
        .checked_add(mul(roe, direction.sign(), "roe")?)
        .ok_or_else(|| overflow("price factor"))?;
    if factor <= Decimal::ZERO {
        return Err(CoreError::invalid("the price at that ROE would be at or below zero"));
    }
    let num = mul(entry_price, factor, "entry × factor")?;
    let price = div_round(num, hundred_lev, price_precision, mode)?;
    let exact = mul(price, hundred_lev, "price × 100 × leverage")? == num;
    Ok((price, exact))
}

/// The monitor compares ROE rounded to 2 decimals, half away from zero (server/src/services/trade-math.ts):
/// a threshold of t percent is met from an exact ROE of t − 0.005 on.
const MONITOR_ROE_HALF_STEP: Decimal = Decimal::from_parts(5, 0, 0, false, 3);

/// The first tick at which the trade's exact ROE reaches `roe` percent: for a BUY the lowest tick at or above
/// entry × (100·leverage + roe) ÷ (100·leverage), for a SELL the highest at or below entry × (100·leverage −
/// roe) ÷ (100·leverage).
fn first_tick_at_roe(
    direction: Direction, entry_price: Decimal, roe: Decimal, leverage: Decimal, price_precision: u32,
) -> CoreResult<Decimal> {
    let (truncated, exact) =
        price_at_roe(direction, entry_price, roe, leverage, price_precision, Rounding::TowardZero)?;
    let price = match direction {
        Direction::Buy if !exact => {
            truncated.checked_add(Decimal::new(1, price_precision)).ok_or_else(|| overflow("price"))?
        }
        _ => truncated,
    };
    positive(price, "price")
}

/// The first tick at which the trade monitor's ROE, rounded to 2 decimals, reaches `percent`: BUY at or above,
/// SELL at or below entry × (100·leverage ± (percent − 0.005)) ÷ (100·leverage).
fn first_tick_at_monitor_roe(
    direction: Direction, entry_price: Decimal, percent: Decimal, leverage: Decimal, price_precision: u32,
) -> CoreResult<Decimal> {
    let roe = percent.checked_sub(MONITOR_ROE_HALF_STEP).ok_or_else(|| overflow("roe"))?;
    positive(roe, "percent − 0.005")?;
    first_tick_at_roe(direction, entry_price, roe, leverage, price_precision)
}

/// Take-profit trigger price (issue 35): the first tick at which the trade monitor's TAKE_PROFIT fires
/// (server/src/engine/trade-rules.ts: the 2-decimal ROE at or above the take-profit percent), so the exchange
/// closes where the monitor would.
pub fn take_profit_price(
    direction: Direction, entry_price: Decimal, take_profit_percent: Decimal, leverage: Decimal,
    price_precision: u32,
) -> CoreResult<Decimal> {
    first_tick_at_monitor_roe(direction, entry_price, take_profit_percent, leverage, price_precision)
}

/// Trailing stop activation price (issue 35): the first tick at which the trade monitor's trailing level rises
/// above −stop loss % (trade-math.ts raiseTrailingLevel: once the 2-decimal ROE reaches the trailing percent,
/// the level becomes best ROE − trailing %, at least 0).
pub fn trailing_activation_price(
    direction: Direction, entry_price: Decimal, trailing_percent: Decimal, leverage: Decimal,
    price_precision: u32,
) -> CoreResult<Decimal> {
    first_tick_at_monitor_roe(direction, entry_price, trailing_percent, leverage, price_precision)
}

/// The exchange's trailing callback rate for the monitor's trailing percent (issue 35): the monitor trails by
/// trailing % of ROE, i.e. trailing % ÷ leverage of the entry price; the exchange's callback is a percent of
/// the best price with one decimal (Binance: 0.1 to 10). trailing ÷ leverage, rounded half away from zero to
/// one decimal; the caller checks the exchange's range.
pub fn trailing_callback_rate(trailing_percent: Decimal, leverage: Decimal) -> CoreResult<Decimal> {
    positive(trailing_percent, "trailing percent")?;
    positive(leverage, "leverage")?;
    div_round(trailing_percent, leverage, 1, PRICE_ROUNDING)
}

/// Unrealized PNL in USDT = quantity × (current − entry), negated for SELL (binance-fapi.md §12). Exact.
pub fn unrealized_pnl(
    direction: Direction, quantity: Decimal, entry_price: Decimal, current_price: Decimal,
) -> CoreResult<Decimal> {
    let diff = current_price.checked_sub(entry_price).ok_or_else(|| overflow("price difference"))?;
    mul(mul(quantity.abs(), diff, "PNL")?, direction.sign(), "PNL")
}

/// ROE in percent = PNL ÷ initial margin × 100 (binance-fapi.md §12), 28 significant digits.
pub fn roe_percent(pnl: Decimal, initial_margin: Decimal) -> CoreResult<Decimal> {
    positive(initial_margin, "initial margin")?;
    mul(pnl, Decimal::ONE_HUNDRED, "ROE")?.checked_div(initial_margin).ok_or_else(|| overflow("ROE"))
}

/// Notional in USDT = |quantity| × price. Exact.
pub fn notional(quantity: Decimal, price: Decimal) -> CoreResult<Decimal> {
    mul(quantity.abs(), price, "notional")
}

/// Initial margin in USDT = |quantity| × price ÷ leverage (binance-fapi.md §12), 28 significant digits.
pub fn initial_margin(quantity: Decimal, price: Decimal, leverage: Decimal) -> CoreResult<Decimal> {
    positive(leverage, "leverage")?;
    notional(quantity, price)?.checked_div(leverage).ok_or_else(|| overflow("initial margin"))
}

/// Possible loss in USDT = margin × trailing-stop % × 0.01 (SPEC.md §3 possible_loss). Exact.
pub fn possible_loss(margin: Decimal, trailing_stop_percent: Decimal) -> CoreResult<Decimal> {
    mul(mul(margin, trailing_stop_percent, "possible loss")?, Decimal::new(1, 2), "possible loss")
}

/// Liquidation price of an isolated one-way position (binance-fapi.md §12): long
/// (Q·EP − WB − cum) ÷ (Q·(1 − MMR)), short (Q·EP + WB + cum) ÷ (Q·(1 + MMR)), where Q = |quantity|,
/// WB = isolated wallet balance (USDT), MMR = maintenance margin rate (a fraction, 0.005 = 0.5 %) and
/// cum = maintenance amount (USDT) of the position's bracket. Rounded half away from zero to
/// `price_precision`; a long whose numerator is not positive cannot be liquidated and gives 0.
pub fn liquidation_price(
    direction: Direction, quantity: Decimal, entry_price: Decimal, wallet_balance: Decimal,
    maint_margin_rate: Decimal, maint_amount: Decimal, price_precision: u32,
) -> CoreResult<Decimal> {
    let q = positive(quantity.abs(), "quantity")?;
    positive(entry_price, "entry price")?;
    if wallet_balance.is_sign_negative() || maint_amount.is_sign_negative() {
        return Err(CoreError::invalid("wallet balance and maintenance amount must not be negative"));
    }
    if maint_margin_rate.is_sign_negative() || maint_margin_rate >= Decimal::ONE {
        return Err(CoreError::invalid("maintenance margin rate must be in [0, 1)"));
    }
    let position = mul(q, entry_price, "position value")?;
    let cushion = wallet_balance.checked_add(maint_amount).ok_or_else(|| overflow("wallet + cum"))?;
    let (num, rate) = match direction {
        Direction::Buy => (position.checked_sub(cushion), Decimal::ONE - maint_margin_rate),
        Direction::Sell => (position.checked_add(cushion), Decimal::ONE + maint_margin_rate),
    };
    let num = num.ok_or_else(|| overflow("liquidation numerator"))?;
    if num <= Decimal::ZERO {
        return Ok(Decimal::ZERO);
    }
    div_round(num, mul(q, rate, "Q × (1 ∓ MMR)")?, price_precision, PRICE_ROUNDING)
}

/// Exact sum (for current_pnl, possible_loss and realized PNL totals, SPEC.md §3).
pub fn sum(values: &[Decimal]) -> CoreResult<Decimal> {
    values.iter().try_fold(Decimal::ZERO, |acc, v| acc.checked_add(*v)).ok_or_else(|| overflow("sum"))
}
