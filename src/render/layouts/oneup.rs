//! PDFs of a One Up puzzle and of its solution (one page each, on any trim), drawn like a
//! newspaper puzzle: thin grey cell lines, thick black walls between regions.

use crate::puzzles::oneup::Puzzle;
use crate::render::page::{runs, Canvas, CellGrid, Document, Font, Rgb, Segment, Style};
use crate::render::print::{fit_size, SheetSpec};

/// Room for the title, rule and legend above the grid, in points.
const HEADING: f32 = 80.0;
/// Small grids stay newspaper-sized instead of filling the page.
const MAX_PITCH: f32 = 54.0;
const CELL_LINE: f32 = 0.5;
const CELL_GREY: Rgb = Rgb(0.6, 0.6, 0.6);
/// Walls and the border: six cell lines wide, unmistakable even in a poor photocopy.
const WALL: f32 = 3.0;
/// Given digits; solved digits use a lighter face and colour so the givens stand out.
const GIVEN_FONT: Font = Font::MonoBold;
const SOLVED_FONT: Font = Font::Mono;
pub(crate) const SOLVED_BLUE: Rgb = Rgb(0.1, 0.3, 0.8);
const RULE: &str = "Fill each region of n cells with the digits 1 to n.";

/// The puzzle: title, rule, and the grid with its walls and clue digits.
pub fn puzzle_pdf(puzzle: &Puzzle, spec: &SheetSpec) -> Vec<u8> {
    page(puzzle, None, spec)
}

/// The solution: the puzzle's grid with every digit of `solution` (one string of digits
/// per row) filled in; the clues stay bold black, the solved digits are blue. Characters
/// other than digits, and anything outside the grid, are not drawn.
pub fn solution_pdf(puzzle: &Puzzle, solution: &[String], spec: &SheetSpec) -> Vec<u8> {
    page(puzzle, Some(solution), spec)
}

fn page(puzzle: &Puzzle, solution: Option<&[String]>, spec: &SheetSpec) -> Vec<u8> {
    let mut doc = Document::new();
    let c = doc.add_page(spec.trim.size());
    let area = spec.area();
    let mid = area.center_x();
    let title = spec.title;
    let size = fit_size(Font::SansBold, title, 24.0, area.w);
    c.text_centered(Style::new(Font::SansBold, size), mid, area.top() - 22.0, title);
    let rule = Style::new(Font::Sans, fit_size(Font::Sans, RULE, 12.0, area.w));
    c.text_centered(rule, mid, area.top() - 46.0, RULE);
    if solution.is_some() {
        let legend = "Solution: the given digits are bold, the others light and blue.";
        let style = Style::new(Font::Sans, fit_size(Font::Sans, legend, 10.0, area.w));
        c.text_centered(style.color(Rgb::GREY), mid, area.top() - 64.0, legend);
    }
    draw_grid(c, puzzle, solution, area.shrink(HEADING, 0.0).tuple(), MAX_PITCH, SOLVED_BLUE);
    spec.footer(c, if solution.is_some() { "Solution" } else { "Puzzle" });
    doc.set_title(&spec.doc_title(solution.map(|_| "solution")));
    doc.finish()
}

