//! One test per error kind, asserting where the error points.

use super::EXAMPLE;
use crate::puzzles::oneup::{ErrorKind, ParseError, Puzzle};

/// The example with its lines (1-based `line`) changed by `f`.
fn edited(f: impl FnOnce(&mut Vec<String>)) -> String {
    let mut lines: Vec<String> = EXAMPLE.lines().map(String::from).collect();
    f(&mut lines);
    lines.join("\n") + "\n"
}

fn text_err(input: &str) -> ParseError {
    Puzzle::from_text(input).expect_err("input should be rejected")
}

fn assert_text(input: &str, kind: ErrorKind, line: usize, needle: &str) {
    let e = text_err(input);
    assert_eq!((e.kind, e.line, e.field.as_deref()), (kind, Some(line), None), "{e}");
    assert!(e.message.contains(needle), "message {:?} lacks {needle:?}", e.message);
    assert!(e.to_string().starts_with(&format!("line {line}: ")));
}

#[test]
fn empty_input() {
    for input in ["", "\n\n  \n"] {
        let e = text_err(input);
        assert_eq!((e.kind, e.line), (ErrorKind::Empty, None));
    }
}

/// The example with one line replaced: (0-based index, its new text, the error's kind,
/// the line it names, text its message holds).
const LINE_REPLACED: [(usize, &str, ErrorKind, usize, &str); 16] = [
    (2, "12#22222", ErrorKind::Label, 3, "'#' at position 3"),
    (2, "1222222", ErrorKind::LineLength, 3, "expected 8 row-region labels"),
    (12, "112121211", ErrorKind::LineLength, 13, "found 9"),
    (4, "1 1111111", ErrorKind::LineLength, 5, "without spaces"),
    (18, "nine clues", ErrorKind::NotANumber, 19, "clue count 'nine'"),
    (21, "3 x 1", ErrorKind::NotANumber, 22, "clue column 'x'"),
    (21, "3 -3 1", ErrorKind::NotANumber, 22, "'-3'"),
    (23, "4 6", ErrorKind::MissingNumber, 24, "found only 2"),
    (18, "10", ErrorKind::ClueCount, 19, "says 10 clues, but only 9"),
    (18, "8", ErrorKind::ClueCount, 28, "more clue lines than the 8"),
    (18, "65", ErrorKind::ClueCount, 19, "at most 64"),
    (20, "2 9 5", ErrorKind::ClueOutsideGrid, 21, "row 2, column 9"),
    (20, "0 1 1", ErrorKind::ClueOutsideGrid, 21, "outside the 8 x 8 grid"),
    // Cell (3, 1) is a row region of 1 cell.
    (20, "3 1 2", ErrorKind::ClueDigit, 21, "must be 1 to 1"),
    (20, "2 2 0", ErrorKind::ClueDigit, 21, "digit 0"),
    (20, "2 2 300", ErrorKind::ClueDigit, 21, "300"),
];

#[test]
fn one_line_replaced() {
    for (index, text, kind, line, needle) in LINE_REPLACED {
        assert_text(&edited(|l| l[index] = text.into()), kind, line, needle);
    }
}

#[test]
fn grid_not_square() {
    // Seven row lines, then the blank line.
    assert_text(&edited(|l| drop(l.remove(7))), ErrorKind::GridShape, 8, "found a blank line");
    // Nine row lines.
    assert_text(&edited(|l| l.insert(3, "11111111".into())), ErrorKind::GridShape, 9, "has 9 lines");
    // Seven column lines.
    assert_text(&edited(|l| drop(l.remove(16))), ErrorKind::GridShape, 17, "column-region line 8 of 8");
}

#[test]
fn size_out_of_range() {
    assert_text("111 Row regions\n111\n111\n", ErrorKind::Size, 1, "sizes 4 to 9");
    let ten = "1111122222\n".repeat(10);
    assert_text(&format!("\n{ten}"), ErrorKind::Size, 2, "10 x 10");
}

#[test]
fn missing_blank_lines() {
    assert_text(
        &edited(|l| drop(l.remove(8))),
        ErrorKind::MissingBlankLine,
        9,
        "blank line after the 8 row-region lines",
    );
    assert_text(&edited(|l| drop(l.remove(17))), ErrorKind::MissingBlankLine, 18, "before the clue count");
}

#[test]
fn truncated_input() {
    let rows_only: String = EXAMPLE.lines().take(8).map(|l| format!("{l}\n")).collect();
    assert_text(&rows_only, ErrorKind::UnexpectedEnd, 8, "blank line and then the column regions");
    let no_count: String = EXAMPLE.lines().take(18).map(|l| format!("{l}\n")).collect();
    assert_text(&no_count, ErrorKind::UnexpectedEnd, 18, "number of clues");
}

