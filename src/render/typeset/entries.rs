//! A dictionary's entries: sorted as a dictionary sorts (the Unicode Collation Algorithm,
//! with the language's own order where it has one: ICU4X's collator; case and accents
//! count only after the letters), grouped in sections by initial letter (accents folded: É
//! under E, but Spanish Ñ and Swedish Å head their own), homographs numbered, and each
//! entry as the styled text of its paragraph.

use icu_collator::options::{AlternateHandling, CollatorOptions, Strength};
use icu_collator::{Collator, CollatorBorrowed};
use unicode_normalization::UnicodeNormalization;

use super::hyphenate::Language;
use super::paragraph::Span;
use crate::render::fonts::serif::{missing, Style};

/// One sense of an entry: its part of speech (`v.`, `n.`) and definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sense {
    pub pos: String,
    pub definition: String,
}

/// An entry as given: a headword and its senses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub headword: String,
    pub senses: Vec<Sense>,
}

/// Why an entry cannot be set: it is empty somewhere, longer than a book prints, or has
/// characters the font lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryError {
    /// Its index in the entries as given.
    pub index: usize,
    /// Its headword, cut short if long (it is echoed to whoever sent it).
    pub headword: String,
    /// The member at fault within the entry (`headword`, `senses[1].definition`), or empty
    /// for the entry as a whole.
    pub field: String,
    pub detail: String,
}

/// Characters of a member printed as a line: a headword (a running head prints it on one
/// line with the rule under it) or a part of speech.
pub const MAX_LINE_CHARS: usize = 100;

/// Characters of a member printed as a paragraph: a definition, a paragraph of the preface
/// (some thirty pages of a pocket book's columns).
pub const MAX_PARAGRAPH_CHARS: usize = 100_000;

/// The characters of `text` if more than `max` (counted only when its bytes are more).
pub fn too_long(text: &str, max: usize) -> Option<usize> {
    (text.len() > max).then(|| text.chars().count()).filter(|&n| n > max)
}

/// `text` as echoed in an error: its first few characters.
pub fn shortened(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "entry {} ({:?}): {}", self.index + 1, self.headword, self.detail)
    }
}

impl Entry {
    /// Checks that the entry has a headword and senses with definitions, in characters the
    /// font has.
    pub fn check(&self, index: usize) -> Result<(), EntryError> {
        let err_in = |field: String, detail: String| {
            Err(EntryError { index, headword: shortened(&self.headword), field, detail })
        };
        let err = |detail: String| err_in(String::new(), detail);
        if let Some(n) = too_long(&self.headword, MAX_LINE_CHARS) {
            return err_in(
                "headword".into(),
                format!("the headword is {n} characters long; a headword is at most {MAX_LINE_CHARS}"),
            );
        }
        if self.headword.trim().is_empty() {
            return err("the headword is empty".into());
        }
        if self.senses.is_empty() {
            return err("an entry needs at least one sense".into());
        }
        if self.senses.len() > MAX_SENSES {
            return err(format!("{} senses; an entry has at most {MAX_SENSES}", self.senses.len()));
        }
        for (j, s) in self.senses.iter().enumerate() {
            if let Some(n) = too_long(&s.pos, MAX_LINE_CHARS) {
                return err_in(
                    format!("senses[{j}].pos"),
                    format!("sense {}'s part of speech is {n} characters long; one is at most {MAX_LINE_CHARS}", j + 1),
                );
            }
            if let Some(n) = too_long(&s.definition, MAX_PARAGRAPH_CHARS) {
                return err_in(
                    format!("senses[{j}].definition"),
                    format!(
                        "sense {}'s definition is {n} characters long; one is at most {MAX_PARAGRAPH_CHARS}",
                        j + 1
                    ),
                );
            }
        }
        if let Some(i) = self.senses.iter().position(|s| s.definition.trim().is_empty()) {
            return err(format!("sense {} has no definition", i + 1));
        }
        // In the order met, each once.
        let mut seen = std::collections::HashSet::new();
        let texts = std::iter::once(&self.headword).chain(self.senses.iter().flat_map(|s| [&s.pos, &s.definition]));
        // Control characters have glyphs in no font; whitespace other than spaces is a space.
        let lacking: Vec<char> =
            texts.flat_map(|t| missing(t)).filter(|c| !c.is_whitespace() && seen.insert(*c)).collect();
        if !lacking.is_empty() {
            return err(format!("the font has no glyph for {}", list_chars(&lacking)));
        }
        Ok(())
    }
}

/// Senses one entry may have.
pub const MAX_SENSES: usize = 64;

/// Characters as `'東' (U+6771)`, the first few of many.
pub fn list_chars(chars: &[char]) -> String {
    const SHOWN: usize = 8;
    let mut list: Vec<String> = chars.iter().take(SHOWN).map(|c| format!("{c:?} (U+{:04X})", *c as u32)).collect();
    if chars.len() > SHOWN {
        list.push(format!("and {} more", chars.len() - SHOWN));
    }
    list.join(", ")
}

