//! A page of the page model as SVG, for previews on the web pages (a cover's front): the
//! same marks the PDF writer draws, text in the fonts by name (a browser without DejaVu
//! falls back to its own sans-serif, a preview's text may then run a little wider).

use std::fmt::Write;

use crate::render::page::{Canvas, Font, Mark, Paint, Rgb, Style};
use crate::render::print::Area;

/// The part `view` of `page` (in the page's points, y up) as an SVG document `width_px`
/// wide. Forms are not drawn (previews have none).
pub fn svg(page: &Canvas, view: Area, width_px: f32) -> String {
    let mut s = String::new();
    let height_px = width_px * view.h / view.w;
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="{} {} {} {}">"#,
        n(width_px),
        n(height_px),
        n(view.x),
        n(page.size.1 - view.top()),
        n(view.w),
        n(view.h)
    );
    // SVG's y runs down from the page's top.
    let top = page.size.1;
    let y = |v: f32| n(top - v);
    for mark in &page.marks {
        match mark {
            Mark::Text { style, x, y: by, text } => text_el(&mut s, *style, n(*x), y(*by), "start", "", text),
            Mark::TextDownwards { style, x, y: by, text } => {
                let turn = format!(r#" transform="rotate(90 {} {})""#, n(*x), y(*by));
                text_el(&mut s, *style, n(*x), y(*by), "start", &turn, text)
            }
            Mark::CellRow { style, x, y: by, pitch, cells } => {
                for (i, c) in cells.iter().enumerate() {
                    if let Some(c) = c {
                        let cx = n(x + (i as f32 + 0.5) * pitch);
                        text_el(&mut s, *style, cx, y(*by), "middle", "", &c.to_string());
                    }
                }
            }
            Mark::MonoRows { style, x, y: by, pitch, cols, letters } => {
                for (i, &l) in letters.iter().enumerate().filter(|(_, &l)| l != b' ') {
                    let (r, c) = (i / cols.max(&1), i % cols.max(&1));
                    let cx = n(x + (c as f32 + 0.5) * pitch);
                    text_el(&mut s, *style, cx, y(by - r as f32 * pitch), "middle", "", &(l as char).to_string());
                }
            }
            Mark::Form(_) => {}
            Mark::Line { from, to, width, color } => {
                let _ = write!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}"/>"#,
                    n(from.0),
                    y(from.1),
                    n(to.0),
                    y(to.1),
                    rgb(*color),
                    n(*width)
                );
            }
            Mark::Segments { segments, width, color } => {
                let mut d = String::new();
                for (a, b) in segments {
                    let _ = write!(d, "M{} {}L{} {}", n(a.0), y(a.1), n(b.0), y(b.1));
                }
                let _ = write!(
                    s,
                    r#"<path d="{d}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="square"/>"#,
                    rgb(*color),
                    n(*width)
                );
            }
            Mark::Stadium { a, b, radius, width, color } => {
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let length = (dx * dx + dy * dy).sqrt() + 2.0 * radius;
                let degrees = -dy.atan2(dx).to_degrees();
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{r}" fill="none" stroke="{}" stroke-width="{}" transform="translate({} {}) rotate({})"/>"#,
                    n(-length / 2.0),
                    n(-radius),
                    n(length),
                    n(2.0 * radius),
                    rgb(*color),
                    n(*width),
                    n((a.0 + b.0) / 2.0),
                    y((a.1 + b.1) / 2.0),
                    n(degrees),
                    r = n(*radius),
                );
            }
            Mark::Rect { x, y: ry, width, height, paint } => {
                let paint = match paint {
                    Paint::Fill(color) => format!(r#"fill="{}""#, rgb(*color)),
                    Paint::Stroke { width, color } => {
                        format!(r#"fill="none" stroke="{}" stroke-width="{}""#, rgb(*color), n(*width))
                    }
                };
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" {paint}/>"#,
                    n(*x),
                    y(ry + height),
                    n(*width),
                    n(*height)
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

fn text_el(s: &mut String, style: Style, x: String, y: String, anchor: &str, extra: &str, text: &str) {
    let (family, weight) = match style.font {
        Font::Sans => ("DejaVu Sans, Verdana, sans-serif", "normal"),
        Font::SansBold => ("DejaVu Sans, Verdana, sans-serif", "bold"),
        Font::Mono => ("DejaVu Sans Mono, Menlo, monospace", "normal"),
        Font::MonoBold => ("DejaVu Sans Mono, Menlo, monospace", "bold"),
    };
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" font-family="{family}" font-weight="{weight}" font-size="{}" fill="{}" text-anchor="{anchor}"{extra}>{}</text>"#,
        n(style.size),
        rgb(style.color),
        escape(text)
    );
}

/// A number with at most two decimals.
fn n(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn rgb(c: Rgb) -> String {
    let b = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", b(c.0), b(c.1), b(c.2))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::page::Document;

    #[test]
    fn marks_become_elements_in_the_view_with_y_flipped() {
        let mut doc = Document::new();
        let c = doc.add_page((200.0, 100.0));
        c.rect(10.0, 20.0, 30.0, 40.0, Paint::Fill(Rgb(1.0, 0.5, 0.0)));
        c.text(Style::new(Font::SansBold, 12.0), 50.0, 80.0, "Fox & <Hound>");
        c.stadium((60.0, 50.0), (90.0, 50.0), 5.0, 1.0, Rgb::BLACK);
        let svg = svg(&doc.pages[0], Area { x: 0.0, y: 0.0, w: 200.0, h: 100.0 }, 400.0);
        assert!(svg
            .starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 200 100">"#));
        assert!(svg.contains(r##"<rect x="10" y="40" width="30" height="40" fill="#ff8000"/>"##), "{svg}");
        assert!(svg.contains(r#"y="20" font-family="DejaVu Sans, Verdana, sans-serif" font-weight="bold""#), "{svg}");
        assert!(svg.contains(">Fox &amp; &lt;Hound&gt;</text>"), "{svg}");
        assert!(
            svg.contains(r#"width="40" height="10" rx="5""#) && svg.contains("translate(75 50) rotate(0)"),
            "{svg}"
        );
    }
}