/// Draws `puzzle` (with `solution`'s digits, if given) as large as fits in `area` = (x, y,
/// width, height), cells at most `max_pitch`: cell lines, walls, clues bold, solved digits
/// light and in `solved_ink`.
pub(crate) fn draw_grid(
    c: &mut Canvas,
    puzzle: &Puzzle,
    solution: Option<&[String]>,
    area: (f32, f32, f32, f32),
    max_pitch: f32,
    solved_ink: Rgb,
) {
    let n = puzzle.size();
    let grid = CellGrid::fit(n, n, area, max_pitch);
    c.segments(&grid.inner_lines(), CELL_LINE, CELL_GREY);
    let mut thick: Vec<Segment> = walls(puzzle).into_iter().map(|(from, to)| grid.segment(from, to)).collect();
    thick.extend(grid.outline());
    c.segments(&thick, WALL, Rgb::BLACK);

    let size = grid.pitch * 0.6;
    let given = digits_given(puzzle);
    for r in 0..n {
        // One text operation per row and face: the givens, then the solved digits around them.
        let row = &given[r * n..(r + 1) * n];
        let y = grid.centred_baseline(r, GIVEN_FONT, size);
        c.cell_row(Style::new(GIVEN_FONT, size), grid.left, y, grid.pitch, row);
        if let Some(line) = solution.and_then(|s| s.get(r)) {
            let solved: Vec<Option<char>> = line
                .chars()
                .chain(std::iter::repeat(' '))
                .zip(row)
                .map(|(ch, g)| (g.is_none() && ch.is_ascii_digit()).then_some(ch))
                .collect();
            let style = Style::new(SOLVED_FONT, size).color(solved_ink);
            let y = grid.centred_baseline(r, SOLVED_FONT, size);
            c.cell_row(style, grid.left, y, grid.pitch, &solved);
        }
    }
}

/// The clue digits, row-major.
fn digits_given(puzzle: &Puzzle) -> Vec<Option<char>> {
    let n = puzzle.size();
    let mut cells = vec![None; n * n];
    for clue in puzzle.clues() {
        cells[(clue.row - 1) * n + clue.col - 1] = char::from_digit(clue.digit as u32, 10);
    }
    cells
}