/// A line of an entry list that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based.
    pub line: usize,
    pub detail: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.detail)
    }
}

/// Entries written one a line, `headword;pos;definition` with further `;pos;definition`
/// pairs for more senses (blank lines are skipped). Each entry is also
/// [checked](Entry::check): a line at fault is named by its number.
pub fn parse_lines(text: &str) -> Result<Vec<Entry>, LineError> {
    parse_from(text, 1, text.bytes().filter(|&b| b == b'\n').count() + 1)
}

/// [`parse_lines`] on the cores there are: the text cut at line ends into pieces parsed
/// each on its own, the same entries and the same first line at fault.
pub fn parse_lines_in_parallel(text: &str) -> Result<Vec<Entry>, LineError> {
    const PIECES: usize = 32;
    let mut pieces: Vec<&str> = Vec::with_capacity(PIECES);
    let mut rest = text;
    while !rest.is_empty() {
        let cut = rest.len().min(text.len().div_ceil(PIECES).max(1));
        let end = rest.as_bytes()[cut..].iter().position(|&b| b == b'\n').map_or(rest.len(), |i| cut + i + 1);
        let (piece, after) = rest.split_at(end);
        pieces.push(piece);
        rest = after;
    }
    // Each piece's lines counted where it is parsed (counted here, they were a sixth of
    // the parse's time), its lines numbered from 1 there and from the pieces before it here.
    let parsed = crate::parallel::in_parallel(&pieces, |piece| {
        let lines = piece.bytes().filter(|&b| b == b'\n').count() + 1;
        (parse_from(piece, 1, lines), lines)
    });
    let mut out = Vec::with_capacity(parsed.iter().map(|p| p.0.as_ref().map_or(0, Vec::len)).sum());
    let mut before = 0;
    for (piece, lines) in parsed {
        out.extend(piece.map_err(|e| LineError { line: before + e.line, ..e })?);
        // Every piece but the last ends with its line's end.
        before += lines - 1;
    }
    Ok(out)
}

/// Entries of `text`, whose first line is line `first` of what was given and which has at
/// most `lines` lines.
fn parse_from(text: &str, first: usize, lines: usize) -> Result<Vec<Entry>, LineError> {
    let mut out = Vec::with_capacity(lines);
    // One list of a line's fields for every line.
    let mut fields: Vec<&str> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = first + i;
        if line.trim().is_empty() {
            continue;
        }
        let err = |detail: String| LineError { line: line_no, detail };
        fields.clear();
        fields.extend(line.split(';').map(str::trim));
        if fields.len() < 3 || fields.len().is_multiple_of(2) {
            return Err(err(format!(
                "expected headword;pos;definition with further ;pos;definition pairs, found {} field{}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            )));
        }
        let senses = fields[1..]
            .chunks(2)
            .map(|pair| Sense { pos: pair[0].to_string(), definition: pair[1].to_string() })
            .collect();
        let entry = Entry { headword: fields[0].to_string(), senses };
        entry.check(0).map_err(|e| err(e.detail))?;
        out.push(entry);
    }
    Ok(out)
}

/// An entry in its place: its homograph number (1, 2, … when several entries share the
/// headword) and its text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed<'a> {
    /// Index in the entries as given.
    pub index: usize,
    /// The headword, trimmed.
    pub headword: &'a str,
    pub homograph: Option<usize>,
}

/// A section: entries whose headwords begin with the same letter.
#[derive(Clone, Debug, PartialEq)]
pub struct Section<'a> {
    /// The letter as headed (capital, accents folded), `#` for digits and symbols.
    pub letter: String,
    pub entries: Vec<Placed<'a>>,
}

/// The section an entry goes under: the first letter of its headword, capital, without
/// accents; letters the root collation sorts as variants of another (Æ, Ø, Ł, …) go under
/// that letter.
pub fn initial(headword: &str) -> String {
    let Some(first) = headword.trim().nfd().find(|c| !is_combining(*c)) else {
        return "#".into();
    };
    let folded = match first {
        'Æ' | 'æ' => 'A',
        'Ø' | 'ø' => 'O',
        'Œ' | 'œ' => 'O',
        'Ł' | 'ł' => 'L',
        'Đ' | 'đ' | 'Ð' | 'ð' => 'D',
        'Ħ' | 'ħ' => 'H',
        'ß' => 'S',
        'ı' => 'I',
        'ĸ' => 'K',
        'Ŀ' | 'ŀ' => 'L',
        'Ŋ' | 'ŋ' => 'N',
        'Ŧ' | 'ŧ' => 'T',
        'ſ' => 'S',
        c => c,
    };
    if folded.is_alphabetic() {
        folded.to_uppercase().collect()
    } else {
        "#".into()
    }
}

fn is_combining(c: char) -> bool {
    ('\u{300}'..='\u{36F}').contains(&c)
}

