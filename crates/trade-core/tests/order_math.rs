//! Order math: the shared decimal table (float traps included) and properties of the rounding.

mod common;

use common::vectors;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::Value;
use trade_core::order_math::{self as om, Direction, Rounding};
use trade_core::{CoreError, CoreResult};

fn arg_str(args: &[Value], i: usize) -> &str {
    args[i].as_str().unwrap_or_else(|| panic!("argument {i} is not a string"))
}

fn arg_u32(args: &[Value], i: usize) -> u32 {
    args[i].as_u64().unwrap_or_else(|| panic!("argument {i} is not a number")) as u32
}

/// Runs one table case the way `bindings.rs` does: parse every argument, call, format. The table's
/// expectations come from exact rational arithmetic, not from this crate.
fn run(fun: &str, args: &[Value]) -> CoreResult<Value> {
    let d = |i: usize| om::parse_decimal(arg_str(args, i));
    let dir = |i: usize| Direction::parse(arg_str(args, i));
    let text = |r: CoreResult<Decimal>| r.map(|v| Value::from(om::format_decimal(v)));
    let fixed = |r: CoreResult<Decimal>, places: u32| r.map(|v| Value::from(om::format_places(v, places)));
    match fun {
        "roundDecimal" => {
            let mode = Rounding::parse(arg_str(args, 2))?;
            fixed(om::round(d(0)?, arg_u32(args, 1), mode), arg_u32(args, 1))
        }
        "addDecimals" => text(om::sum(&[d(0)?, d(1)?])),
        "subDecimals" => text(d(0)?.checked_sub(d(1)?).ok_or(CoreError::Overflow(String::new()))),
        "mulDecimals" => text(d(0)?.checked_mul(d(1)?).ok_or(CoreError::Overflow(String::new()))),
        "divDecimals" => {
            let mode = Rounding::parse(arg_str(args, 3))?;
            fixed(om::div_round(d(0)?, d(1)?, arg_u32(args, 2), mode), arg_u32(args, 2))
        }
        "compareDecimals" => Ok(Value::from(d(0)?.cmp(&d(1)?) as i32)),
        "sumDecimals" => {
            let list = args[0].as_array().unwrap();
            let parsed = list
                .iter()
                .map(|v| om::parse_decimal(v.as_str().unwrap()))
                .collect::<CoreResult<Vec<_>>>()?;
            text(om::sum(&parsed))
        }
        "orderQuantity" => fixed(om::order_quantity(d(0)?, d(1)?, d(2)?, arg_u32(args, 3)), arg_u32(args, 3)),
        "stopPrice" => {
            fixed(om::stop_price(dir(0)?, d(1)?, d(2)?, d(3)?, arg_u32(args, 4)), arg_u32(args, 4))
        }
        "takeProfitPrice" => {
            fixed(om::take_profit_price(dir(0)?, d(1)?, d(2)?, d(3)?, arg_u32(args, 4)), arg_u32(args, 4))
        }
        "trailingActivationPrice" => fixed(
            om::trailing_activation_price(dir(0)?, d(1)?, d(2)?, d(3)?, arg_u32(args, 4)),
            arg_u32(args, 4),
        ),
        "trailingCallbackRate" => fixed(om::trailing_callback_rate(d(0)?, d(1)?), 1),
        "unrealizedPnl" => text(om::unrealized_pnl(dir(0)?, d(1)?, d(2)?, d(3)?)),
        "roePercent" => text(om::roe_percent(d(0)?, d(1)?)),
        "notional" => text(om::notional(d(0)?, d(1)?)),
        "initialMargin" => text(om::initial_margin(d(0)?, d(1)?, d(2)?)),
        "possibleLoss" => text(om::possible_loss(d(0)?, d(1)?)),
        "liquidationPrice" => fixed(
            om::liquidation_price(dir(0)?, d(1)?, d(2)?, d(3)?, d(4)?, d(5)?, arg_u32(args, 6)),
            arg_u32(args, 6),
        ),
        other => panic!("unknown function {other}"),
    }
}

#[test]
fn decimal_table_gives_the_exact_answers() {
    let doc = vectors("order_math.json");
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() > 60);
    for case in cases {
        let fun = case["fn"].as_str().unwrap();
        let got = run(fun, case["args"].as_array().unwrap());
        match (&got, case.get("error")) {
            (Err(e), Some(code)) => assert_eq!(e.code(), code.as_str().unwrap(), "{case}"),
            (Ok(v), None) => assert_eq!(v, &case["expect"], "{case}"),
            _ => panic!("{case}: got {got:?}"),
        }
    }
}

#[test]
fn roe_quotient_is_correct_to_28_significant_digits() {
    let roe = om::roe_percent(Decimal::from(10), Decimal::from(60)).unwrap();
    let exact_times_3 = Decimal::from(50);
    assert!((roe * Decimal::from(3) - exact_times_3).abs() < Decimal::new(1, 25), "{roe}");
}

fn decimal() -> impl Strategy<Value = Decimal> {
    (-10_000_000_000i64..10_000_000_000i64, 0u32..12).prop_map(|(m, s)| Decimal::new(m, s))
}

