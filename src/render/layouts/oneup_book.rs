//! A print-ready book of One Up puzzles, by the fox books' print rules (trim, mirrored
//! margins, embedded fonts, footers): the title page with the full rules and what each
//! level holds, the puzzles by increasing level (four to a page on trims 7 in wide or more,
//! two on smaller ones), numbered, then the solutions at the back under the same numbers.

use super::cover::{wrap, Art, CoverText, Design, Palette, Paper, Wrap};
use super::oneup::{draw_grid, SOLVED_BLUE};
use crate::puzzles::oneup::{Generated, Level, Puzzle};
use crate::render::frame::{Book, Front, HowToPlay, Plan, Run};
use crate::render::page::{Document, Font, Rgb, Style};
use crate::render::pdf::Options;
use crate::render::print::{
    padded_pages, puzzle_title_page, Area, Layout, LayoutVersion, PrintOptions, TitleText, Trim, INCH,
};
use crate::render::typeset::prose::Breaking;

/// The rules, in full, on the first page.
pub const RULES: &str = "Each row and each column is split by thick walls into regions; a region of n cells \
                         holds the digits 1 to n once each. The given digits are part of the one solution.";

/// One puzzle of the book, with its solution and level.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    pub puzzle: &'a Puzzle,
    pub solution: &'a [String],
    pub level: Level,
}

impl<'a> From<&'a Generated> for Entry<'a> {
    fn from(g: &'a Generated) -> Entry<'a> {
        Entry { puzzle: &g.puzzle, solution: &g.solution, level: g.difficulty.level }
    }
}

/// Puzzles a page: four on trims 7 in wide or more, two on smaller ones.
pub fn puzzles_per_page(trim: Trim) -> usize {
    if trim.size().0 >= 7.0 * INCH {
        4
    } else {
        2
    }
}

/// Solutions a page: six on trims 7 in wide or more, four on smaller ones.
fn solutions_per_page(trim: Trim) -> usize {
    if trim.size().0 >= 7.0 * INCH {
        6
    } else {
        4
    }
}

/// Puzzles a page in the book frame: four on trims 7 in wide or more, one on smaller ones.
fn framed_per_page(trim: Trim) -> usize {
    if trim.size().0 >= 7.0 * INCH {
        4
    } else {
        1
    }
}

/// Where the parts of a book of `count` puzzles fall in the book frame.
fn framed_plan(count: usize, trim: Trim) -> Plan {
    Plan::new(true, count.div_ceil(framed_per_page(trim)), count.div_ceil(solutions_per_page(trim)))
}

/// The interior's page count in `layout`.
pub fn book_pages(count: usize, trim: Trim, layout: LayoutVersion) -> usize {
    match layout {
        LayoutVersion::V1 | LayoutVersion::V2 => {
            padded_pages(1 + count.div_ceil(puzzles_per_page(trim)) + count.div_ceil(solutions_per_page(trim)))
        }
        LayoutVersion::V3 | LayoutVersion::V4 => framed_plan(count, trim).total,
    }
}

/// Solved digits in the book frame: dark grey, the givens staying bold black.
const SOLVED_INK: Rgb = Rgb(0.3, 0.3, 0.3);

/// The book in `layout`; `entries` in the order they are numbered (by increasing level);
/// `id` traces a loose page to its book in every footer.
pub fn oneup_book_pdf(entries: &[Entry], opts: &PrintOptions, id: &str, layout: LayoutVersion) -> Vec<u8> {
    match layout {
        LayoutVersion::V1 | LayoutVersion::V2 => unframed_pdf(entries, opts, id, layout.prose()),
        LayoutVersion::V3 | LayoutVersion::V4 => framed_pdf(entries, opts, id, layout.prose()),
    }
}

