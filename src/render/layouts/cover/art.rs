//! A cover's front drawn from the book's own content (from fox interior version 4 and
//! layout version 4): a palette's colours, the title set large, and a card showing a piece
//! of the book. Every palette reads in greyscale: its text, ink and accent keep a contrast
//! of at least 4.5 with what they are printed on.

use serde::{Deserialize, Serialize};

use super::CoverText;
use crate::puzzles::oneup::Puzzle;
use crate::render::layouts::oneup::draw_grid;
use crate::render::page::{Canvas, Font, Paint, Rgb, Style};
use crate::render::print::{fit_size, Area};

/// A cover's colours, a choice of a few.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Palette {
    /// Orange, with dark text.
    Fox,
    /// Dark green, with cream text.
    Forest,
    /// Dark blue, with white text.
    Ocean,
    /// Plum, with white text.
    Plum,
    /// Sand, with dark brown text.
    Sand,
}

/// What a palette paints with.
#[derive(Clone, Copy, Debug)]
pub struct Colours {
    /// The whole wrap.
    pub background: Rgb,
    /// Text on the background.
    pub text: Rgb,
    /// The card the artwork is drawn on, and what is drawn on it.
    pub card: Rgb,
    pub ink: Rgb,
    /// Marked letters and rings on the card.
    pub accent: Rgb,
    /// Letters in the background of the artwork.
    pub pale: Rgb,
}

impl Palette {
    pub const ALL: [Palette; 5] = [Palette::Fox, Palette::Forest, Palette::Ocean, Palette::Plum, Palette::Sand];

    pub fn name(self) -> &'static str {
        match self {
            Palette::Fox => "fox",
            Palette::Forest => "forest",
            Palette::Ocean => "ocean",
            Palette::Plum => "plum",
            Palette::Sand => "sand",
        }
    }

    pub fn parse(text: &str) -> Result<Palette, String> {
        Palette::ALL.into_iter().find(|p| p.name() == text).ok_or_else(|| {
            let names: Vec<&str> = Palette::ALL.iter().map(|p| p.name()).collect();
            format!("palette must be one of {}", names.join(", "))
        })
    }

    pub fn colours(self) -> Colours {
        let cream = Rgb(1.0, 0.97, 0.9);
        let ink = Rgb(0.12, 0.12, 0.12);
        let pale = Rgb(0.68, 0.68, 0.68);
        match self {
            Palette::Fox => Colours {
                background: Rgb(0.93, 0.55, 0.2),
                text: Rgb(0.1, 0.1, 0.1),
                card: cream,
                ink,
                accent: Rgb(0.62, 0.12, 0.04),
                pale,
            },
            Palette::Forest => Colours {
                background: Rgb(0.13, 0.32, 0.22),
                text: Rgb(0.98, 0.95, 0.86),
                card: cream,
                ink,
                accent: Rgb(0.08, 0.36, 0.2),
                pale,
            },
            Palette::Ocean => Colours {
                background: Rgb(0.09, 0.2, 0.38),
                text: Rgb(1.0, 1.0, 1.0),
                card: Rgb(0.98, 0.98, 1.0),
                ink,
                accent: Rgb(0.1, 0.26, 0.56),
                pale,
            },
            Palette::Plum => Colours {
                background: Rgb(0.35, 0.14, 0.34),
                text: Rgb(1.0, 0.96, 0.98),
                card: Rgb(1.0, 0.97, 0.98),
                ink,
                accent: Rgb(0.46, 0.12, 0.42),
                pale,
            },
            Palette::Sand => Colours {
                background: Rgb(0.92, 0.85, 0.7),
                text: Rgb(0.2, 0.13, 0.08),
                card: Rgb(1.0, 1.0, 1.0),
                ink,
                accent: Rgb(0.5, 0.22, 0.08),
                pale,
            },
        }
    }
}

/// A piece of the book to show on its front.
pub enum Art<'a> {
    /// A page of letters seen through a fox-shaped window: the letters inside bold, the
    /// rest pale (a Find the Fox book).
    FoxWindow { rows: Vec<String> },
    /// A word-search grid with one word ringed.
    WordSearch { rows: &'a [String], word: &'a [[usize; 2]] },
    /// A One Up puzzle, unsolved.
    OneUp(&'a Puzzle),
}

/// Letters shown of a page at most (a window's worth).
const MAX_CELLS: usize = 17;

/// The front in `f` (inside the safe margins): the title and author at the top, the art on
/// a card, `text`'s tagline under it, its foot at the bottom.
pub fn front(c: &mut Canvas, f: Area, title: &str, author: Option<&str>, text: &CoverText, art: &Art, p: Colours) {
    let mid = f.center_x();
    let size = fit_size(Font::SansBold, title, 44.0, f.w);
    let mut y = f.top() - size;
    c.text_centered(Style::new(Font::SansBold, size).color(p.text), mid, y, title);
    if let Some(author) = author {
        let by = fit_size(Font::Sans, author, 18.0, f.w);
        y -= by + 14.0;
        c.text_centered(Style::new(Font::Sans, by).color(p.text), mid, y, author);
    }
    let bottom = f.y + 58.0;
    let room = Area { x: f.x, y: bottom, w: f.w, h: (y - 26.0 - bottom).max(0.0) };
    let side = room.w.min(room.h);
    let card = Area { x: mid - side / 2.0, y: room.y + (room.h - side) / 2.0, w: side, h: side };
    c.rect(card.x, card.y, card.w, card.h, Paint::Fill(p.card));
    let inside = Area { x: card.x + side * 0.07, y: card.y + side * 0.07, w: side * 0.86, h: side * 0.86 };
    match art {
        Art::FoxWindow { rows } => letters(c, inside, rows, Some(&fox_window), None, p),
        Art::WordSearch { rows, word } => letters(c, inside, rows, None, Some(word), p),
        Art::OneUp(puzzle) => draw_grid(c, puzzle, None, inside.tuple(), 60.0, p.ink),
    }
    let tagline = &text.tagline;
    let style = Style::new(Font::Sans, fit_size(Font::Sans, tagline, 15.0, f.w)).color(p.text);
    c.text_centered(style, mid, card.y - 26.0, tagline);
    c.text_centered(Style::new(Font::Sans, 9.0).color(p.text), mid, f.y + 6.0, &text.foot);
}

