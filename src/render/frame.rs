//! The book frame every book product's interior is printed through (from layout version
//! 3): the title page (title, subtitle, author; no footer), the copyright page on its back
//! (the copyright line, the ISBN, the book's code and the product's own lines), "How to
//! play" for puzzle books, the body from a right-hand page, the solutions under the
//! puzzles' own labels, then pages marked "Notes" to an even count of at least 24. Footers
//! (the page number outside, the book's code at the gutter) run from the first body page;
//! page numbers are the physical pages. Nothing the frame draws is in colour.

use crate::render::page::{Canvas, Document, Font, Rgb, Style};
use crate::render::pdf::Options;
use crate::render::print::{copyright_notice, fit_size, padded_pages, Area, Imprint, Layout, Trim, INCH};
use crate::render::typeset::prose::{centred_lines, lines, Breaking};

/// What the front matter says.
pub struct Front<'a> {
    pub title: &'a str,
    /// Under the title: what the book holds ("12 One Up puzzles").
    pub subtitle: String,
    pub imprint: &'a Imprint,
    /// The copyright page's lines above the imprint: the book's code, a fox book's serial
    /// and where to look its answer up.
    pub notes: Vec<String>,
    /// Puzzle books: how to play, on the first right-hand page after the copyright page.
    pub how_to_play: Option<HowToPlay<'a>>,
    /// Drawn on the copyright page in the room above its lines: a fox book's help to find
    /// the answer (the serial, the lookup address, its QR code).
    pub answer_help: Option<DrawArea<'a>>,
}

/// Draws in an area of a page.
pub type DrawArea<'a> = Box<dyn FnOnce(&mut Canvas, Area) + 'a>;

/// A puzzle book's "How to play" page: the rules, then titled lists (the levels, …); the
/// frame adds where the solutions are, in a book that prints them.
pub struct HowToPlay<'a> {
    pub rules: &'a str,
    pub lists: Vec<(&'a str, Vec<String>)>,
}

/// Draws a run's `i`th page (from 0) in `area`, the page's room above its footer.
pub type DrawPage<'a> = Box<dyn FnMut(&mut Canvas, Area, usize) + 'a>;

/// Draws what every page of a run repeats in `area`, the page's room above its footer.
pub type DrawFurniture<'a> = Box<dyn Fn(&mut Canvas, Area) + 'a>;

/// A run of pages a product draws.
pub struct Run<'a> {
    pub pages: usize,
    pub draw: DrawPage<'a>,
    /// What every page of the run repeats (a grid's guides): drawn once for right-hand and
    /// once for left-hand pages, with the footer's trace, as forms the pages show, so that
    /// a long run of alike pages is written once.
    pub furniture: Option<DrawFurniture<'a>>,
}

/// Height taken by a section's heading ("Solutions") at the top of its first page.
pub const SECTION_HEADING: f32 = 32.0;
const SECTION_SIZE: f32 = 16.0;

/// A book: its front matter, its body (the puzzles), its solutions (a heading on the
/// first page, the rest of that page the product's), and the trace every footer carries.
pub struct Book<'a> {
    pub front: Front<'a>,
    pub body: Run<'a>,
    pub solutions: Option<Run<'a>>,
    /// At the gutter side of every footer: traces a loose page to its book.
    pub trace: String,
    /// How the PDF is written (compression).
    pub output: Options,
}

/// Where a book's parts fall, from its front matter and page counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The first body page: a right-hand page.
    pub first_body: usize,
    /// The first solutions page (the page after the body).
    pub first_solution: usize,
    /// Pages with content; the rest up to `total` are notes pages.
    pub content: usize,
    pub total: usize,
}

impl Plan {
    /// The plan of a book with (`how_to_play`) or without a how-to-play page, `body` body
    /// pages and `solutions` solution pages.
    pub fn new(how_to_play: bool, body: usize, solutions: usize) -> Plan {
        // Title page and its back; how to play on page 3 and its back left free, so that
        // the body starts on a right-hand page either way.
        let front = if how_to_play { 4 } else { 2 };
        let first_body = front + 1;
        let first_solution = first_body + body;
        let content = first_solution + solutions - 1;
        Plan { first_body, first_solution, content, total: padded_pages(content) }
    }

    /// The page layout of the book on `trim` (the gutter grows with the page count).
    pub fn layout(&self, trim: Trim) -> Layout {
        Layout::new(trim, self.total)
    }
}

