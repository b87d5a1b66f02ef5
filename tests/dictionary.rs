//! `puzzlepress dictionary`: an entries file typeset as a PDF by the real binary, read back
//! with pdftotext and pdffonts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use puzzlepress::render::typeset::entries::{placed, printed_headword, sort};
use puzzlepress::render::typeset::{parse_lines, Language};

const SYLLABLES: [&str; 20] = [
    "bra", "cel", "dor", "fen", "gal", "hum", "jor", "kes", "lum", "mir", "nox", "pel", "quor", "rax", "sil", "tov",
    "ulm", "vex", "wen", "zar",
];
const WORDS: [&str; 24] = [
    "the",
    "of",
    "a",
    "state",
    "being",
    "person",
    "who",
    "small",
    "large",
    "instrument",
    "used",
    "for",
    "measuring",
    "quality",
    "relating",
    "to",
    "especially",
    "manner",
    "formal",
    "remarkable",
    "building",
    "water",
    "ancient",
    "river",
];

/// `n` entries, the same every run: invented headwords (never a word of a definition),
/// some with an accent or a capital, one twice (homographs), 1 to 3 senses each.
fn entries(n: usize) -> String {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |m: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % m as u64) as usize
    };
    let mut out = String::new();
    for i in 0..n {
        let mut word: String = (0..2 + next(2)).map(|_| SYLLABLES[next(SYLLABLES.len())]).collect();
        if i % 11 == 3 {
            word = word.replacen('e', "é", 1);
        }
        if i % 17 == 4 {
            word = format!("{}{}", word[..1].to_uppercase(), &word[1..]);
        }
        if i == 40 {
            word = "doppel".into();
        }
        if i == 90 {
            word = "doppel".into();
        }
        out.push_str(&word);
        for _ in 0..1 + next(3) {
            let def: Vec<&str> = (0..5 + next(20)).map(|_| WORDS[next(WORDS.len())]).collect();
            out.push_str(&format!(";{};{}.", ["n.", "v.", "adj."][next(3)], def.join(" ")));
        }
        out.push('\n');
    }
    out
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("pp-dict-{}-{name}", uuid::Uuid::new_v4().simple()))
}

fn dictionary(entries: &Path, out: &Path, extra: &[&str]) -> Output {
    dictionary_on(None, entries, out, extra)
}

/// [`dictionary`] on `threads` threads (`RAYON_NUM_THREADS`), or on a thread a core.
fn dictionary_on(threads: Option<usize>, entries: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_puzzlepress"));
    if let Some(n) = threads {
        command.env("RAYON_NUM_THREADS", n.to_string());
    }
    command
        .arg("dictionary")
        .arg("--entries")
        .arg(entries)
        .arg("--out")
        .arg(out)
        .args(["--title", "A Dictionary of Invented Words", "--author", "Puzzlepress"])
        .args(extra)
        .output()
        .unwrap()
}