/// The language's collation compared up to `strength`, spaces and punctuation ignored
/// (shifted: `well-being` sorts as `wellbeing`; the caller breaks such ties); the root
/// collation (the Unicode default, which English uses) where the language has no order of
/// its own.
fn collator(language: Language, strength: Strength) -> CollatorBorrowed<'static> {
    let mut options = CollatorOptions::default();
    options.strength = Some(strength);
    options.alternate_handling = Some(AlternateHandling::Shifted);
    let locale = icu_locale_core::Locale::try_from_str(language.code()).unwrap_or(icu_locale_core::Locale::UNKNOWN);
    Collator::try_new(locale.into(), options)
        .or_else(|_| Collator::try_new(Default::default(), options))
        .expect("the root collation is compiled in")
}

/// `text`'s sort key by `collator`: keys compare as bytes in the collation's order.
fn sort_key(collator: &CollatorBorrowed, text: &str) -> Vec<u8> {
    let mut key = Vec::with_capacity(4 * text.len() + 8);
    let Ok(()) = collator.write_sort_key_to(text, &mut key);
    key
}

/// Each entry as given, in place: its headword trimmed, numbered (1, 2, … in the order
/// given) where several entries share it. Made before the entries are sorted, so that
/// they can be set while they are sorted (a paragraph is the same wherever it falls).
pub fn placed(entries: &[Entry]) -> Vec<Placed<'_>> {
    let mut placed: Vec<Placed> = entries
        .iter()
        .enumerate()
        .map(|(index, e)| Placed { index, headword: e.headword.trim(), homograph: None })
        .collect();
    // (entries with the word, those numbered so far): little fresh memory, on the thread
    // the setting waits for.
    let mut seen: foldhash::HashMap<&str, (u32, u32)> =
        foldhash::HashMap::with_capacity_and_hasher(placed.len(), Default::default());
    for p in &placed {
        seen.entry(p.headword).or_default().0 += 1;
    }
    for p in &mut placed {
        let (count, numbered) = seen.get_mut(p.headword).expect("counted above");
        if *count > 1 {
            *numbered += 1;
            p.homograph = Some(*numbered as usize);
        }
    }
    placed
}

/// The entries [`placed`] in dictionary order by `language`'s collation, in sections.
/// Equal headwords keep their given order (as they are numbered).
pub fn sort<'a>(placed: &[Placed<'a>], language: Language) -> Vec<Section<'a>> {
    let words: Vec<&str> = placed.iter().map(|p| p.headword).collect();
    let order = order(&words, language);
    let mut letters = Letters::new(language);
    let mut sections: Vec<Section> = Vec::new();
    // Where each section begins in `order`: its entries are then put in a vector of their
    // count (grown as they came, the sections' vectors passed through every size).
    let mut begins = Vec::new();
    let mut last: Option<&str> = None;
    for (at, &index) in order.iter().enumerate() {
        let word = words[index];
        // Equal headwords are one after another: the letter of the first serves them all.
        if last != Some(word) {
            let letter = letters.of(word);
            // A letter the collation puts among another's (a symbol inside a word list of
            // letters, or Danish AA among the Å) joins the section it falls in rather than
            // heading a second time.
            if sections.last().is_none_or(|s| s.letter != letter) && !sections.iter().any(|s| s.letter == letter) {
                sections.push(Section { letter: letter.to_string(), entries: Vec::new() });
                begins.push(at);
            }
            last = Some(word);
        }
    }
    begins.push(order.len());
    for (section, span) in sections.iter_mut().zip(begins.windows(2)) {
        section.entries = order[span[0]..span[1]].iter().map(|&index| placed[index]).collect();
    }
    sections
}

/// The indices of `words` in `language`'s collation order, to the third level (letters,
/// accents, case), then by where the signs are and how the text is encoded (its bytes),
/// then as given: a total order, so equal headwords keep their order.
///
/// In English, words of ASCII letters alone are ordered without sort keys (making one was
/// 3,700 instructions a word, a millisecond for the bench's 2,000 on the thread that sorts
/// beside the setting): by their letters, case folded, then by case, lower first, letter by
/// letter, as the keys order them (test `plain_words_sort_as_their_keys_do`). The other
/// words, when they are few, are ordered by their keys and each placed among those by a
/// binary search with the collator's comparison; when they are many, every word is
/// ordered by its key.
fn order(words: &[&str], language: Language) -> Vec<usize> {
    let tertiary = collator(language, Strength::Tertiary);
    let plain = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic());
    let (fast, others): (Vec<usize>, Vec<usize>) =
        (0..words.len()).partition(|&i| language == Language::ENGLISH && plain(words[i]));
    if others.len() * 16 > fast.len() {
        return by_keys(words, (0..words.len()).collect(), &tertiary);
    }
    // By the first eight letters folded as a number first (compared in place), then whole.
    let mut fast: Vec<(u64, usize)> = fast
        .into_iter()
        .map(|i| (u64::from_be_bytes(prefix(words[i].as_bytes()).to_be_bytes().map(|b| b.to_ascii_lowercase())), i))
        .collect();
    fast.sort_unstable_by(|&(p, a), &(q, b)| p.cmp(&q).then_with(|| plain_order(words[a], words[b])).then(a.cmp(&b)));
    let mut out = Vec::with_capacity(words.len());
    let mut from = 0;
    for other in by_keys(words, others, &tertiary) {
        // The collator's comparison, which stops at the first difference, orders as its
        // keys do (test `sorted_as_the_collator_orders_them`), costs less than a key.
        let goes_before = |&(_, p): &(u64, usize)| {
            tertiary
                .compare(words[other], words[p])
                .then_with(|| words[other].cmp(words[p]))
                .then(other.cmp(&p))
                .is_lt()
        };
        let at = from + fast[from..].partition_point(|p| !goes_before(p));
        out.extend(fast[from..at].iter().map(|&(_, i)| i));
        out.push(other);
        from = at;
    }
    out.extend(fast[from..].iter().map(|&(_, i)| i));
    out
}

