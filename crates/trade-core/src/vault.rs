//! Token vault: the trade token (api_key, api_secret, SPEC.md §3) encrypted under the trader's PIN, the
//! platform it belongs to and the per-user, server-held `user_trade_token_key` (DESIGN.md "Token vault").
//!
//! Key = HKDF-SHA256(salt, Argon2id(PIN, salt) ‖ user_trade_token_key, info = INFO_PREFIX ‖ platform_uuid);
//! cipher = AES-256-GCM with a random 96-bit nonce and `platform_uuid` as associated data. A five-character
//! PIN alone is guessable offline; the user key (never stored beside the envelope) is what protects the
//! secret, and Argon2id makes each PIN guess cost memory for whoever also holds that key.
//!
//! Envelope (text, one line, fields separated by `$`, binary fields base64url without padding):
//!
//! ```text
//! v1$argon2id$m=19456,t=2,p=1$<salt: 16 bytes>$<nonce: 12 bytes>$<ciphertext ‖ 16-byte tag>$<check: 4 bytes>
//! ```
//!
//! `check` is the first 4 bytes of SHA-256 over the text before its `$`. It is not a security measure (GCM
//! authenticates; anyone can recompute the check) but it separates a damaged envelope (truncated, cut,
//! garbage: `Malformed`) from an intact one that does not open under these secrets (`WrongPin`).
//!
//! The version fixes everything not written in the envelope (Argon2 version 0x13, 32-byte Argon2 output,
//! the HKDF construction and info, AES-256-GCM). The KDF name and its parameters are written, so the cost
//! can be raised later while old envelopes still open.

use aes_gcm::aead::{Aead, Payload};
use aes_gcm::{Aes256Gcm, KeyInit};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hkdf::Hkdf;
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use crate::error::{CoreError, CoreResult};

/// The envelope version this module writes (and the only one it reads).
pub const ENVELOPE_VERSION: u32 = 1;
const VERSION_FIELD: &str = "v1";
const KDF_NAME: &str = "argon2id";
/// HKDF `info` prefix; the platform_uuid follows it. It carries the envelope version (SPEC.md §3 binds the
/// key to platform_uuid).
const INFO_PREFIX: &[u8] = b"signaldesk/trade-token/v1/";
/// Salt length in bytes (random per envelope).
pub const SALT_LEN: usize = 16;
/// AES-GCM nonce length in bytes (96 bits, random per envelope).
pub const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
const CHECK_LEN: usize = 4;
const KEY_LEN: usize = 32;
/// Longest envelope text accepted by [`open`], in bytes; anything longer is not a trade token.
pub const MAX_ENVELOPE_LEN: usize = 1 << 20;

/// Argon2id cost parameters as written in the envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KdfParams {
    /// Memory in KiB (`m`).
    pub memory_kib: u32,
    /// Passes over memory (`t`).
    pub iterations: u32,
    /// Lanes (`p`).
    pub parallelism: u32,
}

impl KdfParams {
    /// OWASP's Argon2id recommendation: m = 19456 KiB (19 MiB), t = 2, p = 1.
    pub const DEFAULT: KdfParams = KdfParams { memory_kib: 19_456, iterations: 2, parallelism: 1 };
    /// Upper bounds accepted when opening, so a forged envelope cannot make the browser allocate gigabytes
    /// or spin for minutes: 256 MiB, 16 passes, 16 lanes.
    pub const MAX_MEMORY_KIB: u32 = 262_144;
    pub const MAX_ITERATIONS: u32 = 16;
    pub const MAX_PARALLELISM: u32 = 16;

    fn validate(&self) -> Result<(), String> {
        let KdfParams { memory_kib: m, iterations: t, parallelism: p } = *self;
        if !(1..=Self::MAX_PARALLELISM).contains(&p) {
            return Err(format!("parallelism p={p} outside 1..={}", Self::MAX_PARALLELISM));
        }
        if !(1..=Self::MAX_ITERATIONS).contains(&t) {
            return Err(format!("iterations t={t} outside 1..={}", Self::MAX_ITERATIONS));
        }
        if m < 8 * p || m > Self::MAX_MEMORY_KIB {
            return Err(format!("memory m={m} KiB outside {}..={}", 8 * p, Self::MAX_MEMORY_KIB));
        }
        Ok(())
    }
}

/// A parsed envelope.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Envelope {
    params: KdfParams,
    salt: [u8; SALT_LEN],
    nonce: [u8; NONCE_LEN],
    ciphertext: Vec<u8>,
}