/// The book in the book frame: the rules and levels on the how-to-play page, one puzzle a
/// page on trims under 7 in wide (four on wider ones), each headed "Puzzle N - Level" well
/// above its grid, the solutions under "Puzzle N", in greys.
fn framed_pdf(entries: &[Entry], opts: &PrintOptions, id: &str, prose: Breaking) -> Vec<u8> {
    let trim = opts.trim;
    let (per_page, per_solution_page) = (framed_per_page(trim), solutions_per_page(trim));
    let plan = framed_plan(entries.len(), trim);
    let text = title_text(entries, plan.first_solution);
    let chunk = |p: usize, per: usize| &entries[p * per..((p + 1) * per).min(entries.len())];
    let book = Book {
        front: Front {
            title: &opts.title,
            subtitle: text.count,
            imprint: &opts.imprint,
            notes: if id.is_empty() { Vec::new() } else { vec![format!("Book code {id}")] },
            how_to_play: Some(HowToPlay { rules: RULES, lists: vec![("Levels", text.levels)] }),
            answer_help: None,
        },
        body: Run {
            furniture: None,
            pages: entries.len().div_ceil(per_page),
            draw: Box::new(|c, area, p| {
                let (cols, rows) = if per_page == 4 { (2, 2) } else { (1, 1) };
                for (k, (entry, cell)) in chunk(p, per_page).iter().zip(area.split(cols, rows)).enumerate() {
                    let label = format!("Puzzle {} - {}", p * per_page + k + 1, entry.level.title());
                    c.text_centered(Style::new(Font::SansBold, 14.0), cell.center_x(), cell.top() - 16.0, &label);
                    let room = Area { x: cell.x + 6.0, y: cell.y + 10.0, w: cell.w - 12.0, h: cell.h - 52.0 };
                    draw_grid(c, entry.puzzle, None, room.tuple(), 54.0, SOLVED_INK);
                }
            }),
        },
        solutions: Some(Run {
            furniture: None,
            pages: entries.len().div_ceil(per_solution_page),
            draw: Box::new(|c, area, p| {
                let cells = area.split(2, per_solution_page / 2);
                for (k, (entry, cell)) in chunk(p, per_solution_page).iter().zip(cells).enumerate() {
                    let label = format!("Puzzle {}", p * per_solution_page + k + 1);
                    c.text_centered(Style::new(Font::SansBold, 10.0), cell.center_x(), cell.top() - 11.0, &label);
                    let room = Area { x: cell.x + 6.0, y: cell.y + 6.0, w: cell.w - 12.0, h: cell.h - 28.0 };
                    draw_grid(c, entry.puzzle, Some(entry.solution), room.tuple(), 24.0, SOLVED_INK);
                }
            }),
        }),
        trace: if id.is_empty() { opts.title.clone() } else { format!("{} - {id}", opts.title) },
        output: Options::default(),
    };
    book.pdf(trim, prose)
}

/// Layout versions 1 and 2 (frozen: books made before the book frame).
fn unframed_pdf(entries: &[Entry], opts: &PrintOptions, id: &str, prose: Breaking) -> Vec<u8> {
    let trim = opts.trim;
    let total = book_pages(entries.len(), trim, LayoutVersion::V2);
    let layout = Layout::new(trim, total);
    let trace = if id.is_empty() { opts.title.clone() } else { format!("{} - {id}", opts.title) };
    let mut doc = Document::new();
    doc.set_title(&trace);
    let per_page = puzzles_per_page(trim);
    let puzzle_pages = entries.len().div_ceil(per_page);
    let first_solutions = 2 + puzzle_pages;

    let c = doc.add_page(layout.size);
    puzzle_title_page(c, layout.body(1), opts, &title_text(entries, first_solutions), prose);
    layout.footer(c, 1, "", &trace);
    let mut n = 1;
    for (p, chunk) in entries.chunks(per_page).enumerate() {
        n = 2 + p;
        let c = doc.add_page(layout.size);
        let grid = if per_page == 4 { (2, 2) } else { (1, 2) };
        for (k, (entry, cell)) in chunk.iter().zip(layout.body(n).split(grid.0, grid.1)).enumerate() {
            let number = p * per_page + k + 1;
            let label = format!("Puzzle {number} - {}", entry.level.title());
            c.text_centered(Style::new(Font::SansBold, 12.0), cell.center_x(), cell.top() - 14.0, &label);
            let room = Area { x: cell.x + 6.0, y: cell.y + 6.0, w: cell.w - 12.0, h: cell.h - 30.0 };
            draw_grid(c, entry.puzzle, None, room.tuple(), 40.0, SOLVED_BLUE);
        }
        layout.footer(c, n, &n.to_string(), &trace);
    }
    let per_solution_page = solutions_per_page(trim);
    for (p, chunk) in entries.chunks(per_solution_page).enumerate() {
        n = first_solutions + p;
        let c = doc.add_page(layout.size);
        let mut body = layout.body(n);
        if p == 0 {
            c.text(Style::new(Font::SansBold, 16.0), body.x, body.top() - 16.0, "Solutions");
            body = body.shrink(28.0, 0.0);
        }
        for (k, (entry, cell)) in chunk.iter().zip(body.split(2, per_solution_page / 2)).enumerate() {
            let number = p * per_solution_page + k + 1;
            c.text_centered(Style::new(Font::SansBold, 10.0), cell.center_x(), cell.top() - 11.0, &number.to_string());
            let room = Area { x: cell.x + 6.0, y: cell.y + 4.0, w: cell.w - 12.0, h: cell.h - 20.0 };
            draw_grid(c, entry.puzzle, Some(entry.solution), room.tuple(), 24.0, SOLVED_BLUE);
        }
        layout.footer(c, n, &n.to_string(), &trace);
    }
    for blank in n + 1..=total {
        let c = doc.add_page(layout.size);
        layout.footer(c, blank, &blank.to_string(), &trace);
    }
    doc.finish()
}

