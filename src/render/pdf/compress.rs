//! The three zlib compressors content streams are written with: each layout version keeps
//! the one its documents were first printed with, so their bytes stay the same.

/// How content streams are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Stored as drawn (tests read them).
    None,
    /// miniz at level 1: every PDF but the version 2 interiors, which keeps their bytes.
    Miniz1,
    /// One Huffman block without matches ([`super::huffman`]): smaller than miniz's level 1
    /// on grid pages and several times faster on small streams.
    Huffman,
    /// libdeflate at level 1: the typeset text of dictionaries.
    Libdeflate1,
}

impl Compression {
    pub(super) fn apply(self, content: &[u8]) -> Option<Vec<u8>> {
        match self {
            Compression::None => None,
            Compression::Miniz1 => Some(zlib_level1(content)),
            Compression::Huffman => Some(super::huffman::zlib(content)),
            Compression::Libdeflate1 => Some(libdeflate_level1(content)),
        }
    }
}

/// `compress_to_vec_zlib(content, 1)`, byte for byte, with one compressor a thread reset
/// between streams rather than a fresh one a stream (its tables are ~300 KB to allocate
/// and clear: for small streams that costs more than the compressing).
fn zlib_level1(content: &[u8]) -> Vec<u8> {
    use miniz_oxide::deflate::core::{
        compress_to_output, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
    };
    use std::cell::RefCell;
    thread_local! {
        static COMPRESSOR: RefCell<Box<CompressorOxide>> =
            RefCell::new(Box::new(CompressorOxide::new(create_comp_flags_from_zip_params(1, 15, 0))));
    }
    COMPRESSOR.with_borrow_mut(|c| {
        c.reset();
        let mut out = Vec::with_capacity(content.len() / 2 + 64);
        let (status, _) = compress_to_output(c, content, TDEFLFlush::Finish, |chunk| {
            out.extend_from_slice(chunk);
            true
        });
        assert_eq!(status, TDEFLStatus::Done, "deflating into memory cannot fail");
        out
    })
}

/// `data` zlib-compressed by libdeflate at level 1: faster than level 4 and than miniz at
/// level 1 on the dictionary's one-byte text streams, for a few per cent more bytes.
fn libdeflate_level1(data: &[u8]) -> Vec<u8> {
    use libdeflater::{CompressionLvl, Compressor};
    thread_local! {
        static COMPRESSOR: std::cell::RefCell<Compressor> =
            std::cell::RefCell::new(Compressor::new(CompressionLvl::new(1).expect("1 is a level")));
    }
    // Compressed into a buffer the thread keeps (cleared once, when it grows) and copied
    // out at its size: a buffer of the bound for each stream was cleared each time and
    // kept three times the memory.
    thread_local! {
        static OUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    COMPRESSOR.with_borrow_mut(|c| {
        OUT.with_borrow_mut(|out| {
            let bound = c.zlib_compress_bound(data.len());
            if out.len() < bound {
                out.resize(bound, 0);
            }
            let n = c.zlib_compress(data, out).expect("the bound is enough");
            out[..n].to_vec()
        })
    })
}