/// Two words of ASCII letters in the root collation's order: their letters (case folded),
/// then their case letter by letter (lower first). Equal only when they are.
fn plain_order(a: &str, b: &str) -> std::cmp::Ordering {
    let folded = a.bytes().map(|c| c.to_ascii_lowercase()).cmp(b.bytes().map(|c| c.to_ascii_lowercase()));
    folded.then_with(|| a.bytes().map(|c| c.is_ascii_uppercase()).cmp(b.bytes().map(|c| c.is_ascii_uppercase())))
}

/// The first eight of `bytes` as a number, padded with zeros (the least byte): numbers
/// order as the byte strings they begin do, where they differ in those eight.
fn prefix(bytes: &[u8]) -> u64 {
    let mut first = [0u8; 8];
    let n = bytes.len().min(8);
    first[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(first)
}

/// `indices` of `words` ordered by their sort keys by `collator`, then by their bytes, then
/// as given. Each key is made once and compared as bytes (feruca's comparison, used before,
/// was not a total order for some words with signs, and a comparison that is not can make
/// a sort panic); all in one buffer.
fn by_keys(words: &[&str], indices: Vec<usize>, collator: &CollatorBorrowed) -> Vec<usize> {
    let mut bytes = Vec::with_capacity(indices.iter().map(|&i| 4 * words[i].len() + 8).sum());
    let mut ends = Vec::with_capacity(indices.len() + 1);
    ends.push(0);
    for &i in &indices {
        let Ok(()) = collator.write_sort_key_to(words[i], &mut bytes);
        ends.push(bytes.len());
    }
    let keys: Vec<&[u8]> = ends.windows(2).map(|e| &bytes[e[0]..e[1]]).collect();
    // Sorted by each key's first eight bytes as a number, and where those are equal by the
    // whole key: comparing numbers in place took a third of the time of comparing the keys
    // behind their pointers.
    let mut order: Vec<(u64, usize)> = keys.iter().enumerate().map(|(k, key)| (prefix(key), k)).collect();
    order.sort_unstable_by(|&(p, a), &(q, b)| {
        let (i, j) = (indices[a], indices[b]);
        p.cmp(&q).then_with(|| keys[a].cmp(keys[b]).then_with(|| words[i].cmp(words[j])).then(i.cmp(&j)))
    });
    order.into_iter().map(|(_, k)| indices[k]).collect()
}

/// Section letters in a language: [`initial`], except for the letters its collation
/// orders apart from the root collation's: a letter of its own alphabet (Spanish Ñ,
/// Swedish Å Ä Ö, Polish Ł) heads its own section, and one it sorts as another letter
/// (Swedish Ü as Y) goes under that letter.
struct Letters {
    primary: CollatorBorrowed<'static>,
    root: CollatorBorrowed<'static>,
    /// The heading of each initial met (an alphabet's worth), by its first character and
    /// the combining marks after it.
    known: Vec<(String, String)>,
}

impl Letters {
    fn new(language: Language) -> Letters {
        Letters {
            primary: collator(language, Strength::Primary),
            root: collator(Language::ENGLISH, Strength::Primary),
            known: Vec::new(),
        }
    }

    fn of(&mut self, headword: &str) -> &str {
        let word = headword.trim();
        let Some(c) = word.chars().next() else { return "#" };
        let marks = word[c.len_utf8()..].chars().take_while(|c| is_combining(*c)).map(char::len_utf8).sum::<usize>();
        let first = &word[..c.len_utf8() + marks];
        let at = match self.known.iter().position(|(f, _)| f == first) {
            Some(at) => at,
            None => {
                let letter = self.heading(first, word);
                self.known.push((first.to_string(), letter));
                self.known.len() - 1
            }
        };
        &self.known[at].1
    }

    fn heading(&self, first: &str, word: &str) -> String {
        let lower: String = first.nfc().flat_map(char::to_lowercase).collect();
        let own = sort_key(&self.primary, &lower);
        if !lower.chars().all(char::is_alphabetic) || own == sort_key(&self.root, &lower) {
            return initial(word);
        }
        match ('a'..='z').find(|l| sort_key(&self.primary, l.encode_utf8(&mut [0; 4])) == own) {
            Some(l) => l.to_ascii_uppercase().to_string(),
            None => lower.to_uppercase(),
        }
    }
}

/// `n` in superscript digits.
pub fn superscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string().chars().map(|d| DIGITS[d.to_digit(10).unwrap_or(0) as usize]).collect()
}