impl Envelope {
    fn parse(text: &str) -> CoreResult<Self> {
        if text.len() > MAX_ENVELOPE_LEN {
            return Err(CoreError::malformed("longer than 1 MiB"));
        }
        let fields: Vec<&str> = text.split('$').collect();
        let [version, kdf, params, salt, nonce, ciphertext, check] = fields[..] else {
            return Err(CoreError::malformed(format!(
                "expected 7 '$'-separated fields, found {}",
                fields.len()
            )));
        };
        let body = &text[..text.len() - check.len() - 1];
        if decode(check, "check")? != checksum(body) {
            return Err(CoreError::malformed("check does not match: the envelope is damaged or truncated"));
        }
        if version != VERSION_FIELD {
            return Err(CoreError::malformed("unsupported envelope version"));
        }
        if kdf != KDF_NAME {
            return Err(CoreError::malformed("unsupported key derivation function"));
        }
        let params = parse_params(params)?;
        params.validate().map_err(CoreError::Malformed)?;
        let salt = decode_fixed::<SALT_LEN>(salt, "salt")?;
        let nonce = decode_fixed::<NONCE_LEN>(nonce, "nonce")?;
        let ciphertext = decode(ciphertext, "ciphertext")?;
        if ciphertext.len() < TAG_LEN {
            return Err(CoreError::malformed("ciphertext shorter than the authentication tag"));
        }
        Ok(Envelope { params, salt, nonce, ciphertext })
    }

    fn encode(&self) -> String {
        let KdfParams { memory_kib: m, iterations: t, parallelism: p } = self.params;
        let body = format!(
            "{VERSION_FIELD}${KDF_NAME}$m={m},t={t},p={p}${}${}${}",
            URL_SAFE_NO_PAD.encode(self.salt),
            URL_SAFE_NO_PAD.encode(self.nonce),
            URL_SAFE_NO_PAD.encode(&self.ciphertext)
        );
        let check = URL_SAFE_NO_PAD.encode(checksum(&body));
        format!("{body}${check}")
    }
}

fn checksum(body: &str) -> [u8; CHECK_LEN] {
    let digest = Sha256::digest(body.as_bytes());
    let mut check = [0u8; CHECK_LEN];
    check.copy_from_slice(&digest[..CHECK_LEN]);
    check
}

/// Parses `m=<u32>,t=<u32>,p=<u32>` in exactly that order, digits only, no leading zeros, so that one
/// parameter set has exactly one text form.
fn parse_params(text: &str) -> CoreResult<KdfParams> {
    let mut values = [0u32; 3];
    let mut parts = text.split(',');
    for (slot, name) in values.iter_mut().zip(["m=", "t=", "p="]) {
        let part = parts.next().ok_or_else(|| CoreError::malformed("missing KDF parameter"))?;
        let digits = part.strip_prefix(name).ok_or_else(|| CoreError::malformed("bad KDF parameters"))?;
        let canonical = !digits.is_empty()
            && digits.len() <= 10
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !(digits.len() > 1 && digits.starts_with('0'));
        *slot = match digits.parse::<u32>() {
            Ok(v) if canonical => v,
            _ => return Err(CoreError::malformed("bad KDF parameter value")),
        };
    }
    if parts.next().is_some() {
        return Err(CoreError::malformed("unexpected KDF parameter"));
    }
    Ok(KdfParams { memory_kib: values[0], iterations: values[1], parallelism: values[2] })
}

fn decode(text: &str, what: &str) -> CoreResult<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text).map_err(|_| CoreError::malformed(format!("{what} is not base64url")))
}

fn decode_fixed<const N: usize>(text: &str, what: &str) -> CoreResult<[u8; N]> {
    decode(text, what)?.try_into().map_err(|_| CoreError::malformed(format!("{what} must be {N} bytes")))
}

fn random_bytes<const N: usize>() -> CoreResult<[u8; N]> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|_| CoreError::RandomUnavailable)?;
    Ok(buf)
}

/// Runs Argon2id then HKDF-SHA256 and returns the AES-256-GCM cipher (its key schedule is zeroised on
/// drop). All intermediate key material lives in `Zeroizing` buffers.
fn derive_cipher(
    pin: &[u8], user_key: &[u8], platform_uuid: &str, params: KdfParams, salt: &[u8; SALT_LEN],
) -> CoreResult<Aes256Gcm> {
    let argon_params = Params::new(params.memory_kib, params.iterations, params.parallelism, Some(KEY_LEN))
        .map_err(|e| CoreError::KdfFailed(e.to_string()))?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, argon_params);
    let mut ikm = Zeroizing::new(vec![0u8; KEY_LEN + user_key.len()]);
    argon
        .hash_password_into(pin, salt, &mut ikm[..KEY_LEN])
        .map_err(|e| CoreError::KdfFailed(e.to_string()))?;
    ikm[KEY_LEN..].copy_from_slice(user_key);
    let mut info = Vec::with_capacity(INFO_PREFIX.len() + platform_uuid.len());
    info.extend_from_slice(INFO_PREFIX);
    info.extend_from_slice(platform_uuid.as_bytes());
    let mut key = Zeroizing::new([0u8; KEY_LEN]);
    Hkdf::<Sha256>::new(Some(salt), &ikm)
        .expand(&info, &mut key[..])
        .map_err(|_| CoreError::KdfFailed("HKDF output length".into()))?;
    Aes256Gcm::new_from_slice(&key[..]).map_err(|_| CoreError::KdfFailed("AES key length".into()))
}