#[test]
fn duplicate_clue() {
    let input = edited(|l| {
        l[18] = "10".into();
        l.push("1 2 3".into());
    });
    assert_text(&input, ErrorKind::DuplicateClue, 29, "(line 20)");
}

#[test]
fn comments_blank_lines_and_crlf_are_accepted() {
    let input = edited(|l| {
        l.insert(0, String::new());
        l.push(String::new());
    })
    .replace('\n', "\r\n");
    assert_eq!(Puzzle::from_text(&input).unwrap(), Puzzle::from_text(EXAMPLE).unwrap());
}

fn json_err(input: &str) -> ParseError {
    Puzzle::from_json(input).expect_err("JSON should be rejected")
}

fn example_json() -> serde_json::Value {
    Puzzle::from_text(EXAMPLE).unwrap().to_json()
}

fn assert_json(value: serde_json::Value, kind: ErrorKind, field: &str, needle: &str) {
    let e = json_err(&value.to_string());
    assert_eq!((e.kind, e.field.as_deref(), e.line), (kind, Some(field), None), "{e}");
    assert!(e.message.contains(needle), "message {:?} lacks {needle:?}", e.message);
    assert!(e.to_string().starts_with(&format!("{field}: ")));
}

#[test]
fn json_syntax_error_has_a_line() {
    let e = json_err("{\n\"row_regions\": [\n,]}");
    assert_eq!((e.kind, e.line), (ErrorKind::Json, Some(3)));
}

#[test]
fn json_field_errors() {
    // Each case: how the example changes, the error's kind, the field it names, text its
    // message holds.
    type Edit = fn(&mut serde_json::Value);
    let cases: [(Edit, ErrorKind, &str, &str); 15] = [
        (|v| drop(v.as_object_mut().unwrap().remove("clues")), ErrorKind::MissingField, "clues", "missing"),
        (
            |v| v["clues"][1]["digit"] = "5".into(),
            ErrorKind::WrongType,
            "clues[1].digit",
            "string \"5\", expected a whole number",
        ),
        (
            |v| v["clues"][1]["row"] = (-2).into(),
            ErrorKind::WrongType,
            "clues[1].row",
            "integer `-2`, expected a whole number",
        ),
        (|v| v["clues"][4]["digit"] = 300.into(), ErrorKind::ClueDigit, "clues[4].digit", "digit 300"),
        (
            |v| v["clues"][0]["colour"] = 1.into(),
            ErrorKind::UnknownField,
            "clues[0].colour",
            "expected one of `row`, `col`, `digit`",
        ),
        // Objects only: serde would otherwise take a struct's fields as an array in order.
        (|v| v["clues"][0] = serde_json::json!([1, 2, 3]), ErrorKind::WrongType, "clues[0]", "expected a clue object"),
        (
            |v| drop(v["clues"][2].as_object_mut().unwrap().remove("col")),
            ErrorKind::MissingField,
            "clues[2].col",
            "missing",
        ),
        (|v| v["rows"] = 1.into(), ErrorKind::UnknownField, "rows", "unknown field"),
        (
            |v| drop(v["row_regions"].as_array_mut().unwrap().pop()),
            ErrorKind::GridShape,
            "row_regions",
            "needs 8 lines, found 7",
        ),
        (|v| v["col_regions"][2] = "1121212".into(), ErrorKind::LineLength, "col_regions[2]", "found 7"),
        (|v| v["row_regions"][5] = 7.into(), ErrorKind::WrongType, "row_regions[5]", "integer `7`, expected a string"),
        (|v| v["col_regions"] = "11111111".into(), ErrorKind::WrongType, "col_regions", "expected a sequence"),
        (|v| v["clues"][0]["row"] = 9.into(), ErrorKind::ClueOutsideGrid, "clues[0]", "row 9"),
        (|v| v["clues"][3]["digit"] = 9.into(), ErrorKind::ClueDigit, "clues[3]", "digit 9"),
        (
            |v| {
                let first = v["clues"][0].clone();
                v["clues"].as_array_mut().unwrap().push(first);
            },
            ErrorKind::DuplicateClue,
            "clues[9]",
            "(clues[0])",
        ),
    ];
    for (edit, kind, field, needle) in cases {
        let mut v = example_json();
        edit(&mut v);
        assert_json(v, kind, field, needle);
    }

    let e = json_err("[1, 2]");
    assert_eq!((e.kind, e.field.as_deref(), e.line), (ErrorKind::WrongType, None, None));
    assert!(e.message.contains("expected a puzzle object"), "{e}");
}
