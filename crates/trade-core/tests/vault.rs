//! Token vault: known answers for each primitive, the envelope format, and every way opening must fail.

mod common;

use common::{hex, s, to_hex, u, vectors};
use trade_core::vault::{self, KdfParams};
use trade_core::CoreError;

const CHEAP: KdfParams = KdfParams { memory_kib: 64, iterations: 1, parallelism: 1 };
const PLATFORM: &str = "0b9c6c4e-1f7a-4c7e-9d61-2f1e7a3b5c4d";
const USER_KEY: &[u8] = b"utk-7f3a9c2e";

fn params_of(v: &serde_json::Value) -> KdfParams {
    KdfParams {
        memory_kib: u(v, "memory_kib"),
        iterations: u(v, "iterations"),
        parallelism: u(v, "parallelism"),
    }
}

#[test]
fn argon2id_matches_rfc_9106() {
    for v in vectors("crypto.json")["argon2id"].as_array().unwrap() {
        let out = vault::argon2id_raw(
            &hex(s(v, "password")),
            &hex(s(v, "salt")),
            &hex(s(v, "secret")),
            &hex(s(v, "data")),
            params_of(v),
            32,
        )
        .unwrap();
        assert_eq!(to_hex(&out), s(v, "tag"), "{}", s(v, "name"));
    }
}

#[test]
fn hkdf_sha256_matches_rfc_5869() {
    for v in vectors("crypto.json")["hkdf_sha256"].as_array().unwrap() {
        let out = vault::hkdf_raw(
            &hex(s(v, "ikm")),
            &hex(s(v, "salt")),
            &hex(s(v, "info")),
            u(v, "length") as usize,
        )
        .unwrap();
        assert_eq!(to_hex(&out), s(v, "okm"), "{}", s(v, "name"));
    }
}

#[test]
fn aes256gcm_matches_nist_vectors() {
    for v in vectors("crypto.json")["aes256gcm"].as_array().unwrap() {
        let out = vault::aes256gcm_raw(
            &hex(s(v, "key")),
            &hex(s(v, "nonce")),
            &hex(s(v, "plaintext")),
            &hex(s(v, "aad")),
        )
        .unwrap();
        assert_eq!(to_hex(&out), format!("{}{}", s(v, "ciphertext"), s(v, "tag")), "{}", s(v, "name"));
    }
}

#[test]
fn envelope_vectors_are_reproduced_and_open() {
    for v in vectors("crypto.json")["envelope"].as_array().unwrap() {
        let (pin, platform, key) = (s(v, "pin"), s(v, "platform_uuid"), s(v, "user_trade_token_key"));
        let salt: [u8; 16] = hex(s(v, "salt")).try_into().unwrap();
        let nonce: [u8; 12] = hex(s(v, "nonce")).try_into().unwrap();
        let sealed = vault::seal_deterministic(
            s(v, "plaintext").as_bytes(),
            pin.as_bytes(),
            platform,
            key.as_bytes(),
            params_of(v),
            salt,
            nonce,
        )
        .unwrap();
        assert_eq!(sealed, s(v, "envelope"), "{}", s(v, "name"));
        let opened = vault::open(s(v, "envelope"), pin.as_bytes(), platform, key.as_bytes()).unwrap();
        assert_eq!(opened.as_slice(), s(v, "plaintext").as_bytes());
    }
}

#[test]
fn default_cost_round_trip_writes_owasp_parameters() {
    let envelope = vault::seal(b"{\"api_secret\":\"x\"}", b"12345", PLATFORM, USER_KEY).unwrap();
    assert!(envelope.starts_with("v1$argon2id$m=19456,t=2,p=1$"), "{envelope}");
    let opened = vault::open(&envelope, b"12345", PLATFORM, USER_KEY).unwrap();
    assert_eq!(opened.as_slice(), b"{\"api_secret\":\"x\"}");
}

