//! The original text format (as read by OneUp.cpp), comments included:
//! N lines of row-region labels, a blank line, N lines of column-region labels, a blank
//! line, the clue count, then `row col digit` per clue. Whatever follows the expected
//! token(s) on a line is a comment.

use super::error::{ErrorKind, Loc, ParseError};
use super::puzzle::{check_label_line, check_size, Clue, Puzzle};

/// Lines with 1-based numbers and a cursor.
struct Lines<'a> {
    lines: Vec<&'a str>,
    pos: usize,
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

fn first_token(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

impl<'a> Lines<'a> {
    fn peek(&self) -> Option<(usize, &'a str)> {
        self.lines.get(self.pos).map(|l| (self.pos + 1, *l))
    }

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let item = self.peek();
        self.pos += item.is_some() as usize;
        item
    }

    fn skip_blank(&mut self) {
        while self.peek().is_some_and(|(_, l)| is_blank(l)) {
            self.pos += 1;
        }
    }

    /// Number of the last line (for errors at the end of input).
    fn last_line(&self) -> usize {
        self.lines.len().max(1)
    }

    /// Length of the run of non-blank lines starting at the cursor.
    fn run_length(&self) -> usize {
        self.lines[self.pos..].iter().take_while(|l| !is_blank(l)).count()
    }
}

/// Parses the text format; see the module docs.
pub(super) fn parse_text(input: &str) -> Result<Puzzle, ParseError> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    let mut lines = Lines { lines: input.lines().collect(), pos: 0 };
    lines.skip_blank();
    let Some((first_no, first)) = lines.peek() else {
        return Err(ParseError::new(
            ErrorKind::Empty,
            &Loc::Nowhere,
            "the input is empty; expected N lines of row-region labels, a blank line, N lines of column-region labels, a blank line, the clue count and the clues",
        ));
    };
    let size_token = first_token(first);
    let size = size_token.chars().count();
    check_size(size, size_token, &Loc::Line(first_no))?;

    let rows = label_block(&mut lines, size, "row-region", "column regions")?;
    let cols = label_block(&mut lines, size, "column-region", "clue count")?;

    lines.skip_blank();
    let Some((count_no, count_line)) = lines.next() else {
        return Err(ParseError::new(
            ErrorKind::UnexpectedEnd,
            &Loc::Line(lines.last_line()),
            "the input ends after the column regions; expected the number of clues next",
        ));
    };
    let count_loc = Loc::Line(count_no);
    let count = number(first_token(count_line), "clue count", &count_loc)?;
    if count > size * size {
        return Err(ParseError::new(
            ErrorKind::ClueCount,
            &count_loc,
            format!("{count} clues cannot fit in a {size} x {size} grid (at most {})", size * size),
        ));
    }

    let mut clues = Vec::with_capacity(count);
    for found in 0..count {
        lines.skip_blank();
        let Some((no, line)) = lines.next() else {
            return Err(ParseError::new(
                ErrorKind::ClueCount,
                &count_loc,
                format!("the clue count says {count} clues, but only {found} clue lines follow"),
            ));
        };
        clues.push((clue(line, &Loc::Line(no))?, Loc::Line(no)));
    }
    lines.skip_blank();
    if let Some((no, _)) = lines.next() {
        return Err(ParseError::new(
            ErrorKind::ClueCount,
            &Loc::Line(no),
            format!("more clue lines than the {count} announced on line {count_no}"),
        ));
    }
    Puzzle::assemble(rows, cols, clues)
}

/// Reads `size` label lines plus the blank line after them. `what` names the block,
/// `next` what should follow the blank line (for messages).
fn label_block(lines: &mut Lines, size: usize, what: &str, next: &str) -> Result<Vec<String>, ParseError> {
    lines.skip_blank();
    let run = lines.run_length();
    let mut out = Vec::with_capacity(size);
    for i in 0..size {
        let Some((no, line)) = lines.next() else {
            return Err(ParseError::new(
                ErrorKind::UnexpectedEnd,
                &Loc::Line(lines.last_line()),
                format!("the input ends after {i} of the {size} {what} lines"),
            ));
        };
        let loc = Loc::Line(no);
        if is_blank(line) {
            return Err(ParseError::new(
                ErrorKind::GridShape,
                &loc,
                format!(
                    "expected {what} line {} of {size} (the first line is {size} wide, so the grid is {size} x {size}), found a blank line",
                    i + 1
                ),
            ));
        }
        let token = first_token(line);
        check_label_line(token, size, what, &loc).map_err(|mut e| {
            if e.kind == ErrorKind::LineLength && line.split_whitespace().nth(1).is_some() && token.len() < size {
                e.message.push_str("; labels are written without spaces, anything after a space is a comment");
            }
            e
        })?;
        out.push(token.to_string());
    }
    match lines.next() {
        Some((_, line)) if is_blank(line) => Ok(out),
        Some((no, line)) => {
            // A full second block straight after the first means the separator was
            // forgotten; anything else means the block itself has too many lines.
            let looks_like_labels = check_label_line(first_token(line), size, what, &Loc::Nowhere).is_ok();
            let (kind, message) = if looks_like_labels && run != 2 * size {
                (
                    ErrorKind::GridShape,
                    format!("the {what} block has {run} lines, but a {size}-wide grid needs exactly {size}"),
                )
            } else {
                (
                    ErrorKind::MissingBlankLine,
                    format!(
                        "expected a blank line after the {size} {what} lines (before the {next}), found '{}'",
                        line.trim()
                    ),
                )
            };
            Err(ParseError::new(kind, &Loc::Line(no), message))
        }
        None => Err(ParseError::new(
            ErrorKind::UnexpectedEnd,
            &Loc::Line(lines.last_line()),
            format!("the input ends after the {what} lines; expected a blank line and then the {next}"),
        )),
    }
}

fn number(token: &str, what: &str, loc: &Loc) -> Result<usize, ParseError> {
    token
        .parse::<usize>()
        .map_err(|_| ParseError::new(ErrorKind::NotANumber, loc, format!("the {what} '{token}' is not a whole number")))
}

/// `row col digit [comment]`.
fn clue(line: &str, loc: &Loc) -> Result<Clue, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().take(3).collect();
    let names = ["row", "column", "digit"];
    let mut values = [0usize; 3];
    for (i, name) in names.iter().enumerate() {
        let Some(token) = tokens.get(i) else {
            return Err(ParseError::new(
                ErrorKind::MissingNumber,
                loc,
                format!("expected a clue as 'row column digit', found only {} number(s)", tokens.len()),
            ));
        };
        values[i] = number(token, &format!("clue {name}"), loc)?;
    }
    let Ok(digit) = u8::try_from(values[2]) else {
        return Err(ParseError::new(
            ErrorKind::ClueDigit,
            loc,
            format!("clue digit {} is impossible; digits are 1 to the size of the clue's regions", values[2]),
        ));
    };
    Ok(Clue { row: values[0], col: values[1], digit })
}
