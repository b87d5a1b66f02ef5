//! Generated dictionary entries, the same on every run and machine: what the tests, the
//! criterion bench (`benches/dictionary.rs`) and `scripts/bench-dictionary` (a port of this
//! generator to Python, seed 7) typeset. Invented words, so no licence applies.

use super::{Entry, Sense};

/// A small deterministic generator (an LCG): the same cases every run.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0
    }

    /// Below `n`, from the state's high bits (its low bits repeat soon).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 33) % n as u64) as usize
    }
}

const SYLLABLES: [&str; 24] = [
    "ab", "an", "bel", "cor", "dra", "el", "fen", "gar", "hol", "in", "jus", "kel", "lor", "mon", "nex", "or", "pra",
    "quin", "ros", "sta", "tur", "ul", "ven", "zo",
];
const WORDS: [&str; 40] = [
    "the",
    "of",
    "a",
    "state",
    "condition",
    "being",
    "abandoned",
    "person",
    "who",
    "that",
    "which",
    "small",
    "large",
    "instrument",
    "used",
    "for",
    "measuring",
    "quality",
    "relating",
    "to",
    "characteristic",
    "especially",
    "in",
    "an",
    "manner",
    "formal",
    "remarkable",
    "considerable",
    "agricultural",
    "implement",
    "with",
    "building",
    "water",
    "ancient",
    "ecclesiastical",
    "administration",
    "or",
    "tree",
    "river",
    "mountainous",
];
const POS: [&str; 5] = ["n.", "v.", "adj.", "adv.", "prep."];

/// `count` invented entries from `seed`: headwords of two to four syllables (every 37th
/// with an accented capital first, every 53rd in capitals), one to three senses of 4 to 25
/// words from a 40-word list.
pub fn entries(count: usize, seed: u64) -> Vec<Entry> {
    let mut g = Lcg(seed);
    (0..count)
        .map(|i| {
            let n = 2 + g.below(3);
            let mut headword: String = (0..n).map(|_| SYLLABLES[g.below(SYLLABLES.len())]).collect();
            if i % 37 == 5 {
                headword = format!("É{headword}");
            }
            if i % 53 == 7 {
                headword = headword.to_uppercase();
            }
            let senses = (0..1 + g.below(3))
                .map(|_| {
                    let words = 4 + g.below(22);
                    let mut def: Vec<&str> = (0..words).map(|_| WORDS[g.below(WORDS.len())]).collect();
                    def[0] = "a";
                    Sense { pos: POS[g.below(POS.len())].into(), definition: format!("{}.", def.join(" ")) }
                })
                .collect();
            Entry { headword, senses }
        })
        .collect()
}