#[test]
fn round_trips_any_plaintext_and_uses_fresh_randomness() {
    for plaintext in ["", "a", "{\"api_key\":\"k\",\"api_secret\":\"s\"}", "ключ 🔑 秘密", &"x".repeat(5000)]
    {
        let a = vault::seal_with_params(plaintext.as_bytes(), b"12345", PLATFORM, USER_KEY, CHEAP).unwrap();
        let b = vault::seal_with_params(plaintext.as_bytes(), b"12345", PLATFORM, USER_KEY, CHEAP).unwrap();
        assert_ne!(a, b, "salt and nonce must be random");
        for env in [a, b] {
            assert_eq!(
                vault::open(&env, b"12345", PLATFORM, USER_KEY).unwrap().as_slice(),
                plaintext.as_bytes()
            );
        }
    }
}

#[test]
fn wrong_pin_platform_or_user_key_is_wrong_pin() {
    let env = vault::seal_with_params(b"secret", b"12345", PLATFORM, USER_KEY, CHEAP).unwrap();
    let other_platform = "0b9c6c4e-1f7a-4c7e-9d61-2f1e7a3b5c4e";
    assert_eq!(vault::open(&env, b"12346", PLATFORM, USER_KEY).unwrap_err(), CoreError::WrongPin);
    assert_eq!(vault::open(&env, b"", PLATFORM, USER_KEY).unwrap_err(), CoreError::WrongPin);
    assert_eq!(vault::open(&env, b"12345", other_platform, USER_KEY).unwrap_err(), CoreError::WrongPin);
    assert_eq!(vault::open(&env, b"12345", PLATFORM, b"utk-7f3a9c2f").unwrap_err(), CoreError::WrongPin);
    assert_eq!(vault::unlock(&env, b"54321", PLATFORM, USER_KEY).err(), Some(CoreError::WrongPin));
}

#[test]
fn a_flipped_byte_anywhere_fails_as_malformed() {
    let env =
        vault::seal_with_params(b"{\"api_secret\":\"s\"}", b"12345", PLATFORM, USER_KEY, CHEAP).unwrap();
    for i in 0..env.len() {
        for mask in [0x01u8, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40] {
            let mut bytes = env.clone().into_bytes();
            bytes[i] ^= mask;
            let Ok(text) = String::from_utf8(bytes) else { continue };
            let err = vault::open(&text, b"12345", PLATFORM, USER_KEY).unwrap_err();
            assert!(matches!(err, CoreError::Malformed(_)), "byte {i} mask {mask:#x}: {err:?}");
        }
    }
}

#[test]
fn truncated_or_garbage_input_fails_as_malformed() {
    let env = vault::seal_with_params(b"secret", b"12345", PLATFORM, USER_KEY, CHEAP).unwrap();
    for len in 0..env.len() {
        let err = vault::open(&env[..len], b"12345", PLATFORM, USER_KEY).unwrap_err();
        assert!(matches!(err, CoreError::Malformed(_)), "truncated to {len}: {err:?}");
    }
    let long = "$".repeat(vault::MAX_ENVELOPE_LEN + 1);
    let garbage = [
        "",
        "garbage",
        "{\"api_key\":\"k\"}",
        "v2$argon2id$m=64,t=1,p=1$AAECAwQFBgcICQoLDA0ODw$oKGio6Slpqeoqaqr$AAAAAAAAAAAAAAAAAAAAAA$AAAAAA",
        "v1$scrypt$m=64,t=1,p=1$AAECAwQFBgcICQoLDA0ODw$oKGio6Slpqeoqaqr$AAAAAAAAAAAAAAAAAAAAAA$AAAAAA",
        "v1$argon2id$m=99999999,t=1,p=1$AAECAwQFBgcICQoLDA0ODw$oKGio6Slpqeoqaqr$AAAAAAAAAAAAAAAAAAAAAA$AAAAAA",
        "$$$$$$",
        long.as_str(),
    ];
    for text in garbage {
        let err = vault::open(text, b"12345", PLATFORM, USER_KEY).unwrap_err();
        assert!(matches!(err, CoreError::Malformed(_)), "{:.40}: {err:?}", text);
    }
    let mut appended = env.clone();
    appended.push('A');
    assert!(matches!(vault::open(&appended, b"12345", PLATFORM, USER_KEY), Err(CoreError::Malformed(_))));
}