fn positive_decimal() -> impl Strategy<Value = Decimal> {
    (1i64..10_000_000_000i64, 0u32..10).prop_map(|(m, s)| Decimal::new(m, s))
}

fn mode() -> impl Strategy<Value = Rounding> {
    prop_oneof![Just(Rounding::HalfAwayFromZero), Just(Rounding::HalfEven), Just(Rounding::TowardZero)]
}

fn half_unit(places: u32) -> Decimal {
    Decimal::new(5, places + 1)
}

fn unit(places: u32) -> Decimal {
    Decimal::new(1, places)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn rounding_is_within_half_a_unit_and_idempotent(x in decimal(), places in 0u32..10, m in mode()) {
        let r = om::round(x, places, m).unwrap();
        let bound = if m == Rounding::TowardZero { unit(places) } else { half_unit(places) };
        prop_assert!((r - x).abs() <= bound, "{x} -> {r}");
        prop_assert_eq!(om::round(r, places, m).unwrap(), r);
        prop_assert!(r.scale() <= places);
    }

    #[test]
    fn exact_division_rounds_the_true_quotient(num in decimal(), den in positive_decimal(), places in 0u32..8, m in mode()) {
        let q = om::div_round(num, den, places, m).unwrap();
        // |q·den − num| ≤ half a unit · den (a whole unit when truncating), checked in exact products.
        let err = (q * den - num).abs();
        let bound = if m == Rounding::TowardZero { unit(places) * den } else { half_unit(places) * den };
        prop_assert!(err <= bound, "{num} / {den} -> {q}");
        prop_assert_eq!(om::div_round(q, Decimal::ONE, places, m).unwrap(), q);
        if m == Rounding::TowardZero {
            prop_assert!(q.abs() * den <= num.abs(), "truncation must not exceed the exact value");
        }
    }

    #[test]
    fn order_quantity_never_buys_more_than_the_margin(margin in positive_decimal(), lev in 1u32..126, price in positive_decimal(), prec in 0u32..8) {
        let q = om::order_quantity(margin, Decimal::from(lev), price, prec).unwrap();
        prop_assert!(q * price <= margin * Decimal::from(lev));
        prop_assert!((q + unit(prec)) * price > margin * Decimal::from(lev));
    }

    #[test]
    fn exit_prices_lie_on_the_profit_side_of_the_entry(entry in positive_decimal(), tp in 2u32..500, tr in 1u32..50, lev in 2u32..126) {
        let (tp, tr, lev) = (Decimal::from(tp), Decimal::from(tr), Decimal::from(lev));
        let entry = om::round(entry, 8, Rounding::HalfAwayFromZero).unwrap();
        prop_assume!(entry > Decimal::ZERO);
        prop_assert!(om::take_profit_price(Direction::Buy, entry, tp, lev, 8).unwrap() > entry);
        prop_assert!(om::trailing_activation_price(Direction::Buy, entry, tr, lev, 8).unwrap() > entry);
        if let Ok(sell) = om::take_profit_price(Direction::Sell, entry, tp, lev, 8) {
            prop_assert!(sell < entry);
        }
        if let Ok(sell) = om::trailing_activation_price(Direction::Sell, entry, tr, lev, 8) {
            prop_assert!(sell < entry);
        }
    }

    #[test]
    fn stop_price_is_below_entry_for_buy_and_above_for_sell(entry in positive_decimal(), sl in 5u32..100, lev in 2u32..126) {
        let (sl, lev) = (Decimal::from(sl), Decimal::from(lev));
        let buy = om::stop_price(Direction::Buy, entry, sl, lev, 8).unwrap();
        let sell = om::stop_price(Direction::Sell, entry, sl, lev, 8).unwrap();
        prop_assert!(buy <= entry && sell >= entry);
        let exact_buy = entry * (Decimal::ONE_HUNDRED * lev - sl);
        prop_assert!((buy * Decimal::ONE_HUNDRED * lev - exact_buy).abs() <= half_unit(8) * Decimal::ONE_HUNDRED * lev);
    }

    #[test]
    fn parsing_the_formatted_text_gives_the_same_value(x in decimal()) {
        prop_assert_eq!(om::parse_decimal(&om::format_decimal(x)).unwrap(), x);
        prop_assert_eq!(om::parse_decimal(&format!("{x}e0")).unwrap(), x);
    }

    #[test]
    fn text_output_matches_rust_decimal_display(m in -(1i128 << 96) + 1..(1i128 << 96), scale in 0u32..29) {
        let x = Decimal::from_i128_with_scale(m, scale);
        prop_assert_eq!(om::format_places(x, scale), x.to_string());
        let normal = x.normalize();
        let want = if normal.is_zero() { "0".to_owned() } else { normal.to_string() };
        prop_assert_eq!(om::format_decimal(x), want);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,40}") {
        let _ = om::parse_decimal(&text);
    }

    #[test]
    fn shortest_float_text_parses_to_the_written_decimal(f in -1.0e15f64..1.0e15) {
        let text = format!("{f}");
        let d = om::parse_decimal(&text).unwrap();
        prop_assert_eq!(om::format_decimal(d).parse::<f64>().unwrap(), f);
    }
}
