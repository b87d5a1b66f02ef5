//! A fast zlib encoder for small PDF content streams made mostly of a few distinct bytes:
//! the letters of a puzzle grid. One dynamic-Huffman block and no back-references (the
//! letters are random, so matches would be rare and short): each byte costs a table
//! look-up, and a page's stream is about a third of its size, against miniz's level 1 at
//! a little under half, six times faster (miniz pays ~9 µs a stream just to reset its
//! tables; see the README's performance notes).
//!
//! The output is a complete zlib stream (RFC 1950 around RFC 1951) that every inflater
//! reads: the codes are complete, two distance codes exist though none is used (as zlib
//! writes literal-only blocks), and code lengths respect the format's limits.

/// Longest literal/length code, and longest code-length code, that deflate allows.
const MAX_BITS: u8 = 15;
const MAX_CL_BITS: u8 = 7;
/// End of block.
const EOB: usize = 256;
/// The order in which code-length code lengths are sent.
const CL_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// `data` as a zlib stream.
pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut freq = [0u32; 257];
    for &b in data {
        freq[b as usize] += 1;
    }
    freq[EOB] = 1;
    let lit = code_lengths(&freq, MAX_BITS);
    let hlit = lit.iter().rposition(|&l| l > 0).map_or(257, |i| i + 1).max(257);
    // Two one-bit distance codes, never used.
    let dist = [1u8, 1];
    let mut lengths: Vec<u8> = Vec::with_capacity(hlit + dist.len());
    lengths.extend_from_slice(&lit[..hlit]);
    lengths.extend_from_slice(&dist);
    let runs = run_lengths(&lengths);
    let mut cl_freq = [0u32; 19];
    for &(sym, _) in &runs {
        cl_freq[sym as usize] += 1;
    }
    let cl = code_lengths(&cl_freq, MAX_CL_BITS);
    let hclen = CL_ORDER.iter().rposition(|&s| cl[s] > 0).map_or(4, |i| i + 1).max(4);

    let mut w = BitWriter::with_capacity(data.len() / 2 + 128);
    // CMF: deflate with a 32 KiB window; FLG: "fastest", and the check bits.
    w.out.extend_from_slice(&[0x78, 0x01]);
    w.bits(1, 1); // the final block
    w.bits(2, 2); // dynamic Huffman codes
    w.bits((hlit - 257) as u32, 5);
    w.bits((dist.len() - 1) as u32, 5);
    w.bits((hclen - 4) as u32, 4);
    for &s in &CL_ORDER[..hclen] {
        w.bits(cl[s] as u32, 3);
    }
    let cl_codes = canonical_codes(&cl);
    for &(sym, extra) in &runs {
        let (code, len) = cl_codes[sym as usize];
        w.bits(code, len);
        match sym {
            16 => w.bits(extra as u32, 2),
            17 => w.bits(extra as u32, 3),
            18 => w.bits(extra as u32, 7),
            _ => {}
        }
    }
    let codes = canonical_codes(&lit);
    w.symbols(data, &codes);
    let (code, len) = codes[EOB];
    w.bits(code, len);
    let mut out = w.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

/// Code lengths (RLE-coded as deflate sends them): (symbol 0-18, its extra bits' value).
fn run_lengths(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::with_capacity(lengths.len() / 2);
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let run = lengths[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 3 {
            let n = run.min(138);
            out.push(if n >= 11 { (18, (n - 11) as u8) } else { (17, (n - 3) as u8) });
            i += n;
        } else if l != 0 && run >= 4 {
            // The length once, then repeats of it, 3 to 6 at a time.
            out.push((l, 0));
            let n = (run - 1).min(6);
            out.push((16, (n - 3) as u8));
            i += 1 + n;
        } else {
            out.push((l, 0));
            i += 1;
        }
    }
    out
}

/// Huffman code lengths for `freq`, none longer than `limit`: symbols that never occur
/// get 0, and at least two symbols get a code (a one-symbol code is not complete). Ties
/// break by symbol, so the lengths depend on the frequencies alone.
pub(crate) fn code_lengths<const N: usize>(freq: &[u32; N], limit: u8) -> [u8; N] {
    let mut f = *freq;
    let used = f.iter().filter(|&&x| x > 0).count();
    if used < 2 {
        // Give the first unused symbols a count so that two symbols have codes.
        for x in f.iter_mut().filter(|x| **x == 0).take(2 - used) {
            *x = 1;
        }
    }
    loop {
        let lengths = huffman(&f);
        if lengths.iter().all(|&l| l <= limit) {
            return lengths;
        }
        // Flatter counts give shallower trees; every used symbol keeps a count.
        for x in f.iter_mut().filter(|x| **x > 0) {
            *x = x.div_ceil(2);
        }
    }
}

