//! Text output: the original file format, and a human-readable grid with walls.

use super::puzzle::Puzzle;
use std::fmt::Write;

impl Puzzle {
    /// The original text format, with the original's annotations as comments.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.row_regions().iter().enumerate() {
            out.push_str(line);
            out.push_str(if i == 0 { " Row regions\n" } else { "\n" });
        }
        out.push('\n');
        for (i, line) in self.col_regions().iter().enumerate() {
            out.push_str(line);
            out.push_str(if i == 0 { " Column regions\n" } else { "\n" });
        }
        let _ = writeln!(out, "\n{} Number of clues", self.clues().len());
        for c in self.clues() {
            let _ = writeln!(out, "{} {} {}", c.row, c.col, c.digit);
        }
        out
    }

    /// The grid drawn with ASCII walls: `|` between cells of different row regions,
    /// `---` between cells of different column regions, `+` at every corner.
    /// Shows the clues, or the whole `solution` (rows of digits) when given.
    pub fn render(&self, solution: Option<&[String]>) -> String {
        let n = self.size();
        let mut digits = vec![vec![b' '; n]; n];
        for c in self.clues() {
            digits[c.row - 1][c.col - 1] = b'0' + c.digit;
        }
        if let Some(rows) = solution {
            for (r, line) in rows.iter().enumerate().take(n) {
                for (c, &b) in line.as_bytes().iter().enumerate().take(n) {
                    digits[r][c] = b;
                }
            }
        }
        let rows: Vec<&[u8]> = self.row_regions().iter().map(|s| s.as_bytes()).collect();
        let cols: Vec<&[u8]> = self.col_regions().iter().map(|s| s.as_bytes()).collect();
        let border = format!("+{}\n", "---+".repeat(n));
        let mut out = border.clone();
        for r in 0..n {
            out.push('|');
            for c in 0..n {
                out.push(' ');
                out.push(digits[r][c] as char);
                out.push(' ');
                let wall = c + 1 == n || rows[r][c] != rows[r][c + 1];
                out.push(if wall { '|' } else { ' ' });
            }
            out.push('\n');
            if r + 1 == n {
                out.push_str(&border);
            } else {
                out.push('+');
                for (above, below) in cols[r].iter().zip(cols[r + 1]) {
                    out.push_str(if above != below { "---" } else { "   " });
                    out.push('+');
                }
                out.push('\n');
            }
        }
        out
    }
}
