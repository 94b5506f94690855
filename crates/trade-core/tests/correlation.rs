//! Correlation: the shared table (computed independently in Python) and a 30-day, 48-lag scan compared
//! with a naive two-pass reference at every lag.

mod common;

use common::vectors;
use serde_json::Value;
use trade_core::correlation::{self, LagMax, LagScan};

fn series(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() <= eps
}

/// Naive reference: slice the overlapping windows and run the two-pass Pearson on them.
fn reference(buy: &[f64], sell: &[f64], price: &[f64], max_lag: i64) -> Vec<(i64, f64, f64)> {
    let n = price.len() as i64;
    (-max_lag..=max_lag)
        .map(|k| {
            let s = k.unsigned_abs() as usize;
            if k.abs() + 2 > n {
                return (k, 0.0, 0.0);
            }
            let m = price.len() - s;
            let (sig, pr) = if k >= 0 { (0..m, s..price.len()) } else { (s..price.len(), 0..m) };
            let b = correlation::pearson(&buy[sig.clone()], &price[pr.clone()]).unwrap();
            let c = correlation::pearson(&sell[sig], &price[pr]).unwrap();
            (k, b, c)
        })
        .collect()
}

fn check_max(got: &LagMax, want: &Value, eps: f64, what: &str) {
    assert!(close(got.max_corr, want["max_corr"].as_f64().unwrap(), eps), "{what}: {got:?} vs {want}");
    assert_eq!(i64::from(got.lag_at_max_corr), want["lag_at_max_corr"].as_i64().unwrap(), "{what}");
}

#[test]
fn pearson_table() {
    let doc = vectors("correlation.json");
    let eps = doc["epsilon"].as_f64().unwrap();
    for case in doc["pearson"].as_array().unwrap() {
        let got = correlation::pearson(&series(&case["x"]), &series(&case["y"]));
        match case.get("error") {
            Some(code) => assert_eq!(got.unwrap_err().code(), code.as_str().unwrap(), "{case}"),
            None => assert!(close(got.unwrap(), case["expect"].as_f64().unwrap(), eps), "{case}"),
        }
    }
}

#[test]
fn lag_scan_table() {
    let doc = vectors("correlation.json");
    let eps = doc["epsilon"].as_f64().unwrap();
    for case in doc["lag_scan"].as_array().unwrap() {
        let max_lag = case["max_lag"].as_u64().unwrap() as u32;
        let got = correlation::lag_scan(
            &series(&case["buy"]),
            &series(&case["sell"]),
            &series(&case["price"]),
            max_lag,
        );
        if let Some(code) = case.get("error") {
            assert_eq!(got.unwrap_err().code(), code.as_str().unwrap(), "{}", case["name"]);
            continue;
        }
        let LagScan { lag_price_list, lag_buy, lag_sell } = got.unwrap();
        let want = &case["expect"];
        let rows = want["lag_price_list"].as_array().unwrap();
        assert_eq!(lag_price_list.len(), rows.len());
        for (p, w) in lag_price_list.iter().zip(rows) {
            assert_eq!(i64::from(p.lag), w["lag"].as_i64().unwrap());
            assert!(
                close(p.corr_buy, w["corr_buy"].as_f64().unwrap(), eps),
                "{} buy {p:?} {w}",
                case["name"]
            );
            assert!(
                close(p.corr_sell, w["corr_sell"].as_f64().unwrap(), eps),
                "{} sell {p:?} {w}",
                case["name"]
            );
        }
        check_max(&lag_buy, &want["lag_buy"], eps, "lag_buy");
        check_max(&lag_sell, &want["lag_sell"], eps, "lag_sell");
    }
}

/// A month of 5-minute points (8,640): a random-walk price around 60,000 and signals that anticipate its
/// moves by 7 points (buy) or mirror them (sell), with a quiet stretch of zeros at the start.
fn month(seed: u64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut state = seed;
    let mut rand = move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let n = 8640;
    let steps: Vec<f64> = (0..n + 7).map(|_| rand() - 0.5).collect();
    let mut price = Vec::with_capacity(n);
    let mut p = 60_000.0;
    for step in &steps[..n] {
        p += step * 25.0;
        price.push(p);
    }
    let buy: Vec<f64> =
        (0..n).map(|t| if t < 30 { 0.0 } else { f64::from(u8::from(steps[t + 7] > 0.2)) }).collect();
    let sell: Vec<f64> = (0..n).map(|t| f64::from(u8::from(steps[t] < -0.2)) + rand() * 0.1).collect();
    (buy, sell, price)
}

#[test]
fn month_scan_matches_the_naive_reference_at_every_lag() {
    let (buy, sell, price) = month(7);
    let scan = correlation::lag_scan(&buy, &sell, &price, 48).unwrap();
    let want = reference(&buy, &sell, &price, 48);
    assert_eq!(scan.lag_price_list.len(), 97);
    for (got, (lag, b, s)) in scan.lag_price_list.iter().zip(&want) {
        assert_eq!(i64::from(got.lag), *lag);
        assert!(close(got.corr_buy, *b, 1e-9), "lag {lag}: {} vs {b}", got.corr_buy);
        assert!(close(got.corr_sell, *s, 1e-9), "lag {lag}: {} vs {s}", got.corr_sell);
    }
    let best = want.iter().fold((f64::MIN, 0), |acc, &(k, b, _)| if b > acc.0 { (b, k) } else { acc });
    assert!(close(scan.lag_buy.max_corr, best.0, 1e-12));
    assert_eq!(i64::from(scan.lag_buy.lag_at_max_corr), best.1);
}

#[test]
fn edge_cases_never_produce_nan() {
    assert_eq!(correlation::pearson(&[1.0, f64::NAN], &[1.0, 2.0]).unwrap_err().code(), "InvalidArgument");
    assert_eq!(
        correlation::pearson(&[1.0, f64::INFINITY], &[1.0, 2.0]).unwrap_err().code(),
        "InvalidArgument"
    );
    assert_eq!(correlation::pearson(&[1e300, -1e300], &[1e300, -1e300]).unwrap(), 0.0);
    let flat = vec![0.1; 500];
    let ramp: Vec<f64> = (0..500).map(f64::from).collect();
    let scan = correlation::lag_scan(&flat, &ramp, &ramp, 10).unwrap();
    assert!(scan.lag_price_list.iter().all(|p| p.corr_buy == 0.0 && p.corr_sell.is_finite()));
    assert_eq!((scan.lag_buy.max_corr, scan.lag_buy.lag_at_max_corr), (0.0, 0));
    assert!(close(scan.lag_sell.max_corr, 1.0, 1e-12));
}