/// A grid of letters (a space is an empty cell) as large as fits in `area`, at most
/// [`MAX_CELLS`] a side: within `window` (a shape over the unit square) bold in ink and
/// the rest pale; or `word`'s cells bold in the accent and ringed, the rest in ink.
fn letters(
    c: &mut Canvas,
    area: Area,
    rows: &[String],
    window: Option<&dyn Fn(f32, f32) -> bool>,
    word: Option<&[[usize; 2]]>,
    p: Colours,
) {
    let grid: Vec<&[u8]> = rows.iter().take(MAX_CELLS).map(|r| &r.as_bytes()[..r.len().min(MAX_CELLS)]).collect();
    let (n_rows, n_cols) = (grid.len(), grid.iter().map(|r| r.len()).max().unwrap_or(0));
    if n_rows == 0 || n_cols == 0 {
        return;
    }
    let pitch = (area.w / n_cols as f32).min(area.h / n_rows as f32);
    let left = area.center_x() - pitch * n_cols as f32 / 2.0;
    let top = area.top() - (area.h - pitch * n_rows as f32) / 2.0;
    let size = pitch * 0.62;
    let centre = |r: usize, col: usize| (left + (col as f32 + 0.5) * pitch, top - (r as f32 + 0.5) * pitch);
    let in_word = |r: usize, col: usize| word.is_some_and(|w| w.contains(&[r, col]));
    for (r, row) in grid.iter().enumerate() {
        for (col, &letter) in row.iter().enumerate() {
            if letter == b' ' {
                continue;
            }
            let (x, y) = centre(r, col);
            let inside =
                window.is_some_and(|w| w((col as f32 + 0.5) / n_cols as f32, (r as f32 + 0.5) / n_rows as f32));
            let style = match (window.is_some(), inside, in_word(r, col)) {
                (true, true, _) => Style::new(Font::MonoBold, size).color(p.ink),
                (true, false, _) => Style::new(Font::Mono, size).color(p.pale),
                (false, _, true) => Style::new(Font::MonoBold, size).color(p.accent),
                (false, _, false) => Style::new(Font::Mono, size).color(p.ink),
            };
            let baseline = y - style.font.cap_height() * size / 2000.0;
            c.text_centered(style, x, baseline, &(letter as char).to_string());
        }
    }
    if let Some(&[first, .., last]) = word {
        if first[0] < n_rows && last[0] < n_rows && first[1] < n_cols && last[1] < n_cols {
            let (a, b) = (centre(first[0], first[1]), centre(last[0], last[1]));
            c.stadium(a, b, pitch * 0.46, (pitch * 0.07).max(0.8), p.accent);
        }
    }
}

/// A fox's head seen from the front, over the unit square (x right, y down): two ears, the
/// cheeks, the snout at the bottom.
fn fox_window(x: f32, y: f32) -> bool {
    const HEAD: [(f32, f32); 9] = [
        (0.1, 0.02),
        (0.36, 0.34),
        (0.64, 0.34),
        (0.9, 0.02),
        (0.97, 0.46),
        (0.8, 0.66),
        (0.5, 0.98),
        (0.2, 0.66),
        (0.03, 0.46),
    ];
    let mut inside = false;
    let mut previous = HEAD[HEAD.len() - 1];
    for &(xi, yi) in &HEAD {
        let (xj, yj) = previous;
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            inside = !inside;
        }
        previous = (xi, yi);
    }
    inside
}

/// WCAG's relative luminance of a colour.
pub fn luminance(c: Rgb) -> f32 {
    let lin = |v: f32| if v <= 0.03928 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// The contrast ratio of two colours (1 to 21), as they also read in greyscale.
pub fn contrast(a: Rgb, b: Rgb) -> f32 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_palette_reads_in_greyscale() {
        for palette in Palette::ALL {
            let p = palette.colours();
            assert!(contrast(p.text, p.background) >= 4.5, "{palette:?}: text on the background");
            assert!(contrast(p.ink, p.card) >= 4.5, "{palette:?}: ink on the card");
            assert!(contrast(p.accent, p.card) >= 4.5, "{palette:?}: accent on the card");
            assert!(contrast(p.pale, p.card) >= 1.8, "{palette:?}: pale letters still show");
            assert!(contrast(p.ink, p.pale) >= 3.0, "{palette:?}: the window stands out");
            assert_eq!(Palette::parse(palette.name()), Ok(palette));
        }
        assert!(Palette::parse("pink").unwrap_err().contains("fox, forest, ocean, plum, sand"));
    }

    #[test]
    fn the_fox_window_is_a_head_with_two_ears() {
        assert!(fox_window(0.5, 0.5) && fox_window(0.15, 0.12) && fox_window(0.85, 0.12));
        assert!(!fox_window(0.5, 0.15), "between the ears");
        assert!(!fox_window(0.05, 0.95) && !fox_window(0.95, 0.95), "beside the snout");
    }
}
