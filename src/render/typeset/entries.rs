//! A dictionary's entries: sorted as a dictionary sorts (the Unicode Collation Algorithm's
//! root order, which ignores case and accents at its first level), grouped in sections by
//! initial letter (accents folded: É under E), homographs numbered, and each entry as the
//! styled text of its paragraph.

use unicode_normalization::UnicodeNormalization;

use super::fonts::{missing, Style};
use super::paragraph::Span;

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

/// Why an entry cannot be set: it is empty somewhere, or has characters the font lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryError {
    /// Its index in the entries as given.
    pub index: usize,
    pub headword: String,
    pub detail: String,
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
        let err = |detail: String| Err(EntryError { index, headword: self.headword.clone(), detail });
        if self.headword.trim().is_empty() {
            return err("the headword is empty".into());
        }
        if self.senses.is_empty() {
            return err("an entry needs at least one sense".into());
        }
        if self.senses.len() > MAX_SENSES {
            return err(format!("{} senses; an entry has at most {MAX_SENSES}", self.senses.len()));
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
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let err = |detail: String| LineError { line: line_no, detail };
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
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
        entry.check(out.len()).map_err(|e| err(e.detail))?;
        out.push(entry);
    }
    Ok(out)
}

/// An entry in its place: its homograph number (1, 2, … when several entries share the
/// headword) and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// Index in the entries as given.
    pub index: usize,
    pub headword: String,
    pub homograph: Option<usize>,
}

/// A section: entries whose headwords begin with the same letter.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The letter as headed (capital, accents folded), `#` for digits and symbols.
    pub letter: String,
    pub entries: Vec<Placed>,
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

/// The entries in dictionary order, in sections. Equal headwords keep their given order
/// and are numbered.
pub fn sort(entries: &[Entry]) -> Vec<Section> {
    // Trimmed once: trimming in every comparison was half the sort's time.
    let words: Vec<&str> = entries.iter().map(|e| e.headword.trim()).collect();
    let keys: Vec<Option<Vec<u8>>> = words.iter().map(|w| primary_letters(w)).collect();
    // Loaded when first needed: the tables take milliseconds, and most words need none.
    let mut collator: Option<feruca::Collator> = None;
    let mut order: Vec<usize> = (0..entries.len()).collect();
    // A stable sort: entries the collation finds equal (the same headword) keep their order.
    order.sort_by(|&a, &b| {
        let (x, y) = (words[a], words[b]);
        let o = match (&keys[a], &keys[b]) {
            (Some(p), Some(q)) if p != q => p.cmp(q),
            // The same ASCII letters: the first difference is one of case, lower case
            // first, and ASCII has the upper case first.
            (Some(_), Some(_)) if x.is_ascii() && y.is_ascii() => y.cmp(x),
            _ => collator.get_or_insert_with(feruca::Collator::default).collate(x, y),
        };
        o.then(a.cmp(&b))
    });
    let mut sections: Vec<Section> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let word = words[order[i]];
        let mut j = i + 1;
        while j < order.len() && words[order[j]] == word {
            j += 1;
        }
        let letter = initial(word);
        // A letter the collation puts among another's (rare: a symbol inside a word list
        // of letters) joins the section it falls in rather than heading a second time.
        let seen = sections.iter().any(|s| s.letter == letter);
        if sections.last().is_none_or(|s| s.letter != letter) && !seen {
            sections.push(Section { letter, entries: Vec::new() });
        }
        let section = sections.last_mut().expect("just pushed");
        for (k, &index) in order[i..j].iter().enumerate() {
            let homograph = (j - i > 1).then_some(k + 1);
            section.entries.push(Placed { index, headword: word.to_string(), homograph });
        }
        i = j;
    }
    sections
}