/// The headword as printed: with its homograph number.
pub fn printed_headword(placed: &Placed) -> String {
    match placed.homograph {
        Some(n) => format!("{}{}", placed.headword, superscript(n)),
        None => placed.headword.to_string(),
    }
}

/// `text` with its words parted by single spaces (borrowed when they already are).
fn single_spaced(text: &str) -> std::borrow::Cow<'_, str> {
    // Most definitions are ASCII and already single spaced: a byte scan says so.
    let ascii_single = text.is_ascii()
        && !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.contains("  ")
        && !text.bytes().any(|b| matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'));
    if ascii_single || !text.split(' ').any(|w| w.is_empty() || w.contains(char::is_whitespace)) {
        text.into()
    } else {
        text.split_whitespace().collect::<Vec<_>>().join(" ").into()
    }
}

/// `n.`, a sense's number: borrowed from a table made once for the numbers an entry may
/// have (formatted at each, 0.7 % of a dictionary's instructions).
fn sense_number(n: usize) -> std::borrow::Cow<'static, str> {
    static NUMBERS: std::sync::LazyLock<Vec<String>> =
        std::sync::LazyLock::new(|| (1..=MAX_SENSES).map(|n| format!("{n}.")).collect());
    match n.checked_sub(1).and_then(|i| NUMBERS.get(i)) {
        Some(s) => s.as_str().into(),
        None => format!("{n}.").into(),
    }
}