impl Book<'_> {
    pub fn plan(&self) -> Plan {
        Plan::new(self.front.how_to_play.is_some(), self.body.pages, self.solutions.as_ref().map_or(0, |s| s.pages))
    }

    /// The interior on `trim`, its prose broken by `prose`.
    pub fn pdf(mut self, trim: Trim, prose: Breaking) -> Vec<u8> {
        let plan = self.plan();
        let layout = plan.layout(trim);
        let mut doc = Document::new();
        doc.set_options(self.output);
        doc.set_title(&self.trace);
        title_page(doc.add_page(layout.size), layout.body(1), &self.front);
        let help = self.front.answer_help.take();
        copyright_page(doc.add_page(layout.size), layout.body(2), &self.front, help, prose);
        if let Some(how) = &self.front.how_to_play {
            let solutions = self.solutions.is_some().then_some(plan.first_solution);
            how_to_play_page(doc.add_page(layout.size), layout.body(3), how, solutions, prose);
            doc.add_page(layout.size);
        }
        let mut n = plan.first_body;
        let forms = self.body.furniture.as_ref().map(|furniture| {
            // The body starts on a right-hand page: its pages alternate from there.
            [n, n + 1].map(|side| {
                let (form, c) = doc.add_form(layout.size);
                furniture(c, layout.body(side));
                layout.footer_parts(c, side, None, Some(&self.trace));
                form
            })
        });
        for i in 0..self.body.pages {
            let c = doc.add_page(layout.size);
            match forms {
                Some(forms) => {
                    c.form(forms[i % 2]);
                    (self.body.draw)(c, layout.body(n), i);
                    layout.footer_parts(c, n, Some(&n.to_string()), None);
                }
                None => {
                    (self.body.draw)(c, layout.body(n), i);
                    layout.footer(c, n, &n.to_string(), &self.trace);
                }
            }
            n += 1;
        }
        if let Some(solutions) = &mut self.solutions {
            for i in 0..solutions.pages {
                let c = doc.add_page(layout.size);
                let mut area = layout.body(n);
                if i == 0 {
                    let style = Style::new(Font::SansBold, SECTION_SIZE);
                    c.text(style, area.x, area.top() - SECTION_SIZE, "Solutions");
                    area = area.shrink(SECTION_HEADING, 0.0);
                }
                (solutions.draw)(c, area, i);
                layout.footer(c, n, &n.to_string(), &self.trace);
                n += 1;
            }
        }
        while n <= plan.total {
            let c = doc.add_page(layout.size);
            notes_page(c, layout.body(n));
            layout.footer(c, n, &n.to_string(), &self.trace);
            n += 1;
        }
        doc.finish()
    }
}

/// Title, subtitle and author, centred in the page's upper part; nothing else.
fn title_page(c: &mut Canvas, area: Area, front: &Front) {
    let mid = area.center_x();
    let size = fit_size(Font::SansBold, front.title, 36.0, area.w);
    let mut y = area.top() - area.h * 0.25;
    c.text_centered(Style::new(Font::SansBold, size), mid, y, front.title);
    if !front.subtitle.is_empty() {
        y -= 30.0;
        let size = fit_size(Font::Sans, &front.subtitle, 15.0, area.w);
        c.text_centered(Style::new(Font::Sans, size), mid, y, &front.subtitle);
    }
    if let Some(author) = &front.imprint.author {
        y -= 64.0;
        let size = fit_size(Font::Sans, author, 16.0, area.w);
        c.text_centered(Style::new(Font::Sans, size), mid, y, author);
    }
}

/// The title page's back: the product's lines, then the copyright line and the ISBN, at
/// the foot of the page as a book's imprint page has them; the answer help above them.
fn copyright_page(c: &mut Canvas, area: Area, front: &Front, help: Option<DrawArea>, prose: Breaking) {
    let style = Style::new(Font::Sans, 9.0);
    let top = copyright_notice(c, area, front.imprint);
    let set: Vec<String> = front.notes.iter().flat_map(|note| lines(note, style, area.w, prose)).collect();
    let mut y = top + 8.0 + 13.0 * set.len() as f32;
    let room = y + 13.0;
    for line in set {
        c.text(style, area.x, y, &line);
        y -= 13.0;
    }
    if let Some(help) = help {
        help(c, Area { y: room, h: area.top() - room, ..area });
    }
}

/// How to play: the rules set as a paragraph, the product's lists, where the solutions are.
fn how_to_play_page(c: &mut Canvas, area: Area, how: &HowToPlay, solutions: Option<usize>, prose: Breaking) {
    let measure = area.w.min(4.5 * INCH);
    let left = area.x + (area.w - measure) / 2.0;
    let mid = area.center_x();
    let mut y = area.top() - area.h * 0.12;
    c.text_centered(Style::new(Font::SansBold, 18.0), mid, y, "How to play");
    y -= 34.0;
    let body = Style::new(Font::Sans, 11.0);
    for line in lines(how.rules, body, measure, prose) {
        c.text(body, left, y, &line);
        y -= 16.0;
    }
    for (title, items) in &how.lists {
        y -= 22.0;
        c.text_centered(Style::new(Font::SansBold, 13.0), mid, y, title);
        for line in items.iter().flat_map(|item| centred_lines(item, body, measure, prose)) {
            y -= 16.0;
            c.text_centered(body, mid, y, &line);
        }
    }
    if let Some(page) = solutions {
        y -= 32.0;
        let where_ = format!("Solutions from page {page}, under the puzzles' own labels.");
        c.text_centered(Style::new(Font::Sans, 10.0).color(Rgb::GREY), mid, y, &where_);
    }
}

