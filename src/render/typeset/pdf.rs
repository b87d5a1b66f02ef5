//! The laid-out book as PDF bytes: the serif faces embedded as subset TrueType fonts with
//! two-byte codes (Identity-H: the code is the glyph id of the subset), their ToUnicode
//! maps so text can be searched and copied, and each page's marks as text and rules.
//! Justified spaces are TJ adjustments after each space glyph. No clock: the same book
//! gives the same bytes.

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::book::{Mark, Typeset};
use super::fonts::{Face, Style};

fn resource(style: Style) -> Name<'static> {
    Name(match style {
        Style::Regular => b"F1",
        Style::Italic => b"F2",
        Style::Bold => b"F3",
    })
}

/// Coordinates to 0.01 pt, adjustments to whole thousandths of an em.
fn pt(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

/// The PDF of `book`, titled `title`, with pages of `size` points.
pub fn write(book: &Typeset, title: &str, size: (f32, f32)) -> Vec<u8> {
    let mut next = 0;
    let mut alloc = || {
        next += 1;
        Ref::new(next)
    };
    let (catalog, tree, info) = (alloc(), alloc(), alloc());
    let font_refs: Vec<[Ref; 5]> = Style::ALL.iter().map(|_| [alloc(), alloc(), alloc(), alloc(), alloc()]).collect();
    let page_refs: Vec<(Ref, Ref)> = book.pages.iter().map(|_| (alloc(), alloc())).collect();

    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    {
        let mut pages = pdf.pages(tree);
        pages.kids(page_refs.iter().map(|r| r.0)).count(book.pages.len() as i32);
        let mut resources = pages.resources();
        let mut fonts = resources.fonts();
        for (style, refs) in Style::ALL.iter().zip(&font_refs) {
            fonts.pair(resource(*style), refs[0]);
        }
    }
    {
        let mut doc_info = pdf.document_info(info);
        doc_info.title(TextStr(title));
        doc_info.producer(TextStr("puzzlepress"));
    }
    for (style, refs) in Style::ALL.iter().zip(&font_refs) {
        write_face(&mut pdf, style.face(), *refs);
    }
    let (w, h) = size;
    // Level 3: fewer match probes than level 6, and nearly its size (729 KB against 665 KB
    // for 2,000 entries). Pages are drawn and compressed on all cores.
    let streams = super::in_parallel(&book.pages, |page| crate::render::pdf::zlib(&draw(&page.marks), 3));
    for (z, (page_ref, content_ref)) in streams.iter().zip(page_refs) {
        let mut p = pdf.page(page_ref);
        p.parent(tree).media_box(Rect::new(0.0, 0.0, w, h)).trim_box(Rect::new(0.0, 0.0, w, h));
        p.contents(content_ref);
        p.finish();
        pdf.stream(content_ref, z).filter(Filter::FlateDecode);
    }
    pdf.finish()
}

/// A page's content stream.
fn draw(marks: &[Mark]) -> Vec<u8> {
    let mut c = Content::new();
    let mut in_text = false;
    let mut font: Option<(Style, f32)> = None;
    for mark in marks {
        match mark {
            Mark::Text { style, size, x, y, text, space } => {
                if !in_text {
                    c.begin_text();
                    in_text = true;
                }
                if font != Some((*style, *size)) {
                    c.set_font(resource(*style), pt(*size));
                    font = Some((*style, *size));
                }
                c.set_text_matrix([1.0, 0.0, 0.0, 1.0, pt(*x), pt(*y)]);
                let face = style.face();
                // Each space's width beyond the glyph's, in thousandths of an em (TJ moves
                // left by positive numbers).
                let natural = face.advance(' ') as f32;
                let adjust = (natural - space * 1000.0 / size).round();
                let mut shown = c.show_positioned();
                let mut items = shown.items();
                let mut run: Vec<u8> = Vec::with_capacity(text.len() * 2);
                for ch in text.chars() {
                    run.extend_from_slice(&face.glyph(ch).to_be_bytes());
                    if ch == ' ' && adjust != 0.0 {
                        items.show(Str(&run));
                        run.clear();
                        items.adjust(adjust);
                    }
                }
                if !run.is_empty() {
                    items.show(Str(&run));
                }
            }
            Mark::Rule { x0, x1, y, width } => {
                if in_text {
                    c.end_text();
                    in_text = false;
                    font = None;
                }
                c.set_line_width(*width);
                c.move_to(pt(*x0), pt(*y)).line_to(pt(*x1), pt(*y)).stroke();
            }
        }
    }
    if in_text {
        c.end_text();
    }
    c.finish().into_vec()
}

/// A face as a Type0 font (Identity-H) over a CIDFontType2 whose CIDs are the subset's
/// glyph ids; `refs` are the Type0 font, CID font, descriptor, file and ToUnicode map.
fn write_face(pdf: &mut Pdf, face: &Face, refs: [Ref; 5]) {
    let [type0, cid, descriptor, file, to_unicode] = refs;
    let name = Name(face.name.as_bytes());
    pdf.type0_font(type0)
        .base_font(name)
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(to_unicode);
    let system = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };
    let mut font = pdf.cid_font(cid);
    font.subtype(CidFontType::Type2).base_font(name).system_info(system).font_descriptor(descriptor);
    font.cid_to_gid_map_predefined(Name(b"Identity"));
    let top = face.glyphs.iter().map(|g| g.1).max().unwrap_or(0);
    let mut widths = vec![0.0f32; top as usize + 1];
    for &(_, gid, w) in face.glyphs {
        widths[gid as usize] = w as f32;
    }
    font.widths().consecutive(0, widths);
    font.finish();
    let mut flags = FontFlags::SERIF | FontFlags::NON_SYMBOLIC;
    if face.italic_angle != 0.0 {
        flags |= FontFlags::ITALIC;
    }
    if face.bold {
        flags |= FontFlags::FORCE_BOLD;
    }
    let [x0, y0, x1, y1] = face.bbox;
    pdf.font_descriptor(descriptor)
        .name(name)
        .flags(flags)
        .bbox(Rect::new(x0, y0, x1, y1))
        .italic_angle(face.italic_angle)
        .ascent(face.ascent)
        .descent(face.descent)
        .cap_height(face.cap_height)
        .x_height(face.x_height)
        .stem_v(if face.bold { 140.0 } else { 80.0 })
        .font_file2(file);
    pdf.stream(file, face.file).filter(Filter::FlateDecode);
    pdf.stream(to_unicode, to_unicode_cmap(face).as_bytes());
}

/// Glyph id to Unicode for every glyph of the face.
fn to_unicode_cmap(face: &Face) -> String {
    let mut pairs: Vec<(u16, char)> = face.glyphs.iter().map(|&(c, g, _)| (g, c)).collect();
    pairs.sort_unstable();
    // Two characters drawn by one glyph: the first of them reads back.
    pairs.dedup_by_key(|p| p.0);
    let mut s = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for chunk in pairs.chunks(100) {
        s.push_str(&format!("{} beginbfchar\n", chunk.len()));
        for (g, c) in chunk {
            let mut units = [0u16; 2];
            let hex: String = c.encode_utf16(&mut units).iter().map(|u| format!("{u:04X}")).collect();
            s.push_str(&format!("<{g:04X}> <{hex}>\n"));
        }
        s.push_str("endbfchar\n");
    }
    s.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    s
}