/// The styled text of an entry: the headword bold (never hyphenated; the first span, as
/// [`printed_headword`] gives it), then each sense's part of speech in italics and its
/// definition, numbered `1.` `2.` when there are several.
pub fn spans<'a>(entry: &'a Entry, placed: &Placed) -> Vec<Span<'a>> {
    let mut out = Vec::with_capacity(1 + 6 * entry.senses.len());
    out.push(Span::whole(Style::Bold, printed_headword(placed)));
    let several = entry.senses.len() > 1;
    for (i, sense) in entry.senses.iter().enumerate() {
        out.push(Span::new(Style::Regular, " "));
        if several {
            out.push(Span::whole(Style::Bold, sense_number(i + 1)));
            out.push(Span::new(Style::Regular, " "));
        }
        let pos = sense.pos.trim();
        if !pos.is_empty() {
            out.push(Span::whole(Style::Italic, pos));
            out.push(Span::new(Style::Regular, " "));
        }
        out.push(Span::new(Style::Regular, single_spaced(&sense.definition)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(headword: &str) -> Entry {
        Entry { headword: headword.into(), senses: vec![Sense { pos: "n.".into(), definition: "a thing".into() }] }
    }

    #[test]
    fn sorted_ignoring_case_and_accents_first() {
        let words = ["zebra", "Émile", "apple", "Ernie", "éclair", "Eclair", "abandon", "Apple", "peña", "peng", "Zoë"];
        let entries: Vec<Entry> = words.iter().map(|w| entry(w)).collect();
        let sections = sort(&placed(&entries), Language::ENGLISH);
        let order: Vec<&str> = sections.iter().flat_map(|s| s.entries.iter().map(|e| e.headword)).collect();
        assert_eq!(
            order,
            ["abandon", "apple", "Apple", "Eclair", "éclair", "Émile", "Ernie", "peña", "peng", "zebra", "Zoë"]
        );
        let letters: Vec<&str> = sections.iter().map(|s| s.letter.as_str()).collect();
        assert_eq!(letters, ["A", "E", "P", "Z"]);
        assert!(sections.iter().flat_map(|s| &s.entries).all(|e| e.homograph.is_none()));
    }

    /// Every word of up to three letters from a, b, B, e, é, É, ë, n, ñ, z (precomposed
    /// and not), hyphens, æ and ß; every letter of Latin-1 and Latin Extended-A between
    /// two letters; shuffled by `seed`.
    fn test_words(seed: u64) -> Vec<String> {
        let alphabet = ["a", "b", "B", "e", "é", "É", "e\u{301}", "ë", "n", "ñ", "z", "-", "æ", "ß"];
        let mut words = vec![String::new()];
        for len in 1..=3 {
            let last: Vec<String> = words.iter().filter(|w| w.chars().count() == len - 1).cloned().collect();
            words.extend(last.iter().flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}"))));
        }
        words.extend(('\u{C0}'..='\u{17F}').filter(|c| c.is_alphabetic()).map(|c| format!("n{c}n")));
        words.retain(|w| !w.trim().is_empty());
        let mut generator = crate::render::typeset::sample::Lcg(seed);
        for i in (1..words.len()).rev() {
            words.swap(i, generator.below(i + 1));
        }
        words
    }

    fn sorted_words(words: &[String], language: Language) -> Vec<String> {
        let entries: Vec<Entry> = words.iter().map(|w| entry(w)).collect();
        sort(&placed(&entries), language)
            .iter()
            .flat_map(|s| s.entries.iter().map(|e| e.headword.to_string()))
            .collect()
    }

    #[test]
    fn sorted_as_the_collator_orders_them() {
        let words = test_words(7);
        let sorted = sorted_words(&words, Language::ENGLISH);
        // The collator's own comparison (not its sort keys) agrees, pair by pair.
        let collator = collator(Language::ENGLISH, Strength::Tertiary);
        for pair in sorted.windows(2) {
            let o = collator.compare(&pair[0], &pair[1]).then_with(|| pair[0].cmp(&pair[1]));
            assert_ne!(o, std::cmp::Ordering::Greater, "{:?} before {:?}", pair[0], pair[1]);
        }
        let (mut given, mut got) = (words.clone(), sorted.clone());
        given.sort();
        got.sort();
        assert_eq!(got, given, "every word once");
    }

    #[test]
    fn plain_words_sort_as_their_keys_do() {
        // Every word of up to four letters from a, b, z and their capitals, some twice
        // (homographs keep their order), among a few others (accents, signs, spaces,
        // digits): few enough to be placed among the plain words one by one.
        let alphabet = ["a", "b", "z", "A", "B", "Z"];
        let mut words = vec![String::new()];
        for len in 1..=4 {
            let last: Vec<String> = words.iter().filter(|w| w.len() == len - 1).cloned().collect();
            words.extend(last.iter().flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}"))));
        }
        words.retain(|w| !w.is_empty());
        words.extend(["ab", "Ab", "ab", "ZZ", "a"].map(String::from));
        let plain = words.len();
        let others = [
            "é",
            "É",
            "b-",
            "-B",
            "a b",
            "ab\u{301}",
            "zz'",
            "ß",
            "æ",
            "Ænd",
            "a1",
            "B2",
            "ñ",
            "zé",
            "Z-z",
            "aé",
            "ǅ",
            "ab-",
            "AB-",
            " a",
            "Ab ",
            "éa",
            "ZÉ",
            "0",
            "·",
            "b\u{A0}a",
            "a.b",
            "ĳ",
            "z\u{308}",
            "Á",
        ];
        words.extend(others.map(String::from));
        assert!(others.len() * 16 <= plain, "the plain words' own order is used");
        for seed in [1, 2] {
            let mut words = words.clone();
            let mut generator = crate::render::typeset::sample::Lcg(seed);
            for i in (1..words.len()).rev() {
                words.swap(i, generator.below(i + 1));
            }
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let keyed = by_keys(&words, (0..words.len()).collect(), &collator(Language::ENGLISH, Strength::Tertiary));
            let shown = |order: Vec<usize>| order.into_iter().map(|i| (words[i], i)).collect::<Vec<_>>();
            assert_eq!(shown(order(&words, Language::ENGLISH)), shown(keyed), "seed {seed}");
        }
    }

    #[test]
    fn the_order_is_total_whatever_the_words_order() {
        // feruca ordered "B" before "b-" and "b-" before "B": a sort then depends on where
        // the words start (and may panic). The same words in any order sort the same.
        let first = sorted_words(&test_words(7), Language::ENGLISH);
        for seed in [1, 2, 3] {
            assert_eq!(sorted_words(&test_words(seed), Language::ENGLISH), first, "seed {seed}");
        }
        let b: Vec<String> =
            first.iter().filter(|w| w.eq_ignore_ascii_case("b") || *w == "b-" || *w == "-B").cloned().collect();
        // Equal letters: lower case first, then where the sign is.
        assert_eq!(b, ["b", "b-", "-B", "B"]);
    }

    #[test]
    fn sorted_and_sectioned_by_the_language() {
        let words = ["nuez", "ñu", "oso", "zon", "år", "ärger", "azur", "über", "yxa", "Łódź", "lz", "ma"];
        let entries: Vec<Entry> = words.iter().map(|w| entry(w)).collect();
        let layout = |code: &str| {
            let sections = sort(&placed(&entries), Language::from_code(code).unwrap());
            sections
                .iter()
                .map(|s| {
                    format!("{}: {}", s.letter, s.entries.iter().map(|e| e.headword).collect::<Vec<_>>().join(" "))
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            layout("en"),
            ["A: år ärger azur", "L: Łódź lz", "M: ma", "N: ñu nuez", "O: oso", "U: über", "Y: yxa", "Z: zon"]
        );
        // Spanish: Ñ is a letter after N.
        assert_eq!(layout("es")[3..5], ["N: nuez".to_string(), "Ñ: ñu".to_string()]);
        // Swedish: Å, Ä (and Ö) after Z; Ü sorts as Y.
        assert_eq!(
            layout("sv"),
            ["A: azur", "L: Łódź lz", "M: ma", "N: ñu nuez", "O: oso", "Y: über yxa", "Z: zon", "Å: år", "Ä: ärger"]
        );
        // Polish: Ł after L.
        assert!(layout("pl").contains(&"Ł: Łódź".to_string()), "{:?}", layout("pl"));
        // Every language with hyphenation patterns sorts (by the root order where the
        // collator has no data of its own).
        let codes = (b'a'..=b'z').flat_map(|a| (b'a'..=b'z').map(move |b| String::from_utf8(vec![a, b]).unwrap()));
        let languages: Vec<Language> = codes.filter_map(|code| Language::from_code(&code)).collect();
        assert!(languages.len() > 20);
        for language in languages {
            assert_eq!(sort(&placed(&entries), language).iter().map(|s| s.entries.len()).sum::<usize>(), words.len());
        }
    }

    #[test]
    fn homographs_are_numbered_in_given_order() {
        let mut entries = vec![entry("bass"), entry("bar"), entry("bass"), entry("Ætna"), entry("1984")];
        entries[2].senses[0].definition = "a fish".into();
        let sections = sort(&placed(&entries), Language::ENGLISH);
        let all: Vec<&Placed> = sections.iter().flat_map(|s| &s.entries).collect();
        let basses: Vec<(usize, Option<usize>)> =
            all.iter().filter(|p| p.headword == "bass").map(|p| (p.index, p.homograph)).collect();
        assert_eq!(basses, [(0, Some(1)), (2, Some(2))]);
        assert_eq!(printed_headword(all.iter().find(|p| p.index == 2).unwrap()), "bass²");
        assert_eq!(sections.iter().map(|s| s.letter.as_str()).collect::<Vec<_>>(), ["#", "A", "B"]);
        assert_eq!(superscript(12), "¹²");
    }

    #[test]
    fn homographs_are_numbered_before_sorting_as_sorted() {
        // Entries placed in the order given (to be set while they are sorted) carry the
        // numbers their sorted runs of equal headwords would give them, whatever the order:
        // shuffled words, many of them repeated, some with spaces around.
        let mut generator = crate::render::typeset::sample::Lcg(11);
        let pool = ["bass", "Bass", "bäss", "bar", " bass", "bass ", "1984", "ætna"];
        let entries: Vec<Entry> = (0..300).map(|_| entry(pool[generator.below(pool.len())])).collect();
        let placed = placed(&entries);
        let sections = sort(&placed, Language::ENGLISH);
        let sorted: Vec<&Placed> = sections.iter().flat_map(|s| &s.entries).collect();
        assert_eq!(sorted.len(), entries.len());
        for (k, run) in sorted.chunk_by(|a, b| a.headword == b.headword).enumerate() {
            for (i, p) in run.iter().enumerate() {
                assert_eq!(**p, placed[p.index], "run {k}");
                let number = (run.len() > 1).then_some(i + 1);
                assert_eq!(p.homograph, number, "{:?} at {} of its run", p.headword, i + 1);
                assert!(i == 0 || run[i - 1].index < p.index, "given order kept");
            }
        }
        // The pool's words are each one run (equal headwords, once trimmed).
        assert_eq!(sorted.chunk_by(|a, b| a.headword == b.headword).count(), 6);
    }

    #[test]
    fn initials_fold_accents() {
        for (w, l) in [("Élan", "E"), ("über", "U"), ("Łódź", "L"), ("æsthete", "A"), ("'tis", "#"), ("ñu", "N")]
        {
            assert_eq!(initial(w), l, "{w}");
        }
    }

    #[test]
    fn entries_are_checked() {
        assert!(entry("naïve").check(0).is_ok());
        let e = entry("日本").check(4).unwrap_err();
        assert_eq!((e.index, e.headword.as_str()), (4, "日本"));
        assert!(e.detail.contains("U+65E5") && e.to_string().starts_with("entry 5"), "{e}");
        assert!(entry(" ").check(0).is_err());
        assert!(Entry { headword: "x".into(), senses: vec![] }.check(0).is_err());
        let mut bad = entry("x");
        bad.senses[0].definition = "snow ☃".into();
        assert!(bad.check(0).unwrap_err().detail.contains('☃'));
    }

    #[test]
    fn members_longer_than_a_book_prints_are_refused_by_name() {
        // At the caps, set; past them, refused naming the member, the headword echoed short.
        let mut at_cap = entry(&"w".repeat(MAX_LINE_CHARS));
        at_cap.senses[0].pos = "p".repeat(MAX_LINE_CHARS);
        at_cap.senses[0].definition = "word ".repeat(MAX_PARAGRAPH_CHARS / 5);
        assert!(at_cap.check(0).is_ok());
        let e = entry(&"w".repeat(2 << 20)).check(3).unwrap_err();
        assert_eq!((e.index, e.field.as_str()), (3, "headword"));
        assert!(e.detail.contains("2097152 characters"), "{e}");
        assert!(e.to_string().len() < 200, "{e}");
        let mut long = at_cap.clone();
        long.senses.push(Sense { pos: "n.".into(), definition: "word ".repeat(MAX_PARAGRAPH_CHARS / 5 + 1) });
        assert_eq!(long.check(0).unwrap_err().field, "senses[1].definition");
        long.senses[0].pos.push('p');
        assert_eq!(long.check(0).unwrap_err().field, "senses[0].pos");
        // A line of text names its number.
        let e = parse_lines(&format!("a;n.;x\n{};n.;y", "w".repeat(MAX_LINE_CHARS + 1))).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.detail.contains("headword is 101 characters"), "{e}");
    }

    #[test]
    fn entry_lines_are_read_or_refused_by_number() {
        let text = "abandon;v.;to leave;n.;freedom\n\n  abbey ; n. ; a monastery \n";
        let entries = parse_lines(text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].senses[1], Sense { pos: "n.".into(), definition: "freedom".into() });
        assert_eq!((entries[1].headword.as_str(), entries[1].senses[0].definition.as_str()), ("abbey", "a monastery"));
        for (text, line, needle) in [
            ("a;n.;x\nb;n.", 2, "found 2 fields"),
            ("a;n.;x\n\nb;n.;y;v.", 3, "found 4 fields"),
            ("a;n.;x\nb", 2, "found 1 field"),
            ("a;n.;  ", 1, "no definition"),
            ("a;n.;x\n;n.;y", 2, "headword is empty"),
            ("a;n.;x\nb;n.;東", 2, "U+6771"),
        ] {
            let e = parse_lines(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.detail.contains(needle), "{text:?}: {e}");
        }
        // A part of speech may be empty.
        assert_eq!(parse_lines("a;;x").unwrap()[0].senses[0].pos, "");
    }

    #[test]
    fn lines_read_in_parallel_as_in_one_go() {
        // Lines of every length, blank ones, CRLF ends and none at the end: cut anywhere,
        // the same entries in the same order.
        let mut text = String::new();
        for i in 0..3_000 {
            match i % 7 {
                0 => text.push('\n'),
                3 => text.push_str(&format!("w{i};n.;{}\r\n", "long ".repeat(1 + i % 40))),
                _ => text.push_str(&format!("w{i};v.;to {i};n.;a {i}\n")),
            }
        }
        text.push_str("last;n.;no line end");
        for t in [&text[..], &text[..10], "", "\n\n", "a;n.;x"] {
            assert_eq!(parse_lines_in_parallel(t), parse_lines(t), "{:?}", &t[..t.len().min(40)]);
        }
        assert_eq!(parse_lines_in_parallel(&text).unwrap().len(), 3_000 - 3_000usize.div_ceil(7) + 1);
        // The first line at fault, by its number in the whole text, wherever it falls.
        let lines: Vec<&str> = text.lines().collect();
        for bad in [1usize, 1_234, 2_999] {
            let mut broken = lines.clone();
            broken[bad - 1] = "broken";
            broken[2_999] = "also broken";
            let broken = broken.join("\n");
            let e = parse_lines_in_parallel(&broken).unwrap_err();
            assert_eq!((e.line, e), (bad, parse_lines(&broken).unwrap_err()));
        }
    }

    #[test]
    fn whitespace_runs_become_one_space() {
        for text in ["a b c", " a b", "a b ", "a  b", "a\tb", "a\nb", "a\r\nb", "é  b", "é b", "a\u{2003}b", "", " "]
        {
            let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(single_spaced(text), want, "{text:?}");
        }
        assert!(matches!(single_spaced("a b c"), std::borrow::Cow::Borrowed(_)));
        assert!(matches!(single_spaced("é b"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn spans_of_an_entry() {
        let e = Entry {
            headword: "abandon".into(),
            senses: vec![
                Sense { pos: "v.".into(), definition: "to leave".into() },
                Sense { pos: "n.".into(), definition: "freedom  from\nrestraint".into() },
            ],
        };
        let placed = Placed { index: 0, headword: "abandon", homograph: Some(1) };
        let text: String = spans(&e, &placed).iter().map(|s| &*s.text).collect();
        assert_eq!(text, "abandon¹ 1. v. to leave 2. n. freedom from restraint");
        assert_eq!(spans(&e, &placed)[0].style, Style::Bold);
    }
}
