//! `puzzlepress dictionary`: an entries file typeset as a PDF by the real binary, read back
//! with pdftotext and pdffonts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use puzzlepress::render::typeset::entries::{printed_headword, sort};
use puzzlepress::render::typeset::parse_lines;

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
    Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
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
    let (a, b) = (temp("a.pdf"), temp("b.pdf"));
    for out in [&a, &b] {
        let run = dictionary(&file, out, &["--preface", preface.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        assert!(String::from_utf8_lossy(&run.stdout).contains("300 entries"));
    }
    let pdf = std::fs::read(&a).unwrap();
    assert_eq!(pdf, std::fs::read(&b).unwrap(), "the same entries give the same bytes");

    let info = tool("pdfinfo", &["-box"], &a);
    assert!(info.contains("Page size:       378 x 576 pts"), "{info}");
    let fonts = tool("pdffonts", &[], &a);
    let embedded: Vec<&str> = fonts.lines().filter(|l| l.contains("DejaVuSerifCondensed")).collect();
    assert_eq!(embedded.len(), 3, "{fonts}");
    assert!(embedded.iter().all(|l| l.contains("Identity-H") && l.contains("yes yes yes")), "{fonts}");

    // The entries as the library sorts them, and as the pages show them, in drawing order.
    let given = parse_lines(&text).unwrap();
    let expected: Vec<String> = sort(&given).iter().flat_map(|s| &s.entries).map(printed_headword).collect();
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
    for f in [file, preface, a, b] {
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
    std::fs::remove_file(file).unwrap();
}
