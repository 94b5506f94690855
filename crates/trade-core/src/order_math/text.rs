//! Decimal text in and out of [`Decimal`]: the parser accepts exactly what JavaScript prints for a number
//! (and plain decimal text), the formatters write plain text without exponent. Both are exact: a value that
//! does not fit is an error, never silently rounded.

use rust_decimal::Decimal;

use super::MAX_PLACES;
use crate::error::{CoreError, CoreResult};

/// Decimal digits accumulated in a u64 while they fit (wasm multiplies 64-bit integers natively; a
/// 128-bit multiply is a library call), in a u128 beyond that.
#[derive(Default)]
struct Digits {
    small: u64,
    wide: Option<u128>,
}

impl Digits {
    fn push(&mut self, digit: u8) -> Option<()> {
        match self.wide {
            None if self.small < 1_000_000_000_000_000_000 => self.small = self.small * 10 + u64::from(digit),
            _ => {
                let wide = self.wide.unwrap_or(u128::from(self.small));
                if wide >= 1 << 100 {
                    return None;
                }
                self.wide = Some(wide * 10 + u128::from(digit));
            }
        }
        Some(())
    }

    fn is_zero(&self) -> bool {
        self.small == 0 && self.wide.is_none()
    }

    fn value(&self) -> u128 {
        self.wide.unwrap_or(u128::from(self.small))
    }
}

/// Parses a finite decimal: optional sign, digits with an optional point, optional exponent (`1e-7`,
/// `1e+21`: how JavaScript prints very small and very large numbers). Surrounding whitespace is ignored.
/// Exact or an error: a value needing more than 28 decimal places or 96 bits of mantissa is rejected,
/// never rounded.
pub fn parse_decimal(text: &str) -> CoreResult<Decimal> {
    let bad = |why: &str| CoreError::InvalidDecimal(format!("'{}' {why}", truncate_for_message(text)));
    let s = text.trim().as_bytes();
    let (negative, s) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa_part, exponent) = match s.iter().position(|&b| b == b'e' || b == b'E') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mut mantissa = Digits::default();
    let mut scale: i64 = 0;
    let mut digits = 0usize;
    // Zeros after the last non-zero digit, applied only when another non-zero digit follows, so that
    // trailing zeros ("1.50000…") never count against the mantissa.
    let mut pending_zeros: i64 = 0;
    let mut seen_point = false;
    for &b in mantissa_part {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                if seen_point {
                    scale += 1;
                }
                if b == b'0' {
                    if !mantissa.is_zero() {
                        pending_zeros += 1;
                    }
                    continue;
                }
                for _ in 0..pending_zeros {
                    mantissa.push(0).ok_or_else(|| bad("has more than 29 significant digits"))?;
                }
                mantissa.push(b - b'0').ok_or_else(|| bad("has more than 29 significant digits"))?;
                pending_zeros = 0;
            }
            b'.' if !seen_point => seen_point = true,
            _ => return Err(bad("is not a decimal number")),
        }
    }
    scale -= pending_zeros;
    let mut mantissa = mantissa.value();
    if digits == 0 {
        return Err(bad("is not a decimal number"));
    }
    if let Some(exp) = exponent {
        let (exp_negative, exp_digits) = match exp.first() {
            Some(b'-') => (true, &exp[1..]),
            Some(b'+') => (false, &exp[1..]),
            _ => (false, exp),
        };
        if exp_digits.is_empty() || exp_digits.len() > 4 || !exp_digits.iter().all(u8::is_ascii_digit) {
            return Err(bad("has a bad exponent"));
        }
        let e = exp_digits.iter().fold(0i64, |acc, &b| acc * 10 + i64::from(b - b'0'));
        scale += if exp_negative { e } else { -e };
    }
    if mantissa == 0 {
        return Ok(Decimal::ZERO);
    }
    if scale > i64::from(MAX_PLACES) {
        return Err(bad("needs more than 28 decimal places"));
    }
    while scale < 0 {
        mantissa =
            mantissa.checked_mul(10).filter(|m| *m < (1u128 << 96)).ok_or_else(|| bad("is out of range"))?;
        scale += 1;
    }
    let signed = i128::try_from(mantissa).map_err(|_| bad("is out of range"))?;
    let signed = if negative { -signed } else { signed };
    Decimal::try_from_i128_with_scale(signed, scale as u32).map_err(|_| bad("is out of range"))
}

fn truncate_for_message(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Canonical text of an unrounded result: no trailing zeros, no exponent, never `-0`.
pub fn format_decimal(value: Decimal) -> String {
    to_text(value, true)
}

/// Text with exactly `places` decimals (for rounded results: `0.100` for a quantity at precision 3).
pub fn format_places(value: Decimal, places: u32) -> String {
    let mut v = value;
    v.rescale(places);
    to_text(v, false)
}

/// Writes mantissa and scale as plain decimal text, optionally without trailing fraction zeros. Done by
/// hand because it is on every call's path: 64-bit digit loops instead of the formatting machinery and
/// 96-bit divisions of `Decimal`'s `Display`.
fn to_text(value: Decimal, trim_zeros: bool) -> String {
    const TEN_POW_19: u128 = 10_000_000_000_000_000_000;
    let mut rest = value.mantissa().unsigned_abs();
    let mut scale = value.scale() as usize;
    let mut digits = [b'0'; 48]; // least significant first
    let mut len = 0;
    if rest >> 64 != 0 {
        let mut low = (rest % TEN_POW_19) as u64;
        rest /= TEN_POW_19;
        for digit in digits.iter_mut().take(19) {
            *digit = b'0' + (low % 10) as u8;
            low /= 10;
        }
        len = 19;
    }
    let mut high = rest as u64;
    while high != 0 {
        digits[len] = b'0' + (high % 10) as u8;
        high /= 10;
        len += 1;
    }
    let mut skip = 0;
    if trim_zeros {
        while skip < scale && digits[skip] == b'0' {
            skip += 1;
        }
        scale -= skip;
    }
    let len = len.max(skip + scale + 1);
    let mut out = String::with_capacity(len + 2);
    if value.mantissa() < 0 && digits[skip..len].iter().any(|&d| d != b'0') {
        out.push('-');
    }
    for i in (skip..len).rev() {
        out.push(digits[i] as char);
        if i == skip + scale && scale > 0 {
            out.push('.');
        }
    }
    out
}