/// Unlimited Huffman code lengths by the two-queue method over the used symbols.
fn huffman<const N: usize>(freq: &[u32; N]) -> [u8; N] {
    let mut leaves: Vec<(u32, usize)> = freq.iter().enumerate().filter(|(_, &f)| f > 0).map(|(s, &f)| (f, s)).collect();
    leaves.sort_unstable();
    let n = leaves.len();
    // Nodes: leaves 0..n by weight, then internal nodes n.. as they are made (which is also
    // by weight), so the two lightest are always at the front of one queue or the other.
    let mut weight: Vec<u64> = Vec::with_capacity(2 * n - 1);
    weight.extend(leaves.iter().map(|&(f, _)| f as u64));
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut leaf, mut inner) = (0, n);
    for node in n..2 * n - 1 {
        let mut pick = [0usize; 2];
        for p in &mut pick {
            // `inner == node`: no internal node is waiting.
            if leaf < n && (inner == node || weight[leaf] <= weight[inner]) {
                *p = leaf;
                leaf += 1;
            } else {
                *p = inner;
                inner += 1;
            }
        }
        weight.push(weight[pick[0]] + weight[pick[1]]);
        parent[pick[0]] = node;
        parent[pick[1]] = node;
    }
    // Depths from the root (the last node) down: a node's parent is made after it.
    let mut depth = vec![0u8; 2 * n - 1];
    for k in (0..2 * n - 2).rev() {
        depth[k] = depth[parent[k]].saturating_add(1);
    }
    let mut lengths = [0u8; N];
    for (k, &(_, s)) in leaves.iter().enumerate() {
        lengths[s] = depth[k];
    }
    lengths
}

/// Canonical codes for `lengths` (RFC 1951, 3.2.2), bit-reversed for LSB-first writing.
fn canonical_codes<const N: usize>(lengths: &[u8; N]) -> [(u32, u8); N] {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    let mut codes = [(0u32, 0u8); N];
    for (s, &l) in lengths.iter().enumerate() {
        if l > 0 {
            codes[s] = (next[l as usize].reverse_bits() >> (32 - l as u32), l);
            next[l as usize] += 1;
        }
    }
    codes
}

/// Bits written least significant first, as deflate packs them.
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    fn with_capacity(bytes: usize) -> Self {
        BitWriter { out: Vec::with_capacity(bytes), acc: 0, n: 0 }
    }

    #[inline(always)]
    fn bits(&mut self, value: u32, len: u8) {
        self.acc |= (value as u64) << self.n;
        self.n += len as u32;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// The codes of `data`'s bytes: the hot loop, with the bit buffer and the output in
    /// locals (not behind `&mut self`) so they stay in registers.
    fn symbols(&mut self, data: &[u8], codes: &[(u32, u8); 257]) {
        let (mut acc, mut n) = (self.acc, self.n);
        let mut out = std::mem::take(&mut self.out);
        // No code is longer than 15 bits: two bytes a symbol at most.
        out.reserve(data.len() * 2 + 4);
        for &b in data {
            let (code, len) = codes[b as usize];
            acc |= (code as u64) << n;
            n += len as u32;
            if n >= 32 {
                out.extend_from_slice(&(acc as u32).to_le_bytes());
                acc >>= 32;
                n -= 32;
            }
        }
        (self.out, self.acc, self.n) = (out, acc, n);
    }

    fn finish(mut self) -> Vec<u8> {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.out
    }
}

/// The zlib checksum (RFC 1950, 8.2).
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    // The most bytes whose sums cannot overflow 32 bits before reducing.
    const NMAX: usize = 5552;
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(NMAX) {
        for &x in chunk {
            a += x as u32;
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rng::Rng;

    fn inflate(z: &[u8]) -> Vec<u8> {
        miniz_oxide::inflate::decompress_to_vec_zlib(z).expect("miniz inflates it")
    }

    #[test]
    fn round_trips() {
        let mut rng = Rng::from_u64(7);
        let grid: Vec<u8> = (0..5000).map(|i| if i % 21 == 20 { b'\n' } else { b"FOX"[rng.index(3)] }).collect();
        let every: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
        let noise: Vec<u8> = (0..4000).map(|_| rng.next_u32() as u8).collect();
        for data in [&b""[..], b"a", b"aaaaaaa", b"ab", &grid, &every, &noise] {
            let z = zlib(data);
            assert_eq!(inflate(&z), data, "{} bytes", data.len());
            // zlib's header check, and the checksum at the end.
            assert_eq!(u16::from_be_bytes([z[0], z[1]]) % 31, 0);
            assert_eq!(z[z.len() - 4..], adler32(data).to_be_bytes());
        }
        // Three letters take under two bits each.
        assert!(zlib(&grid).len() < grid.len() / 4 + 64, "{}", zlib(&grid).len());
    }

    #[test]
    fn skewed_counts_are_limited_to_fifteen_bits() {
        // Fibonacci counts make the deepest unlimited tree: 25 symbols would need 24 bits.
        let mut freq = [0u32; 257];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut().take(25) {
            *f = a;
            (a, b) = (b, a + b);
        }
        assert!(huffman(&freq).iter().any(|&l| l > 15));
        let lengths = code_lengths(&freq, 15);
        assert!(lengths.iter().all(|&l| l <= 15));
        // Complete: the Kraft sum of the used codes is exactly one.
        let kraft: f64 = lengths.iter().filter(|&&l| l > 0).map(|&l| 0.5f64.powi(l as i32)).sum();
        assert_eq!(kraft, 1.0);
        let data: Vec<u8> =
            freq.iter().enumerate().flat_map(|(s, &f)| std::iter::repeat_n(s as u8, f.min(20_000) as usize)).collect();
        assert_eq!(inflate(&zlib(&data)), data);
    }

    #[test]
    fn adler32_matches_the_reference() {
        // RFC 1950's example, and zlib's value for a long run (past NMAX).
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(&[0xFF; 100_000]), miniz_adler(&[0xFF; 100_000]));
    }

    fn miniz_adler(data: &[u8]) -> u32 {
        let z = miniz_oxide::deflate::compress_to_vec_zlib(data, 1);
        u32::from_be_bytes(z[z.len() - 4..].try_into().unwrap())
    }
}