/// A page for the reader's notes: its heading and ruled lines.
pub fn notes_page(c: &mut Canvas, area: Area) {
    let head = Style::new(Font::SansBold, 12.0);
    c.text(head, area.x, area.top() - 12.0, "Notes");
    let mut y = area.top() - 40.0;
    while y > area.y + 6.0 {
        c.line((area.x, y), (area.right(), y), 0.4, Rgb(0.75, 0.75, 0.75));
        y -= 24.0;
    }
}

/// What every interior in the book frame shows, read back from its PDF (for the layouts'
/// tests).
#[cfg(test)]
pub(crate) mod checks {
    use crate::render::pdf::testing::{numbers, ops, pages, shown};

    /// Checks `pdf` as a framed book titled `title` whose footers carry `trace`: the title
    /// page without a footer, the copyright page with `code`, how to play on page 3 (when
    /// `how_to_play`), footers with the page's own number from the first body page, no
    /// more than two pages in a row without text, an even count of at least 24 ending on a
    /// page with text, nothing in colour. Returns each page's text.
    pub fn assert_framed(pdf: &[u8], title: &str, trace: &str, code: &str, how_to_play: bool) -> Vec<String> {
        let doc = pages(pdf);
        let text: Vec<String> =
            doc.iter().map(|p| shown(p).iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" | ")).collect();
        assert!(doc.len() >= 24 && doc.len().is_multiple_of(2), "{} pages", doc.len());
        assert!(text[0].starts_with(title) && !text[0].contains(trace), "title page: {}", text[0]);
        assert!(text[1].contains(code) && !text[1].contains(trace), "copyright page: {}", text[1]);
        let first_body = if how_to_play { 5 } else { 3 };
        if how_to_play {
            assert!(text[2].starts_with("How to play"), "page 3: {}", text[2]);
        }
        for (i, t) in text.iter().enumerate().skip(first_body - 1) {
            let n = (i + 1).to_string();
            assert!(t.contains(trace) && t.split(" | ").any(|s| s == n), "page {n}'s footer: {t}");
        }
        let mut blank_run = 0;
        for (i, t) in text.iter().enumerate() {
            blank_run = if t.is_empty() { blank_run + 1 } else { 0 };
            assert!(blank_run <= 2, "pages {}-{} have no text", i - 1, i + 1);
        }
        assert!(text.last().is_some_and(|t| !t.is_empty()), "the last page is blank");
        for (i, page) in doc.iter().enumerate() {
            for op in ops(page, "rg").chain(ops(page, "RG")) {
                let c = numbers(op);
                assert!(c[0] == c[1] && c[1] == c[2], "page {}: colour {c:?}", i + 1);
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::print::TrimName;

    fn book<'a>(imprint: &'a Imprint, body: usize, solutions: usize) -> Book<'a> {
        Book {
            front: Front {
                title: "Framed",
                subtitle: "A test book".into(),
                imprint,
                notes: vec!["Book code c0de".into()],
                how_to_play: Some(HowToPlay { rules: "Play well.", lists: vec![("Levels", vec!["Easy".into()])] }),
                answer_help: None,
            },
            body: Run {
                furniture: None,
                pages: body,
                draw: Box::new(|c, area, i| {
                    c.text(Style::new(Font::Sans, 12.0), area.x, area.y + 40.0, &format!("Body {i}"))
                }),
            },
            solutions: Some(Run {
                furniture: None,
                pages: solutions,
                draw: Box::new(|c, area, i| {
                    c.text(Style::new(Font::Sans, 12.0), area.x, area.y + 40.0, &format!("Answers {i}"))
                }),
            }),
            trace: "Framed - c0de".into(),
            output: Options::default(),
        }
    }

    #[test]
    fn front_matter_then_the_body_on_a_right_hand_page_then_solutions_then_notes() {
        let imprint = Imprint {
            author: Some("A. Author".into()),
            copyright: Some("© 2026 A. Author".into()),
            isbn: Some("9780306406157".into()),
        };
        let trim = Trim::Named(TrimName::SixByNine);
        for (body, solutions) in [(3, 1), (30, 5)] {
            let b = book(&imprint, body, solutions);
            let plan = b.plan();
            assert_eq!((plan.first_body, plan.first_solution), (5, 5 + body));
            let text = checks::assert_framed(
                &b.pdf(trim, Breaking::Optimal),
                "Framed",
                "Framed - c0de",
                "Book code c0de",
                true,
            );
            assert_eq!(text.len(), plan.total);
            assert!(text[0].contains("A test book") && text[0].contains("A. Author"), "{}", text[0]);
            assert!(text[1].contains("ISBN 9780306406157") && text[1].contains("2026 A. Author"), "{}", text[1]);
            assert!(
                text[2].contains("Play well.") && text[2].contains(&format!("Solutions from page {}", 5 + body)),
                "{}",
                text[2]
            );
            assert!(text[4].starts_with("Body 0"), "{}", text[4]);
            assert!(text[4 + body].starts_with("Solutions | Answers 0"), "{}", text[4 + body]);
            assert!(text[plan.content..].iter().all(|t| t.starts_with("Notes")));
        }
    }
}