fn check_secret_inputs(pin: &[u8], platform_uuid: &str, user_key: &[u8]) -> CoreResult<()> {
    if pin.is_empty() {
        return Err(CoreError::invalid("pin must not be empty"));
    }
    if platform_uuid.is_empty() {
        return Err(CoreError::invalid("platform_uuid must not be empty"));
    }
    if user_key.is_empty() {
        return Err(CoreError::invalid("user_trade_token_key must not be empty"));
    }
    Ok(())
}

fn encrypt(cipher: &Aes256Gcm, nonce: &[u8; NONCE_LEN], plaintext: &[u8], aad: &str) -> CoreResult<Vec<u8>> {
    cipher
        .encrypt(&(*nonce).into(), Payload { msg: plaintext, aad: aad.as_bytes() })
        .map_err(|_| CoreError::invalid("plaintext too long for AES-GCM"))
}

fn decrypt(cipher: &Aes256Gcm, env: &Envelope, aad: &str) -> CoreResult<Zeroizing<Vec<u8>>> {
    cipher
        .decrypt(&env.nonce.into(), Payload { msg: &env.ciphertext, aad: aad.as_bytes() })
        .map(Zeroizing::new)
        .map_err(|_| CoreError::WrongPin)
}

/// Encrypts `plaintext` with the default KDF cost ([`KdfParams::DEFAULT`]), a fresh random salt and nonce.
pub fn seal(plaintext: &[u8], pin: &[u8], platform_uuid: &str, user_key: &[u8]) -> CoreResult<String> {
    seal_with_params(plaintext, pin, platform_uuid, user_key, KdfParams::DEFAULT)
}

/// [`seal`] with explicit Argon2id parameters (to raise the cost, or to keep tests fast).
pub fn seal_with_params(
    plaintext: &[u8], pin: &[u8], platform_uuid: &str, user_key: &[u8], params: KdfParams,
) -> CoreResult<String> {
    seal_deterministic(plaintext, pin, platform_uuid, user_key, params, random_bytes()?, random_bytes()?)
}

/// [`seal_with_params`] with a caller-chosen salt and nonce. Known-answer tests only: a nonce must never be
/// reused with the same key.
pub fn seal_deterministic(
    plaintext: &[u8], pin: &[u8], platform_uuid: &str, user_key: &[u8], params: KdfParams,
    salt: [u8; SALT_LEN], nonce: [u8; NONCE_LEN],
) -> CoreResult<String> {
    check_secret_inputs(pin, platform_uuid, user_key)?;
    params.validate().map_err(CoreError::InvalidArgument)?;
    let cipher = derive_cipher(pin, user_key, platform_uuid, params, &salt)?;
    let ciphertext = encrypt(&cipher, &nonce, plaintext, platform_uuid)?;
    Ok(Envelope { params, salt, nonce, ciphertext }.encode())
}

/// Decrypts an envelope. `Malformed` if it cannot be parsed (checked before the KDF runs), `WrongPin` if
/// it does not authenticate under this PIN, platform and user key.
pub fn open(
    envelope: &str, pin: &[u8], platform_uuid: &str, user_key: &[u8],
) -> CoreResult<Zeroizing<Vec<u8>>> {
    let envelope = Envelope::parse(envelope)?;
    let cipher = derive_cipher(pin, user_key, platform_uuid, envelope.params, &envelope.salt)?;
    decrypt(&cipher, &envelope, platform_uuid)
}

/// Re-encrypts under a new PIN (SPEC.md §2 "Change PIN Code"): opens with `old_pin`, seals with `new_pin`,
/// a fresh salt and nonce and the current default cost, so a PIN change also upgrades old envelopes.
pub fn rekey(
    envelope: &str, old_pin: &[u8], new_pin: &[u8], platform_uuid: &str, user_key: &[u8],
) -> CoreResult<String> {
    rekey_with_params(envelope, old_pin, new_pin, platform_uuid, user_key, KdfParams::DEFAULT)
}

/// [`rekey`] with explicit parameters for the new envelope.
pub fn rekey_with_params(
    envelope: &str, old_pin: &[u8], new_pin: &[u8], platform_uuid: &str, user_key: &[u8], params: KdfParams,
) -> CoreResult<String> {
    let plaintext = open(envelope, old_pin, platform_uuid, user_key)?;
    seal_with_params(&plaintext, new_pin, platform_uuid, user_key, params)
}