#[test]
fn rekey_opens_with_the_new_pin_only_and_upgrades_the_cost() {
    let old = vault::seal_with_params(b"token", b"11111", PLATFORM, USER_KEY, CHEAP).unwrap();
    let new = vault::rekey(&old, b"11111", b"22222", PLATFORM, USER_KEY).unwrap();
    assert!(new.starts_with("v1$argon2id$m=19456,t=2,p=1$"));
    assert_eq!(vault::open(&new, b"22222", PLATFORM, USER_KEY).unwrap().as_slice(), b"token");
    assert_eq!(vault::open(&new, b"11111", PLATFORM, USER_KEY).unwrap_err(), CoreError::WrongPin);
    let cheap = vault::rekey_with_params(&old, b"11111", b"33333", PLATFORM, USER_KEY, CHEAP).unwrap();
    assert_eq!(vault::open(&cheap, b"33333", PLATFORM, USER_KEY).unwrap().as_slice(), b"token");
    assert_eq!(vault::rekey(&old, b"99999", b"22222", PLATFORM, USER_KEY).unwrap_err(), CoreError::WrongPin);
}

#[test]
fn unlocked_handle_opens_and_reseals_without_the_pin() {
    let env = vault::seal_with_params(b"v1 content", b"12345", PLATFORM, USER_KEY, CHEAP).unwrap();
    let mut handle = vault::unlock(&env, b"12345", PLATFORM, USER_KEY).unwrap();
    assert_eq!(handle.open().unwrap().as_slice(), b"v1 content");
    assert_eq!(handle.envelope(), env);
    let resealed = handle.reseal(b"v2 content").unwrap();
    assert_ne!(resealed, env);
    assert_eq!(handle.open().unwrap().as_slice(), b"v2 content");
    assert_eq!(vault::open(&resealed, b"12345", PLATFORM, USER_KEY).unwrap().as_slice(), b"v2 content");
}

#[test]
fn seal_rejects_empty_secrets_and_bad_parameters() {
    for (pin, platform, key) in
        [(&b""[..], PLATFORM, USER_KEY), (b"12345", "", USER_KEY), (b"12345", PLATFORM, b"")]
    {
        let err = vault::seal_with_params(b"x", pin, platform, key, CHEAP).unwrap_err();
        assert_eq!(err.code(), "InvalidArgument");
    }
    for params in [
        KdfParams { memory_kib: 7, iterations: 1, parallelism: 1 },
        KdfParams { memory_kib: 64, iterations: 0, parallelism: 1 },
        KdfParams { memory_kib: 64, iterations: 1, parallelism: 0 },
        KdfParams { memory_kib: KdfParams::MAX_MEMORY_KIB + 1, iterations: 1, parallelism: 1 },
    ] {
        let err = vault::seal_with_params(b"x", b"12345", PLATFORM, USER_KEY, params).unwrap_err();
        assert_eq!(err.code(), "InvalidArgument", "{params:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

    /// Arbitrary text, including near-envelopes, is an error and never a panic.
    #[test]
    fn open_never_panics(tail in "\\PC{0,80}", cut in 0usize..200) {
        let env = "v1$argon2id$m=64,t=1,p=1$AAECAwQFBgcICQoLDA0ODw$oKGio6Slpqeoqaqr$AAAAAAAAAAAAAAAAAAAAAA$AAAAAA";
        let text = format!("{}{tail}", &env[..cut.min(env.len())]);
        proptest::prop_assert!(vault::open(&text, b"12345", PLATFORM, USER_KEY).is_err());
    }
}
