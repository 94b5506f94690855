//! Signing: Binance's own HMAC example to the byte, RFC 4231 HMAC-SHA256, RFC 8032 Ed25519, and the query
//! builder's encoding and ordering rules.

mod common;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use common::{hex, s, to_hex, vectors};
use trade_core::signing::{self, Ed25519Signer, HmacSigner};

fn pkcs8_base64(prefix: &str, seed: &str) -> String {
    STANDARD.encode([hex(prefix), hex(seed)].concat())
}

fn params(v: &serde_json::Value) -> Vec<(String, String)> {
    v["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_owned(), p[1].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn binance_hmac_example_is_reproduced_to_the_byte() {
    for v in vectors("crypto.json")["binance_hmac"].as_array().unwrap() {
        let owned = params(v);
        let pairs: Vec<(&str, &str)> = owned.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        let ts = v["timestamp"].as_u64().unwrap();
        let window = v["recv_window"].as_u64().map(|w| w as u32);
        let query = signing::build_query(&pairs, ts, window).unwrap();
        assert_eq!(query, s(v, "query"), "{}", s(v, "name"));
        let signer = HmacSigner::new(s(v, "secret").as_bytes());
        assert_eq!(signer.sign(&query, ""), s(v, "signature"));
        assert_eq!(signing::hmac_sha256_hex(s(v, "secret").as_bytes(), query.as_bytes()), s(v, "signature"));
        let signed = signer.signed_query(&pairs, ts, window).unwrap();
        assert_eq!(signed, format!("{}&signature={}", s(v, "query"), s(v, "signature")));
    }
}

#[test]
fn query_and_body_are_signed_as_one_text_without_separator() {
    let signer = HmacSigner::new(b"2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9");
    let whole = "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943";
    let (query, body) = whole.split_at(37);
    assert_eq!(signer.sign(query, body), signer.sign(whole, ""));
    assert_eq!(signer.sign(query, body), "3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9");
}

#[test]
fn hmac_sha256_matches_rfc_4231() {
    for v in vectors("crypto.json")["hmac_sha256"].as_array().unwrap() {
        let mac = HmacSigner::new(&hex(s(v, "key"))).mac(&[&hex(s(v, "data"))]);
        let want = s(v, "mac");
        assert_eq!(&to_hex(&mac)[..want.len()], want, "{}", s(v, "name"));
    }
}

#[test]
fn ed25519_matches_rfc_8032() {
    let doc = vectors("crypto.json");
    let prefix = s(&doc, "pkcs8_ed25519_prefix");
    for v in doc["ed25519"].as_array().unwrap() {
        let signer = Ed25519Signer::from_pkcs8(&pkcs8_base64(prefix, s(v, "seed"))).unwrap();
        let signature = signer.sign(&hex(s(v, "message")));
        assert_eq!(to_hex(&STANDARD.decode(&signature).unwrap()), s(v, "signature"), "{}", s(v, "name"));
        assert_eq!(to_hex(&STANDARD.decode(signer.public_key()).unwrap()), s(v, "public_key"));
    }
}

#[test]
fn ed25519_reads_pem_and_puts_the_encoded_signature_last() {
    let doc = vectors("crypto.json");
    let v = &doc["ed25519"][0];
    let b64 = pkcs8_base64(s(&doc, "pkcs8_ed25519_prefix"), s(v, "seed"));
    let pem = format!("-----BEGIN PRIVATE KEY-----\n{b64}\n-----END PRIVATE KEY-----\n");
    let from_pem = Ed25519Signer::from_pkcs8(&pem).unwrap();
    assert_eq!(from_pem.public_key(), Ed25519Signer::from_pkcs8(&b64).unwrap().public_key());
    let signed = from_pem.signed_query(&[("symbol", "BTCUSDT")], 1_591_702_613_943, Some(10_000)).unwrap();
    let (query, signature) = signed.rsplit_once("&signature=").unwrap();
    assert_eq!(query, "symbol=BTCUSDT&recvWindow=10000&timestamp=1591702613943");
    let mut expected = String::new();
    signing::percent_encode_into(&from_pem.sign(query.as_bytes()), &mut expected);
    assert_eq!(signature, expected);
    assert!(!signature.contains(['+', '/', '=']));
}

#[test]
fn bad_ed25519_keys_are_invalid_key_errors() {
    for text in
        ["", "not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", "MCowBQYDK2VwAyEA"]
    {
        let err = Ed25519Signer::from_pkcs8(text).err().expect(text);
        assert_eq!(err.code(), "InvalidKey", "{text}");
    }
}

#[test]
fn query_builder_percent_encodes_and_rejects_reserved_names() {
    let q = signing::build_query(&[("note", "a b&c=d/é~"), ("list", "[\"BTCUSDT\"]")], 1, None).unwrap();
    assert_eq!(q, "note=a%20b%26c%3Dd%2F%C3%A9~&list=%5B%22BTCUSDT%22%5D&timestamp=1");
    assert_eq!(signing::build_query(&[], 5, Some(10_000)).unwrap(), "recvWindow=10000&timestamp=5");
    for name in ["signature", "timestamp", "recvWindow", ""] {
        let err = signing::build_query(&[(name, "1")], 1, None).unwrap_err();
        assert_eq!(err.code(), "InvalidArgument", "{name}");
    }
    for window in [0, 60_001] {
        assert_eq!(signing::build_query(&[], 1, Some(window)).unwrap_err().code(), "InvalidArgument");
    }
}