/// Derives the key once and checks it against the envelope; the returned [`Unlocked`] opens the token
/// again without re-running Argon2id (one KDF for several signed requests).
pub fn unlock(envelope: &str, pin: &[u8], platform_uuid: &str, user_key: &[u8]) -> CoreResult<Unlocked> {
    let envelope = Envelope::parse(envelope)?;
    let cipher = derive_cipher(pin, user_key, platform_uuid, envelope.params, &envelope.salt)?;
    let unlocked = Unlocked { cipher, envelope, platform_uuid: platform_uuid.to_owned() };
    decrypt(&unlocked.cipher, &unlocked.envelope, platform_uuid)?;
    Ok(unlocked)
}

/// An unlocked envelope: the derived AES key (zeroised when this value is dropped) and the envelope it
/// opens. It never stores the plaintext.
pub struct Unlocked {
    cipher: Aes256Gcm,
    envelope: Envelope,
    platform_uuid: String,
}

impl Unlocked {
    /// The plaintext of the current envelope. It authenticated when the handle was made, so this fails
    /// only if memory was corrupted; the error is then `WrongPin`, as for any authentication failure.
    pub fn open(&self) -> CoreResult<Zeroizing<Vec<u8>>> {
        decrypt(&self.cipher, &self.envelope, &self.platform_uuid)
    }

    /// Replaces the content: encrypts `plaintext` under the same key and salt with a fresh nonce, makes the
    /// result this handle's envelope and returns its text.
    pub fn reseal(&mut self, plaintext: &[u8]) -> CoreResult<String> {
        let nonce = random_bytes()?;
        let ciphertext = encrypt(&self.cipher, &nonce, plaintext, &self.platform_uuid)?;
        self.envelope = Envelope { nonce, ciphertext, ..self.envelope.clone() };
        Ok(self.envelope.encode())
    }

    /// The envelope text this handle currently opens.
    pub fn envelope(&self) -> String {
        self.envelope.encode()
    }
}

/// Raw Argon2id (version 0x13) with RFC 9106's optional secret and associated data; exposed so the
/// shipped build can be checked against RFC 9106 §5.3.
pub fn argon2id_raw(
    password: &[u8], salt: &[u8], secret: &[u8], data: &[u8], params: KdfParams, out_len: usize,
) -> CoreResult<Vec<u8>> {
    params.validate().map_err(CoreError::InvalidArgument)?;
    if !(4..=1024).contains(&out_len) {
        return Err(CoreError::invalid("Argon2 output length must be 4..=1024 bytes"));
    }
    let argon_err = |e: argon2::Error| CoreError::invalid(format!("Argon2: {e}"));
    let mut builder = argon2::ParamsBuilder::new();
    builder
        .m_cost(params.memory_kib)
        .t_cost(params.iterations)
        .p_cost(params.parallelism)
        .output_len(out_len);
    if !data.is_empty() {
        builder.data(argon2::AssociatedData::new(data).map_err(argon_err)?);
    }
    let argon_params = builder.build().map_err(argon_err)?;
    let argon = if secret.is_empty() {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, argon_params)
    } else {
        Argon2::new_with_secret(secret, Algorithm::Argon2id, Version::V0x13, argon_params)
            .map_err(argon_err)?
    };
    let mut out = vec![0u8; out_len];
    argon.hash_password_into(password, salt, &mut out).map_err(argon_err)?;
    Ok(out)
}

/// Raw HKDF-SHA256 (RFC 5869); an empty salt means no salt.
pub fn hkdf_raw(ikm: &[u8], salt: &[u8], info: &[u8], out_len: usize) -> CoreResult<Vec<u8>> {
    let mut out = vec![0u8; out_len];
    Hkdf::<Sha256>::new((!salt.is_empty()).then_some(salt), ikm)
        .expand(info, &mut out)
        .map_err(|_| CoreError::invalid("HKDF-SHA256 output must be at most 8160 bytes"))?;
    Ok(out)
}

/// Raw AES-256-GCM encryption with a 96-bit nonce: ciphertext ‖ 16-byte tag.
pub fn aes256gcm_raw(key: &[u8], nonce: &[u8], plaintext: &[u8], aad: &[u8]) -> CoreResult<Vec<u8>> {
    let cipher =
        Aes256Gcm::new_from_slice(key).map_err(|_| CoreError::invalid("AES-256 key must be 32 bytes"))?;
    let nonce: [u8; NONCE_LEN] =
        nonce.try_into().map_err(|_| CoreError::invalid("GCM nonce must be 12 bytes"))?;
    cipher
        .encrypt(&nonce.into(), Payload { msg: plaintext, aad })
        .map_err(|_| CoreError::invalid("plaintext too long for AES-GCM"))
}
