//! Random ids and secrets, and the hashes under which secrets are stored.

use sha2::{Digest, Sha256};

/// `N` random bytes from the operating system.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The OS random source does not fail on Linux once booted; a failure is fatal for security.
    getrandom::getrandom(&mut b).expect("the operating system's random source failed");
    b
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random 128-bit id, as 32 hex digits: every id in a URL is one.
pub fn new_id() -> String {
    hex(&random_bytes::<16>())
}

/// A random 256-bit secret, as 64 hex digits (session, API and invitation tokens).
pub fn new_token() -> String {
    hex(&random_bytes::<32>())
}

/// The SHA-256 of a token, as stored: a leaked database gives no working token.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `s` looks like an id or token (hex digits only, 32 or 64 of them).
pub fn is_id(s: &str) -> bool {
    (s.len() == 32 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}