/// The walls as segments between grid points (column line, row line), each a maximal run
/// along one grid line. A region is a run of equal labels, so two horizontal neighbours are
/// in different row regions exactly when their row labels differ, and two vertical
/// neighbours in different column regions when their column labels differ.
fn walls(puzzle: &Puzzle) -> Vec<((usize, usize), (usize, usize))> {
    let n = puzzle.size();
    let rows: Vec<&[u8]> = puzzle.row_regions().iter().map(|s| s.as_bytes()).collect();
    let cols: Vec<&[u8]> = puzzle.col_regions().iter().map(|s| s.as_bytes()).collect();
    let mut out = Vec::new();
    for line in 1..n {
        // Column line `line` separates columns line-1 and line; row line `line` rows line-1 and line.
        for (a, b) in runs(n, |r| rows[r][line - 1] != rows[r][line]) {
            out.push(((line, a), (line, b)));
        }
        for (a, b) in runs(n, |c| cols[line - 1][c] != cols[line][c]) {
            out.push(((a, line), (b, line)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;
    use crate::puzzles::oneup::{solve, EXAMPLE};
    use crate::render::pdf::testing::{numbers, ops, pages, shown};
    use crate::render::print::Trim;
    use crate::render::typeset::prose::Breaking;

    fn spec(title: &str) -> SheetSpec<'_> {
        SheetSpec { title, id: "", trim: Trim::default(), prose: Breaking::Optimal }
    }

    fn example() -> (Puzzle, Vec<String>) {
        let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
        let out = solve(&puzzle, 2, &mut Unmonitored).unwrap();
        assert_eq!(out.unique, Some(true));
        (puzzle, out.solution.unwrap())
    }

    #[test]
    fn walls_follow_region_boundaries() {
        let (puzzle, _) = example();
        // Worked out by hand from EXAMPLE, grid line by grid line: walls between columns
        // from the row labels (e.g. row 1, 11112222: column line 4), walls between rows
        // from the column labels (e.g. column 7 reads 1 then 2s: row line 1).
        let expected = [
            ((1, 2), (1, 3)),
            ((6, 1), (7, 1)),
            ((2, 3), (2, 4)),
            ((2, 5), (2, 6)),
            ((2, 2), (3, 2)),
            ((4, 2), (5, 2)),
            ((3, 6), (3, 7)),
            ((5, 3), (6, 3)),
            ((4, 0), (4, 1)),
            ((0, 4), (1, 4)),
            ((5, 1), (5, 2)),
            ((1, 5), (2, 5)),
            ((6, 7), (6, 8)),
            ((3, 6), (4, 6)),
        ];
        assert_eq!(walls(&puzzle), expected);
    }

    #[test]
    fn walls_merge_along_a_line() {
        let lines = |v: [&str; 4]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let puzzle =
            Puzzle::new(lines(["1122", "1122", "1222", "1122"]), lines(["1111", "1111", "2222", "2222"]), vec![])
                .unwrap();
        // Column line 2 is a wall in rows 0, 1 and 3; row line 2 is one wall across.
        assert_eq!(walls(&puzzle), [((1, 2), (1, 3)), ((2, 0), (2, 2)), ((2, 3), (2, 4)), ((0, 2), (4, 2))]);
    }

    #[test]
    fn puzzle_pdf_shows_the_clues() {
        let (puzzle, _) = example();
        let pdf = puzzle_pdf(&puzzle, &spec("One Up, 7 July 2024"));
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(String::from_utf8_lossy(&pdf).contains("/Count 1"));
        assert_eq!(pdf, puzzle_pdf(&puzzle, &spec("One Up, 7 July 2024")));
        let pages = pages(&pdf);
        assert_eq!(pages.len(), 1);
        let text = shown(&pages[0]);
        assert_eq!(text[0].text, "One Up, 7 July 2024");
        assert_eq!(text[1].text, RULE);
        // Then one bold text operation per row holding a clue, in reading order.
        // (The footer, grey, comes last.)
        let grid = &text[2..text.len() - 2];
        let digits: String = grid.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(digits, "351326134");
        assert!(grid.iter().all(|s| s.font == GIVEN_FONT && s.color == Rgb::BLACK));
        // Walls (3 pt) and the grey cell lines (0.5 pt) are both there.
        let widths: Vec<f32> = ops(&pages[0], "w").map(|op| numbers(op)[0]).collect();
        assert!(widths.contains(&WALL) && widths.contains(&CELL_LINE), "{widths:?}");
    }

    #[test]
    fn solution_pdf_fills_every_cell() {
        let (puzzle, solution) = example();
        let pdf = solution_pdf(&puzzle, &solution, &spec("One Up"));
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(String::from_utf8_lossy(&pdf).contains("/Count 1"));
        assert_eq!(pdf, solution_pdf(&puzzle, &solution, &spec("One Up")));
        assert_ne!(pdf, puzzle_pdf(&puzzle, &spec("One Up")));
        let text = shown(&pages(&pdf)[0]);
        // After the title, rule and legend: the bold clue digits.
        let given: String = text[3..].iter().filter(|s| s.font == GIVEN_FONT).map(|s| s.text.as_str()).collect();
        assert_eq!(given, "351326134");
        // Row by row, the black and blue digits together are the solution with the clue
        // cells taken out of the blue ones.
        let blue: Vec<&str> = text.iter().filter(|s| s.color == SOLVED_BLUE).map(|s| s.text.as_str()).collect();
        assert_eq!(blue.len(), 8);
        assert!(text.iter().filter(|s| s.color == SOLVED_BLUE).all(|s| s.font == SOLVED_FONT));
        let mut clue_cells: Vec<(usize, usize)> = puzzle.clues().iter().map(|c| (c.row - 1, c.col - 1)).collect();
        clue_cells.sort();
        for (r, row) in solution.iter().enumerate() {
            let expected: String = row
                .chars()
                .enumerate()
                .filter(|&(c, _)| clue_cells.binary_search(&(r, c)).is_err())
                .map(|(_, ch)| ch)
                .collect();
            assert_eq!(blue[r], expected, "row {}", r + 1);
        }
    }

    #[test]
    fn solution_pdf_tolerates_bad_rows() {
        let (puzzle, _) = example();
        let rows = vec!["12x".to_string(), "123456789012".to_string()];
        let text = shown(&pages(&solution_pdf(&puzzle, &rows, &spec("t")))[0]);
        let blue: Vec<&str> = text.iter().filter(|s| s.color == SOLVED_BLUE).map(|s| s.text.as_str()).collect();
        // Row 1's clue (column 2) hides its 2; row 2's (column 2) its 2; extra digits are cut.
        assert_eq!(blue, ["1", "1345678"]);
    }
}
