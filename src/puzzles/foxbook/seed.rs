//! The book seed: everything random about a book derives from it.

use super::spec::BookSpec;
use super::GENERATOR_VERSION;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Domain separator, so this MAC can never collide with another use of the same secret.
const DOMAIN: &[u8] = b"puzzlepress/foxbook/book-seed/v1\0";

/// HMAC-SHA256 under `secret` of an unambiguous encoding of (generator version, serial,
/// pages, rows, cols): the domain tag, then the version as u32 LE, the serial's byte length
/// as u64 LE and its UTF-8 bytes, then pages, rows and cols as u32 LE. Pass the serial in
/// its canonical form (`Serial::to_string()`), so equivalent spellings give the same book.
pub fn book_seed(secret: &[u8], serial: &str, spec: BookSpec) -> [u8; 32] {
    book_seed_version(secret, serial, spec, GENERATOR_VERSION)
}

/// [`book_seed`] for generator `version`.
pub fn book_seed_version(secret: &[u8], serial: &str, spec: BookSpec, version: u32) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(DOMAIN);
    mac.update(&version.to_le_bytes());
    mac.update(&(serial.len() as u64).to_le_bytes());
    mac.update(serial.as_bytes());
    for v in [spec.pages, spec.rows, spec.cols] {
        mac.update(&v.to_le_bytes());
    }
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_depends_on_every_input() {
        let s = BookSpec::default();
        let base = book_seed(b"k", "ABC", s);
        assert_eq!(base, book_seed(b"k", "ABC", s));
        assert_ne!(base, book_seed(b"k2", "ABC", s));
        assert_ne!(base, book_seed(b"k", "ABD", s));
        assert_ne!(base, book_seed(b"k", "ABC", BookSpec { pages: 199, ..s }));
        assert_ne!(base, book_seed(b"k", "ABC", BookSpec { rows: 31, ..s }));
        assert_ne!(base, book_seed(b"k", "ABC", BookSpec { cols: 21, ..s }));
        assert_eq!(base, book_seed_version(b"k", "ABC", s, GENERATOR_VERSION));
        assert_ne!(base, book_seed_version(b"k", "ABC", s, 1));
    }
}
