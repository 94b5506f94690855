//! Native benchmarks of the four parts (`cargo bench`). bench/core compares the shipped pkg/ in Node with
//! the JavaScript libraries a developer would otherwise pick; these show the Rust side on its own.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use trade_core::correlation;
use trade_core::order_math::{self as om, Direction};
use trade_core::signing::{self, Ed25519Signer, HmacSigner};
use trade_core::vault::{self, KdfParams};

const SECRET: &str = "2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9";
const PLATFORM: &str = "0b9c6c4e-1f7a-4c7e-9d61-2f1e7a3b5c4d";
const USER_KEY: &[u8] = b"utk-7f3a9c2e-5b1d-4e8a-a6c3-91d04b7e2f58";

/// A 200-byte signed-order query, the size bench/core uses.
fn query_200() -> String {
    let mut q = String::from(
        "symbol=BTCUSDT&side=BUY&type=STOP&quantity=0.003&price=59700.00&stopPrice=59700.00&timeInForce=GTC",
    );
    q.push_str("&newClientOrderId=sd-5f0c2a7e-1b&recvWindow=10000&timestamp=1591702613943");
    while q.len() < 200 {
        q.push('x');
    }
    q
}

fn signing(c: &mut Criterion) {
    let query = query_200();
    let signer = HmacSigner::new(SECRET.as_bytes());
    let ed = Ed25519Signer::from_pkcs8("MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g")
        .unwrap();
    let mut g = c.benchmark_group("signing");
    g.bench_function("hmac_signer_200B", |b| b.iter(|| signer.sign(black_box(&query), "")));
    g.bench_function("hmac_one_shot_200B", |b| {
        b.iter(|| signing::hmac_sha256_hex(black_box(SECRET.as_bytes()), black_box(query.as_bytes())))
    });
    g.bench_function("ed25519_200B", |b| b.iter(|| ed.sign(black_box(query.as_bytes()))));
    g.finish();
}

fn vault_kdf(c: &mut Criterion) {
    let envelope =
        vault::seal(b"{\"api_key\":\"k\",\"api_secret\":\"s\"}", b"12345", PLATFORM, USER_KEY).unwrap();
    let handle = vault::unlock(&envelope, b"12345", PLATFORM, USER_KEY).unwrap();
    let mut g = c.benchmark_group("vault");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.bench_function("seal_default", |b| {
        b.iter(|| vault::seal(b"{\"api_secret\":\"s\"}", b"12345", PLATFORM, USER_KEY).unwrap())
    });
    g.bench_function("open_default", |b| {
        b.iter(|| vault::open(&envelope, b"12345", PLATFORM, USER_KEY).unwrap())
    });
    g.bench_function("unlock_default", |b| {
        b.iter(|| vault::unlock(&envelope, b"12345", PLATFORM, USER_KEY).unwrap())
    });
    g.finish();
    let mut g = c.benchmark_group("vault_handle");
    g.bench_function("open_unlocked", |b| b.iter(|| handle.open().unwrap()));
    g.bench_function("open_cheap_params", |b| {
        let cheap = KdfParams { memory_kib: 64, iterations: 1, parallelism: 1 };
        let env = vault::seal_with_params(b"s", b"12345", PLATFORM, USER_KEY, cheap).unwrap();
        b.iter(|| vault::open(&env, b"12345", PLATFORM, USER_KEY).unwrap())
    });
    g.finish();
}

fn order_math(c: &mut Criterion) {
    let mut g = c.benchmark_group("order_math");
    g.bench_function("quantity_from_text", |b| {
        b.iter(|| {
            let (m, l, p) = (
                om::parse_decimal(black_box("12.5")),
                om::parse_decimal("20"),
                om::parse_decimal("60123.45"),
            );
            om::format_places(om::order_quantity(m.unwrap(), l.unwrap(), p.unwrap(), 3).unwrap(), 3)
        })
    });
    g.bench_function("stop_price_from_text", |b| {
        b.iter(|| {
            let e = om::parse_decimal(black_box("60123.45")).unwrap();
            let (sl, l) = (om::parse_decimal("12.5").unwrap(), om::parse_decimal("20").unwrap());
            om::format_places(om::stop_price(Direction::Buy, e, sl, l, 2).unwrap(), 2)
        })
    });
    g.finish();
}

fn scan(c: &mut Criterion) {
    let n = 8640;
    let price: Vec<f64> = (0..n).map(|t| 60_000.0 + 300.0 * (f64::from(t) / 50.0).sin()).collect();
    let buy: Vec<f64> = (0..n).map(|t| f64::from(u8::from((t * 7919) % 13 == 0))).collect();
    let sell: Vec<f64> = (0..n).map(|t| f64::from(u8::from((t * 104_729) % 11 == 0))).collect();
    let mut g = c.benchmark_group("correlation");
    g.bench_function("lag_scan_48_over_8640", |b| {
        b.iter(|| correlation::lag_scan(black_box(&buy), &sell, &price, 48).unwrap())
    });
    g.bench_function("pearson_8640", |b| b.iter(|| correlation::pearson(black_box(&buy), &price).unwrap()));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = signing, vault_kdf, order_math, scan
}
criterion_main!(benches);