/// A headword's letters as the collation's first level sees them, when that level is all
/// its letters tell: ASCII letters, accented or not (combining marks after canonical
/// decomposition, which the first level ignores), case folded. Such words that differ
/// here are ordered by it; any other word (a digit, a sign, Æ or ß, another script) only
/// by the collator.
fn primary_letters(headword: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(headword.len());
    if headword.is_ascii() {
        for b in headword.bytes() {
            out.push(b.is_ascii_alphabetic().then(|| b.to_ascii_lowercase())?);
        }
        return Some(out);
    }
    for c in headword.nfd() {
        if c.is_ascii_alphabetic() {
            out.push(c.to_ascii_lowercase() as u8);
        } else if !('\u{300}'..='\u{36F}').contains(&c) {
            return None;
        }
    }
    Some(out)
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
        None => placed.headword.clone(),
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

/// The styled text of an entry: the headword bold (never hyphenated), then each sense's
/// part of speech in italics and its definition, numbered `1.` `2.` when there are several.
pub fn spans<'a>(entry: &'a Entry, placed: &Placed) -> Vec<Span<'a>> {
    let mut out = Vec::with_capacity(1 + 6 * entry.senses.len());
    out.push(Span::whole(Style::Bold, printed_headword(placed)));
    let several = entry.senses.len() > 1;
    for (i, sense) in entry.senses.iter().enumerate() {
        out.push(Span::new(Style::Regular, " "));
        if several {
            out.push(Span::whole(Style::Bold, format!("{}.", i + 1)));
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
        let sections = sort(&entries);
        let order: Vec<&str> = sections.iter().flat_map(|s| s.entries.iter().map(|e| e.headword.as_str())).collect();
        assert_eq!(
            order,
            ["abandon", "apple", "Apple", "Eclair", "éclair", "Émile", "Ernie", "peña", "peng", "zebra", "Zoë"]
        );
        let letters: Vec<&str> = sections.iter().map(|s| s.letter.as_str()).collect();
        assert_eq!(letters, ["A", "E", "P", "Z"]);
        assert!(sections.iter().flat_map(|s| &s.entries).all(|e| e.homograph.is_none()));
    }

    #[test]
    fn sorted_as_the_collator_orders_them() {
        // Every word of up to three letters from a, b, B, e, é, É, ë, n, ñ, z (precomposed
        // and not), some with a sign or a letter beyond the quick path's; shuffled.
        let alphabet = ["a", "b", "B", "e", "é", "É", "e\u{301}", "ë", "n", "ñ", "z", "-", "æ", "ß"];
        let mut words = vec![String::new()];
        for len in 1..=3 {
            let last: Vec<String> = words.iter().filter(|w| w.chars().count() == len - 1).cloned().collect();
            words.extend(last.iter().flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}"))));
        }
        // Every letter of Latin-1 and Latin Extended-A, between two letters.
        words.extend(('\u{C0}'..='\u{17F}').filter(|c| c.is_alphabetic()).map(|c| format!("n{c}n")));
        words.retain(|w| !w.trim().is_empty());
        let mut state = 7u64;
        for i in (1..words.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            words.swap(i, (state >> 33) as usize % (i + 1));
        }
        let entries: Vec<Entry> = words.iter().map(|w| entry(w)).collect();
        let sorted: Vec<usize> = sort(&entries).iter().flat_map(|s| s.entries.iter().map(|e| e.index)).collect();
        let mut collator = feruca::Collator::default();
        let mut expected: Vec<usize> = (0..entries.len()).collect();
        expected.sort_by(|&a, &b| collator.collate(&words[a], &words[b]).then(a.cmp(&b)));
        assert_eq!(sorted, expected);
        assert_eq!(primary_letters("Naïve"), Some(b"naive".to_vec()));
        assert_eq!((primary_letters("a-b"), primary_letters("æon")), (None, None));
    }

    #[test]
    fn homographs_are_numbered_in_given_order() {
        let mut entries = vec![entry("bass"), entry("bar"), entry("bass"), entry("Ætna"), entry("1984")];
        entries[2].senses[0].definition = "a fish".into();
        let sections = sort(&entries);
        let all: Vec<&Placed> = sections.iter().flat_map(|s| &s.entries).collect();
        let basses: Vec<(usize, Option<usize>)> =
            all.iter().filter(|p| p.headword == "bass").map(|p| (p.index, p.homograph)).collect();
        assert_eq!(basses, [(0, Some(1)), (2, Some(2))]);
        assert_eq!(printed_headword(all.iter().find(|p| p.index == 2).unwrap()), "bass²");
        assert_eq!(sections.iter().map(|s| s.letter.as_str()).collect::<Vec<_>>(), ["#", "A", "B"]);
        assert_eq!(superscript(12), "¹²");
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
        let placed = Placed { index: 0, headword: "abandon".into(), homograph: Some(1) };
        let text: String = spans(&e, &placed).iter().map(|s| &*s.text).collect();
        assert_eq!(text, "abandon¹ 1. v. to leave 2. n. freedom from restraint");
        assert_eq!(spans(&e, &placed)[0].style, Style::Bold);
    }
}
