//! Pearson correlation and the lagged scan behind the analysis answer (SPEC.md §3 "Analysis request /
//! Result": lag_price_list of {lag, corr_buy, corr_sell}, lag_buy and lag_sell of {max_corr,
//! lag_at_max_corr}).
//!
//! Lag convention: at lag k the signal at time t is paired with the price at time t + k, so a positive lag
//! means the price moves after the signal (the signal leads). Only the overlapping n − |k| points count.
//!
//! Documented results instead of NaN or a panic:
//! - fewer than 2 (overlapping) points, or a series with zero variance over them → correlation 0;
//! - series of different lengths, or any non-finite value → `InvalidArgument`;
//! - a result that is not finite after all (values near f64's limits) → 0; results are clamped to [−1, 1];
//! - `max_lag` above [`MAX_LAG`] → `InvalidArgument` (lags beyond n − 2 are listed with correlation 0).

use crate::error::{CoreError, CoreResult};

/// Largest `max_lag` accepted by [`lag_scan`] (the answer has 2 × max_lag + 1 rows).
pub const MAX_LAG: u32 = 100_000;

/// One row of lag_price_list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LagPoint {
    pub lag: i32,
    pub corr_buy: f64,
    pub corr_sell: f64,
}

/// lag_buy / lag_sell: the greatest correlation over the scanned lags and the lag where it occurs. Ties go
/// to the lag nearest zero, and between k and −k to the positive one. All-zero scans give {0, 0}.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LagMax {
    pub max_corr: f64,
    pub lag_at_max_corr: i32,
}

/// The analysis result: one [`LagPoint`] per lag from −max_lag to +max_lag, ascending, and both maxima.
#[derive(Clone, Debug, PartialEq)]
pub struct LagScan {
    pub lag_price_list: Vec<LagPoint>,
    pub lag_buy: LagMax,
    pub lag_sell: LagMax,
}

fn check_finite(series: &[f64], name: &str) -> CoreResult<()> {
    if series.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(CoreError::invalid(format!("{name} contains a non-finite value")))
    }
}

/// Pearson correlation of two equally long series (two-pass: means first, then centred sums).
pub fn pearson(x: &[f64], y: &[f64]) -> CoreResult<f64> {
    if x.len() != y.len() {
        return Err(CoreError::invalid(format!("series lengths differ: {} and {}", x.len(), y.len())));
    }
    check_finite(x, "x")?;
    check_finite(y, "y")?;
    if x.len() < 2 {
        return Ok(0.0);
    }
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    Ok(finish(sxy, sxx, syy))
}