/// `n` [`entries`] in `NAME.txt` typeset by the binary into `NAME.pdf`: (the entries, the PDF).
fn typeset(name: &str, n: usize) -> (PathBuf, PathBuf) {
    let (file, pdf) = (temp(&format!("{name}.txt")), temp(&format!("{name}.pdf")));
    std::fs::write(&file, entries(n)).unwrap();
    let run = dictionary(&file, &pdf, &[]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    (file, pdf)
}

/// `name ARGS PDF`, and `-` (standard output) for pdftotext.
fn tool(name: &str, args: &[&str], pdf: &Path) -> String {
    let mut command = Command::new(name);
    command.args(args).arg(pdf);
    if name == "pdftotext" {
        command.arg("-");
    }
    let out = command.output();
    let out = out.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_entry_once_in_order_under_its_guide_words_in_embedded_fonts() {
    let text = entries(300);
    let file = temp("entries.txt");
    std::fs::write(&file, &text).unwrap();
    let preface = temp("preface.txt");
    std::fs::write(&preface, "A preface of two paragraphs.\n\nThe second one, naïve and brief.\n").unwrap();
    let (a, b, c) = (temp("a.pdf"), temp("b.pdf"), temp("c.pdf"));
    // `b` holds a longer file first: the PDF written over it must end where it ends.
    std::fs::write(&b, vec![b'%'; 4 << 20]).unwrap();
    // On a thread a core, on one thread (no parallel work) and on three.
    for (out, threads) in [(&a, None), (&b, Some(1)), (&c, Some(3))] {
        let run = dictionary_on(threads, &file, out, &["--preface", preface.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        assert!(String::from_utf8_lossy(&run.stdout).contains("300 entries"));
    }
    let pdf = std::fs::read(&a).unwrap();
    assert_eq!(pdf, std::fs::read(&b).unwrap(), "the same entries give the same bytes");
    assert_eq!(pdf, std::fs::read(&c).unwrap(), "whatever the threads");

    let info = tool("pdfinfo", &["-box"], &a);
    assert!(info.contains("Page size:       378 x 576 pts"), "{info}");
    let fonts = tool("pdffonts", &[], &a);
    let embedded: Vec<&str> = fonts.lines().filter(|l| l.contains("DejaVuSerifCondensed")).collect();
    assert_eq!(embedded.len(), 3, "{fonts}");
    assert!(embedded.iter().all(|l| l.contains("CID TrueType") && l.contains("yes yes yes")), "{fonts}");

    // The entries as the library sorts them, and as the pages show them, in drawing order.
    let given = parse_lines(&text).unwrap();
    let expected: Vec<String> =
        sort(&placed(&given), Language::ENGLISH).iter().flat_map(|s| &s.entries).map(printed_headword).collect();
    let pages: usize = info.lines().find_map(|l| l.strip_prefix("Pages:")).unwrap().trim().parse().unwrap();
    let mut shown = Vec::new();
    for page in 1..=pages {
        let n = page.to_string();
        let raw = tool("pdftotext", &["-raw", "-f", &n, "-l", &n], &a);
        let lines: Vec<&str> = raw.lines().filter(|l| !l.trim().is_empty()).collect();
        // A dictionary page ends with its guide word and its number.
        let body_lines = lines.len().saturating_sub(2);
        let on_page: Vec<String> = lines[..body_lines]
            .iter()
            .flat_map(|l| l.split_whitespace())
            .filter(|w| expected.contains(&w.to_string()))
            .map(str::to_string)
            .collect();
        if on_page.is_empty() {
            continue;
        }
        let head = lines[body_lines];
        let guide = if page % 2 == 0 { on_page.first() } else { on_page.last() };
        assert_eq!(Some(&head.to_string()), guide, "page {page}: {lines:?}");
        shown.extend(on_page);
    }
    assert_eq!(shown, expected);
    assert!(shown.contains(&"doppel¹".to_string()) && shown.contains(&"doppel²".to_string()));
    let contents = tool("pdftotext", &["-raw", "-f", "3", "-l", "3"], &a);
    assert!(contents.starts_with("Contents\nPreface"), "{contents}");
    for f in [file, preface, a, b, c] {
        std::fs::remove_file(f).unwrap();
    }
}

/// Hyphenated lines come at most three in a row (the book's lines as pdftotext gives them,
/// a column at a time; a line ending in a hyphen after a letter is hyphenated: these
/// entries hold no hyphen of their own), and the columns reach the limit: without it they
/// would pass it.
#[test]
fn hyphenated_lines_come_at_most_three_in_a_row() {
    let (file, pdf) = typeset("hyphens", 600);
    let text = tool("pdftotext", &["-raw"], &pdf);
    // Maximal runs of hyphenated lines by their length (the last slot: four or more).
    let (mut by_length, mut run) = ([0usize; 5], 0);
    for line in text.lines().chain([""]) {
        if line.strip_suffix('-').and_then(|l| l.chars().last()).is_some_and(char::is_alphabetic) {
            run += 1;
        } else {
            by_length[run.min(4)] += (run > 0) as usize;
            run = 0;
        }
    }
    assert_eq!(by_length[4], 0, "runs of hyphenated lines by length: {by_length:?}");
    assert!(by_length[3] > 0, "runs of hyphenated lines by length: {by_length:?}");
    for f in [file, pdf] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn a_bad_line_is_named_by_its_number() {
    let file = temp("bad.txt");
    let out = temp("bad.pdf");
    for (text, line) in [("abbey;n.;a monastery\n\nabide;v.\n", 3), ("abbey;n.;a monastery\nabide;v.;to wait ☃\n", 2)]
    {
        std::fs::write(&file, text).unwrap();
        let run = dictionary(&file, &out, &[]);
        assert!(!run.status.success());
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(&format!("line {line}:")), "{err}");
        assert!(!out.exists());
    }
    // Bytes that are not UTF-8 are named by their line too, and a file that is not there
    // by its name.
    std::fs::write(&file, b"abbey;n.;a monastery\nab\xffide;v.;to wait\n").unwrap();
    let run = dictionary(&file, &out, &[]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && err.contains("line 2: not UTF-8 text"), "{err}");
    std::fs::remove_file(&file).unwrap();
    let run = dictionary(&file, &out, &[]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && err.contains(&format!("reading {}", file.display())), "{err}");
    assert!(!out.exists());
}

/// A run of text drawn on a page: its baseline, where it starts and ends (points).
struct Run {
    size: f32,
    y: f32,
    x0: f32,
    x1: f32,
}

/// A font as drawn: its codes (one byte below 0x80, two from there, the codespace of our
/// encoding) to CIDs, read from its embedded encoding CMap, and each CID's width (`/W`).
struct Font {
    cids: std::collections::HashMap<Vec<u8>, u32>,
    widths: std::collections::HashMap<u32, f32>,
}

impl Font {
    /// The codes of `bytes`, each with its width in 1/1000 em and whether it is the
    /// one-byte code 32 (to which word spacing applies).
    fn codes(&self, bytes: &[u8]) -> Vec<(f32, bool)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let len = if bytes[i] < 0x80 { 1 } else { 2 };
            let code = &bytes[i..i + len];
            let cid = self.cids.get(code).unwrap_or_else(|| panic!("code {code:02X?} is in the encoding"));
            out.push((self.widths[cid], code == [32]));
            i += len;
        }
        out
    }
}

/// The hex digits of `<…>` as bytes.
fn hex(token: &str) -> Vec<u8> {
    let digits = token.trim_matches(|c| c == '<' || c == '>');
    (0..digits.len()).step_by(2).map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap()).collect()
}

/// Every text run of every page of `pdf`, measured from the PDF itself: each font's
/// encoding (its CMap stream) and glyph widths (`/W` of its CID font), the text positions
/// (`Tm`, `Td`), the size, the word spacing (`Tw`) and TJ adjustments.
fn runs(pdf: &Path) -> Vec<Vec<Run>> {
    use lopdf::{Document, Object};
    let doc = Document::load(pdf).unwrap();
    let num = |o: &Object| o.as_float().or_else(|_| o.as_i64().map(|i| i as f32)).unwrap();
    let mut out = Vec::new();
    for (_, page_id) in doc.get_pages() {
        let mut fonts_by_name: std::collections::HashMap<Vec<u8>, Font> = Default::default();
        let (resources, _) = doc.get_page_resources(page_id).unwrap();
        let fonts = resources.unwrap().get(b"Font").unwrap();
        let fonts = doc.dereference(fonts).unwrap().1.as_dict().unwrap();
        for (name, font) in fonts.iter() {
            let font = doc.dereference(font).unwrap().1.as_dict().unwrap();
            let cid = font.get(b"DescendantFonts").unwrap().as_array().unwrap()[0].clone();
            let cid = doc.dereference(&cid).unwrap().1.as_dict().unwrap();
            let w = doc.dereference(cid.get(b"W").unwrap()).unwrap().1.as_array().unwrap();
            let mut widths = std::collections::HashMap::new();
            let mut i = 0;
            while i < w.len() {
                let first = num(&w[i]) as u32;
                match &w[i + 1] {
                    Object::Array(list) => {
                        for (k, v) in list.iter().enumerate() {
                            widths.insert(first + k as u32, num(v));
                        }
                        i += 2;
                    }
                    last => {
                        for g in first..=num(last) as u32 {
                            widths.insert(g, num(&w[i + 2]));
                        }
                        i += 3;
                    }
                }
            }
            let encoding = doc.dereference(font.get(b"Encoding").unwrap()).unwrap().1.as_stream().unwrap();
            let cmap = String::from_utf8(encoding.decompressed_content().unwrap_or(encoding.content.clone())).unwrap();
            let mut cids = std::collections::HashMap::new();
            let mut section = "";
            for line in cmap.lines() {
                let t: Vec<&str> = line.split_whitespace().collect();
                match t.as_slice() {
                    [_, "begincidchar"] => section = "char",
                    [_, "begincidrange"] => section = "range",
                    ["endcidchar"] | ["endcidrange"] => section = "",
                    [code, cid] if section == "char" => {
                        cids.insert(hex(code), cid.parse().unwrap());
                    }
                    [lo, hi, cid] if section == "range" => {
                        let (lo, hi, cid): (Vec<u8>, Vec<u8>, u32) = (hex(lo), hex(hi), cid.parse().unwrap());
                        let n = lo.len();
                        for (k, last) in (lo[n - 1]..=hi[n - 1]).enumerate() {
                            let mut code = lo.clone();
                            code[n - 1] = last;
                            cids.insert(code, cid + k as u32);
                        }
                    }
                    _ => {}
                }
            }
            assert!(cmap.contains("<00> <7F>") && cmap.contains("<8000> <FFFF>"), "the codespace: {cmap}");
            fonts_by_name.insert(name.clone(), Font { cids, widths });
        }
        let content = doc.get_and_decode_page_content(page_id).unwrap();
        let (mut font, mut size, mut word) = (Vec::new(), 0.0f32, 0.0f32);
        // The start of the line (the line matrix's origin: what Td and T* move) and the pen
        // (where the next glyph goes: showing text moves it on by the text's advance).
        let (mut x, mut y, mut pen) = (0.0f32, 0.0f32, 0.0f32);
        let mut leading = 0.0f32;
        let mut page = Vec::new();
        // The advance of a string: its glyphs, and the word spacing at each one-byte space.
        let advance = |font: &[u8], size: f32, word: f32, bytes: &[u8]| -> f32 {
            fonts_by_name[font]
                .codes(bytes)
                .iter()
                .map(|&(w, space)| w * size / 1000.0 + if space { word } else { 0.0 })
                .sum()
        };
        for op in content.operations {
            match op.operator.as_str() {
                "BT" => (x, y, pen) = (0.0, 0.0, 0.0),
                "Tf" => {
                    font = op.operands[0].as_name().unwrap().to_vec();
                    size = num(&op.operands[1]);
                }
                "Tw" => word = num(&op.operands[0]),
                "Tm" => {
                    x = num(&op.operands[4]);
                    y = num(&op.operands[5]);
                    pen = x;
                }
                "Td" => {
                    x += num(&op.operands[0]);
                    y += num(&op.operands[1]);
                    pen = x;
                }
                "TL" => leading = num(&op.operands[0]),
                "T*" => {
                    y -= leading;
                    pen = x;
                }
                // Next line and show; `"` sets the word (and character) spacing first.
                "Tj" | "'" | "\"" => {
                    let operator = op.operator.as_str();
                    if operator != "Tj" {
                        y -= leading;
                        pen = x;
                    }
                    if operator == "\"" {
                        word = num(&op.operands[0]);
                        assert_eq!(num(&op.operands[1]), 0.0, "no character spacing");
                    }
                    let Some(Object::String(bytes, _)) = op.operands.last() else { panic!("{operator} of a string") };
                    let end = pen + advance(&font, size, word, bytes);
                    page.push(Run { size, y, x0: pen, x1: end });
                    pen = end;
                }
                "TJ" => {
                    let mut width = 0.0;
                    for item in op.operands[0].as_array().unwrap() {
                        match item {
                            Object::String(bytes, _) => width += advance(&font, size, word, bytes),
                            n => width -= num(n) * size / 1000.0,
                        }
                    }
                    page.push(Run { size, y, x0: pen, x1: pen + width });
                    pen += width;
                }
                _ => {}
            }
        }
        out.push(page);
    }
    out
}

#[test]
fn read_back_from_the_pdf_nothing_leaves_the_margins_and_justified_lines_fill_their_column() {
    let (file, pdf) = typeset("measured", 400);
    // 5.25 x 8 in: 0.75 in margins, the inner one 0.95 in (with the binding offset).
    let (width, height, outside, inner) = (378.0f32, 576.0f32, 54.0f32, 68.4f32);
    let column = (width - outside - inner - 10.0) / 2.0;
    let (mut justified, mut pages_measured) = (0, 0);
    for (i, page) in runs(&pdf).iter().enumerate() {
        let number = i + 1;
        let (left, right) = if number % 2 == 1 { (inner, width - outside) } else { (outside, width - inner) };
        // Within 0.05 pt: positions are written to 0.01 pt and the word spacing to 0.001 pt.
        for r in page {
            assert!(
                r.x0 >= left - 0.05 && r.x1 <= right + 0.05,
                "page {number}: {}..{} outside {left}..{right}",
                r.x0,
                r.x1
            );
            assert!(r.y >= outside - 0.01 && r.y <= height - outside + 0.01, "page {number}: baseline {}", r.y);
        }
        // The dictionary's entry lines (8 pt text between the running head and the folio),
        // a column at a time: an entry starts at the column's edge and its other lines hang;
        // every line of an entry but its last must end exactly at the column's right edge.
        for c in 0..2 {
            let (cx0, cx1) = (left + c as f32 * (column + 10.0), left + c as f32 * (column + 10.0) + column);
            let mut lines: Vec<(f32, f32, f32)> = Vec::new(); // (y, start, end)
            for r in page.iter().filter(|r| {
                r.size == 8.0 && r.x0 >= cx0 - 0.05 && r.x1 <= cx1 + 0.05 && r.y < height - 64.0 && r.y > 64.0
            }) {
                match lines.iter_mut().find(|l| (l.0 - r.y).abs() < 0.01) {
                    Some(l) => {
                        l.1 = l.1.min(r.x0);
                        l.2 = l.2.max(r.x1);
                    }
                    None => lines.push((r.y, r.x0, r.x1)),
                }
            }
            lines.sort_by(|a, b| b.0.total_cmp(&a.0));
            for pair in lines.windows(2) {
                let next_hangs = pair[1].1 > cx0 + 1.0;
                if next_hangs {
                    // The entry goes on below: this line is justified.
                    assert!(
                        (pair[0].2 - cx1).abs() < 0.05,
                        "page {number} column {c}: a justified line ends at {} not {cx1}",
                        pair[0].2
                    );
                    justified += 1;
                }
            }
            pages_measured += !lines.is_empty() as usize;
        }
    }
    assert!(pages_measured > 10 && justified > 500, "{pages_measured} columns, {justified} justified lines");
    for f in [file, pdf] {
        std::fs::remove_file(f).unwrap();
    }
}