/// The book's paperback cover on `paper`: its spine as wide as `entries` make the interior
/// in `layout`; from version 4 its hardest puzzle on the front, in `palette` (plum by
/// default).
pub fn oneup_cover(
    entries: &[Entry],
    opts: &PrintOptions,
    id: &str,
    paper: Paper,
    palette: Option<Palette>,
    layout: LayoutVersion,
) -> Wrap {
    let count = entries.len();
    let text = CoverText {
        tagline: format!("{count} One Up {}", if count == 1 { "puzzle" } else { "puzzles" }),
        foot: "Solutions at the back".into(),
        blurb: format!(
            "{count} logic puzzles of walls and digits, easiest first. {RULES} Every puzzle has exactly one \
             solution, reached by reasoning alone. Solutions at the back."
        ),
        code_label: "Book".into(),
        code: id.to_string(),
    };
    let design = match (layout, entries.last()) {
        (LayoutVersion::V4, Some(last)) => {
            Design::Art { art: Art::OneUp(last.puzzle), palette: palette.unwrap_or(Palette::Plum) }
        }
        _ => Design::Classic,
    };
    wrap(&text, &design, opts, book_pages(count, opts.trim, layout), paper, layout.prose())
}

/// What the title page says of the book's puzzles.
fn title_text<'a>(entries: &[Entry], solutions_page: usize) -> TitleText<'a> {
    let mut levels = Vec::new();
    let mut first = 1;
    for level in Level::ALL {
        let k = entries.iter().filter(|e| e.level == level).count();
        if k == 0 {
            continue;
        }
        let range = if k == 1 { format!("puzzle {first}") } else { format!("puzzles {first}-{}", first + k - 1) };
        levels.push(format!("{}: {range}", level.title()));
        first += k;
    }
    let count = format!("{} One Up puzzles", entries.len());
    TitleText { count, how_to_play: RULES, levels, solutions_page }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;
    use crate::puzzles::oneup::{generate_book, ClueSymmetry, LevelCounts};
    use crate::render::pdf::testing::{pages, shown};
    use crate::render::print::TrimName;

    fn book() -> Vec<Generated> {
        let levels = LevelCounts { easy: 3, medium: 2, hard: 1, expert: 0 };
        generate_book(8, &levels, ClueSymmetry::None, 9, &mut Unmonitored).unwrap()
    }

    #[test]
    fn puzzles_by_level_numbered_then_their_solutions_on_every_trim() {
        let generated = book();
        assert_eq!(
            generated.iter().map(|g| g.difficulty.level).collect::<Vec<_>>(),
            [Level::Easy, Level::Easy, Level::Easy, Level::Medium, Level::Medium, Level::Hard]
        );
        let entries: Vec<Entry> = generated.iter().map(Entry::from).collect();
        for (trim, per_page) in [(Trim::Named(TrimName::Letter), 4), (Trim::Named(TrimName::SixByNine), 2)] {
            let opts =
                PrintOptions { trim, title: "One Up Book".into(), lookup_url: String::new(), ..Default::default() };
            let pdf = oneup_book_pdf(&entries, &opts, "B1", LayoutVersion::V2);
            assert_eq!(pdf, oneup_book_pdf(&entries, &opts, "B1", LayoutVersion::V2), "byte-stable");
            let doc = pages(&pdf);
            assert_eq!(doc.len(), book_pages(6, trim, LayoutVersion::V2));
            assert_eq!(doc.len() % 2, 0);
            let text = |i: usize| shown(&doc[i]).iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" | ");
            let title = text(0);
            assert!(
                title.contains("How to play") && title.contains("region of n cells holds the digits 1 to n"),
                "{title}"
            );
            assert!(title.contains("Easy: puzzles 1-3") && title.contains("Medium: puzzles 4-5"), "{title}");
            assert!(title.contains("Hard: puzzle 6"), "{title}");
            let puzzle_pages = 6usize.div_ceil(per_page);
            let labels: Vec<String> = doc[1..=puzzle_pages]
                .iter()
                .flat_map(|page| shown(page).into_iter().filter(|s| s.text.starts_with("Puzzle ")).map(|s| s.text))
                .collect();
            assert_eq!(
                labels,
                [
                    "Puzzle 1 - Easy",
                    "Puzzle 2 - Easy",
                    "Puzzle 3 - Easy",
                    "Puzzle 4 - Medium",
                    "Puzzle 5 - Medium",
                    "Puzzle 6 - Hard"
                ]
            );
            let solutions = text(1 + puzzle_pages);
            assert!(solutions.starts_with("Solutions"), "{solutions}");
            assert!(title.contains(&format!("Solutions from page {}", 2 + puzzle_pages)), "{title}");
            // Every page's footer traces it to the book.
            for i in 0..doc.len() {
                assert!(text(i).contains("One Up Book - B1"), "page {}", i + 1);
            }
        }
    }

    #[test]
    fn the_framed_book_has_one_puzzle_a_page_on_small_trims_solutions_in_greys_and_a_cover() {
        let generated = book();
        let entries: Vec<Entry> = generated.iter().map(Entry::from).collect();
        for (trim, per_page) in [(Trim::Named(TrimName::Letter), 4), (Trim::Named(TrimName::SixByNine), 1)] {
            let opts =
                PrintOptions { trim, title: "One Up Book".into(), lookup_url: String::new(), ..Default::default() };
            let pdf = oneup_book_pdf(&entries, &opts, "B1", LayoutVersion::V3);
            let text = crate::render::frame::checks::assert_framed(&pdf, "One Up Book", "One Up Book - B1", "B1", true);
            assert_eq!(text.len(), book_pages(6, trim, LayoutVersion::V3));
            let body = 6usize.div_ceil(per_page);
            let labels: Vec<&str> =
                text[4..4 + body].iter().flat_map(|t| t.split(" | ").filter(|s| s.starts_with("Puzzle "))).collect();
            assert_eq!(labels[..2], ["Puzzle 1 - Easy", "Puzzle 2 - Easy"]);
            assert_eq!(labels.len(), 6);
            let solutions = &text[4 + body];
            assert!(solutions.starts_with("Solutions | Puzzle 1 | "), "{solutions}");
            assert!(text[2].contains(&format!("Solutions from page {}", 5 + body)), "{}", text[2]);
            let cover = oneup_cover(&entries, &opts, "B1", Paper::White, None, LayoutVersion::V3).pdf();
            let cover_text: String = pages(&cover).iter().flat_map(|p| shown(p)).map(|s| s.text).collect();
            assert!(cover_text.contains("One Up Book") && cover_text.contains("6 One Up puzzles"), "{cover_text}");
        }
    }
}