fn finish(cov: f64, var_x: f64, var_y: f64) -> f64 {
    if var_x <= 0.0 || var_y <= 0.0 {
        return 0.0;
    }
    let r = cov / (var_x.sqrt() * var_y.sqrt());
    if r.is_finite() {
        r.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

/// Σx and Σx² with four independent accumulators each.
fn sums(x: &[f64]) -> (f64, f64) {
    let (mut s1, mut s2) = ([0.0f64; 4], [0.0f64; 4]);
    let chunks = x.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..4 {
            s1[k] += c[k];
            s2[k] += c[k] * c[k];
        }
    }
    for v in rest {
        s1[0] += v;
        s2[0] += v * v;
    }
    ((s1[0] + s1[1]) + (s1[2] + s1[3]), (s2[0] + s2[1]) + (s2[2] + s2[3]))
}

/// Sums of one centred series over the windows a lag scan reads: its first n − k values ("head") and its
/// last n − k values ("tail"), for every shift k up to max_lag. Each is the whole-series sum minus at
/// most max_lag terms.
struct Windows {
    n: usize,
    head: Vec<(f64, f64)>,
    tail: Vec<(f64, f64)>,
    /// Lengths of the longest constant prefix and suffix. A window inside one has zero variance, which is
    /// decided here exactly rather than by a tolerance on rounded sums.
    const_head: usize,
    const_tail: usize,
}

impl Windows {
    fn new(x: &[f64], max_shift: usize) -> Self {
        let n = x.len();
        let (s1, s2) = sums(x);
        let k_max = max_shift.min(n);
        let (mut head, mut tail) = (Vec::with_capacity(k_max + 1), Vec::with_capacity(k_max + 1));
        let (mut h, mut t) = ((s1, s2), (s1, s2));
        head.push(h);
        tail.push(t);
        for k in 1..=k_max {
            let (last, first) = (x[n - k], x[k - 1]);
            h = (h.0 - last, h.1 - last * last);
            t = (t.0 - first, t.1 - first * first);
            head.push(h);
            tail.push(t);
        }
        let const_head = x.first().map_or(0, |f| x.iter().take_while(|v| *v == f).count());
        let const_tail = x.last().map_or(0, |l| x.iter().rev().take_while(|v| *v == l).count());
        Windows { n, head, tail, const_head, const_tail }
    }

    /// (Σx, Σ(x − mean)²) over the n − shift values at the head or at the tail.
    fn stats(&self, head: bool, shift: usize) -> (f64, f64) {
        let m = self.n - shift;
        let ((s1, s2), constant) = if head {
            (self.head[shift], m <= self.const_head)
        } else {
            (self.tail[shift], m <= self.const_tail)
        };
        let m2 = if constant { 0.0 } else { (s2 - s1 * s1 / m as f64).max(0.0) };
        (s1, m2)
    }
}

/// Σ a[i]·b[i] and Σ c[i]·b[i] in one pass with four independent accumulators per sum, so the loop is
/// limited by throughput rather than by the latency of one long chain of additions.
fn dot2(a: &[f64], c: &[f64], b: &[f64]) -> (f64, f64) {
    let n = a.len().min(b.len()).min(c.len());
    let (a, b, c) = (&a[..n], &b[..n], &c[..n]);
    let mut sa = [0.0f64; 4];
    let mut sc = [0.0f64; 4];
    let (ac, bc, cc) = (a.chunks_exact(4), b.chunks_exact(4), c.chunks_exact(4));
    let (ar, br, cr) = (ac.remainder(), bc.remainder(), cc.remainder());
    for ((x, y), z) in ac.zip(bc).zip(cc) {
        for k in 0..4 {
            sa[k] += x[k] * y[k];
            sc[k] += z[k] * y[k];
        }
    }
    for ((x, y), z) in ar.iter().zip(br).zip(cr) {
        sa[0] += x * y;
        sc[0] += z * y;
    }
    ((sa[0] + sa[1]) + (sa[2] + sa[3]), (sc[0] + sc[1]) + (sc[2] + sc[3]))
}

fn centred(series: &[f64]) -> Vec<f64> {
    let mean = if series.is_empty() { 0.0 } else { series.iter().sum::<f64>() / series.len() as f64 };
    series.iter().map(|v| v - mean).collect()
}

/// Correlates buy and sell signal series with the price series at every lag in −max_lag..=max_lag.
///
/// Per lag the window sums come from [`Windows`] (O(1) each) and only the cross product is summed, over
/// the series centred on their global means (which keeps the sums well conditioned for prices in the tens
/// of thousands): one O(n) pass per lag for both signal series instead of two passes per series.
pub fn lag_scan(buy: &[f64], sell: &[f64], price: &[f64], max_lag: u32) -> CoreResult<LagScan> {
    let n = price.len();
    if buy.len() != n || sell.len() != n {
        return Err(CoreError::invalid(format!(
            "series lengths differ: buy {}, sell {}, price {}",
            buy.len(),
            sell.len(),
            n
        )));
    }
    check_finite(buy, "buy series")?;
    check_finite(sell, "sell series")?;
    check_finite(price, "price series")?;
    if max_lag > MAX_LAG {
        return Err(CoreError::invalid(format!("max_lag {max_lag} exceeds {MAX_LAG}")));
    }
    let max_lag = i64::from(max_lag);
    let (b, s, p) = (centred(buy), centred(sell), centred(price));
    let shifts = max_lag as usize;
    let (wb, ws, wp) = (Windows::new(&b, shifts), Windows::new(&s, shifts), Windows::new(&p, shifts));
    let mut list = Vec::with_capacity((2 * max_lag + 1) as usize);
    for lag in -max_lag..=max_lag {
        let shift = lag.unsigned_abs() as usize;
        let (corr_buy, corr_sell) = if shift + 2 > n {
            (0.0, 0.0)
        } else {
            let m = n - shift;
            // lag ≥ 0: signals[0..m] against price[shift..n]; lag < 0: signals[shift..n] against price[0..m].
            let signal_head = lag >= 0;
            let (sig_range, price_range) = if signal_head { (0..m, shift..n) } else { (shift..n, 0..m) };
            let (xb, xs) = dot2(&b[sig_range.clone()], &s[sig_range], &p[price_range]);
            let (sp, vp) = wp.stats(!signal_head, shift);
            let corr = |w: &Windows, raw: f64| {
                let (sx, vx) = w.stats(signal_head, shift);
                finish(raw - sx * sp / m as f64, vx, vp)
            };
            (corr(&wb, xb), corr(&ws, xs))
        };
        list.push(LagPoint { lag: lag as i32, corr_buy, corr_sell });
    }
    let lag_buy = best(&list, |pt| pt.corr_buy);
    let lag_sell = best(&list, |pt| pt.corr_sell);
    Ok(LagScan { lag_price_list: list, lag_buy, lag_sell })
}

fn best(list: &[LagPoint], pick: impl Fn(&LagPoint) -> f64) -> LagMax {
    let mut top = LagMax { max_corr: 0.0, lag_at_max_corr: 0 };
    let mut found = false;
    for pt in list {
        let c = pick(pt);
        let better = !found
            || c > top.max_corr
            || (c == top.max_corr
                && (pt.lag.unsigned_abs(), pt.lag < 0)
                    < (top.lag_at_max_corr.unsigned_abs(), top.lag_at_max_corr < 0));
        if better {
            top = LagMax { max_corr: c, lag_at_max_corr: pt.lag };
            found = true;
        }
    }
    top
}
