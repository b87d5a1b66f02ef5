//! Fonts as the writer embeds them, by one path: each a Type0 font over a CIDFontType2
//! (TrueType outlines) whose CIDs are the subset's glyph ids, with an encoding CMap and a
//! ToUnicode CMap so that text can be searched and copied. The sans family's codes are
//! ASCII (glyph = code - 31), so its fonts share one pair of maps; each serif face has
//! its own (one byte for printable ASCII, two for any other glyph: see [`super::serif`]).

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo};
use pdf_writer::{Filter, Name, Pdf, Rect, Ref, Str};

use super::serif::encode;
use crate::render::fonts::serif::{Face, Style};
use crate::render::fonts::{Font, FIRST};

const IDENTITY: SystemInfo = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };

/// What the PDF says of a font, from either family's metrics.
pub(super) struct Program {
    name: &'static str,
    file: &'static [u8],
    bbox: [f32; 4],
    ascent: f32,
    descent: f32,
    cap_height: f32,
    x_height: Option<f32>,
    italic_angle: f32,
    flags: FontFlags,
    bold: bool,
    /// The first CID's number and the advances of it and those after it, in 1/1000 em.
    first_cid: u16,
    widths: Vec<f32>,
    /// The face whose own encoding and ToUnicode maps it has (a serif face).
    own_maps: Option<&'static Face>,
}

impl Program {
    pub(super) fn sans(font: Font) -> Program {
        let m = font.metrics();
        let mut flags = FontFlags::NON_SYMBOLIC;
        if m.monospace {
            flags |= FontFlags::FIXED_PITCH;
        }
        if m.bold {
            flags |= FontFlags::FORCE_BOLD;
        }
        debug_assert_eq!(FIRST, b' ', "code c shows CID c - 31, the first CID 1");
        Program {
            name: m.name,
            file: m.file,
            bbox: m.bbox,
            ascent: m.ascent,
            descent: m.descent,
            cap_height: m.cap_height,
            x_height: None,
            italic_angle: 0.0,
            flags,
            bold: m.bold,
            first_cid: 1,
            widths: m.widths.iter().map(|&w| w as f32).collect(),
            own_maps: None,
        }
    }

    pub(super) fn serif(style: Style) -> Program {
        let face = style.face();
        let mut flags = FontFlags::SERIF | FontFlags::NON_SYMBOLIC;
        if face.italic_angle != 0.0 {
            flags |= FontFlags::ITALIC;
        }
        if face.bold {
            flags |= FontFlags::FORCE_BOLD;
        }
        let top = face.glyphs.iter().map(|g| g.1).max().unwrap_or(0);
        let mut widths = vec![0.0f32; top as usize + 1];
        for &(_, gid, w) in face.glyphs {
            widths[gid as usize] = w as f32;
        }
        Program {
            name: face.name,
            file: face.file,
            bbox: face.bbox,
            ascent: face.ascent,
            descent: face.descent,
            cap_height: face.cap_height,
            x_height: Some(face.x_height),
            italic_angle: face.italic_angle,
            flags,
            bold: face.bold,
            first_cid: 0,
            widths,
            own_maps: Some(face),
        }
    }

    /// Bytes it adds to a document, about.
    pub(super) fn size(&self) -> usize {
        self.file.len() + 1200
    }

    /// References it needs of its own: the Type0 font, CID font, descriptor and file, and
    /// for a face with its own maps the ToUnicode map and the encoding.
    pub(super) fn refs(&self) -> usize {
        if self.own_maps.is_some() {
            6
        } else {
            4
        }
    }
}

/// The maps the sans family shares, at `encoding` and `to_unicode`.
pub(super) fn write_shared_maps(pdf: &mut Pdf, encoding: Ref, to_unicode: Ref) {
    pdf.cmap(encoding, ENCODING_CMAP.as_bytes()).name(Name(b"PuzzlepressASCII")).system_info(IDENTITY);
    pdf.stream(to_unicode, TO_UNICODE_CMAP.as_bytes());
}

/// Embeds `program` at `refs` ([`Program::refs`] of them); `shared` are the family's
/// shared encoding and ToUnicode maps, for a font without its own.
pub(super) fn embed(pdf: &mut Pdf, program: &Program, refs: &[Ref], shared: Option<(Ref, Ref)>) {
    let (type0, cid, descriptor, file) = (refs[0], refs[1], refs[2], refs[3]);
    let (encoding, to_unicode) = match program.own_maps {
        Some(_) => (refs[5], refs[4]),
        None => shared.expect("a sans font is embedded with the family's maps"),
    };
    let name = Name(program.name.as_bytes());
    pdf.type0_font(type0).base_font(name).encoding_cmap(encoding).descendant_font(cid).to_unicode(to_unicode);
    if let Some(face) = program.own_maps {
        pdf.cmap(encoding, encoding_cmap(face).as_bytes()).name(Name(ENCODING.as_bytes())).system_info(IDENTITY);
    }
    let mut font = pdf.cid_font(cid);
    font.subtype(CidFontType::Type2).base_font(name).system_info(IDENTITY).font_descriptor(descriptor);
    font.cid_to_gid_map_predefined(Name(b"Identity"));
    font.widths().consecutive(program.first_cid, program.widths.iter().copied());
    drop(font);
    let [x0, y0, x1, y1] = program.bbox;
    let mut d = pdf.font_descriptor(descriptor);
    d.name(name)
        .flags(FontFlags::from_bits_truncate(program.flags.bits()))
        .bbox(Rect::new(x0, y0, x1, y1))
        .italic_angle(program.italic_angle)
        .ascent(program.ascent)
        .descent(program.descent)
        .cap_height(program.cap_height);
    if let Some(x_height) = program.x_height {
        d.x_height(x_height);
    }
    d.stem_v(if program.bold { 140.0 } else { 80.0 }).font_file2(file);
    drop(d);
    pdf.stream(file, program.file).filter(Filter::FlateDecode);
    if let Some(face) = program.own_maps {
        pdf.stream(to_unicode, to_unicode_cmap(face).as_bytes());
    }
}

/// The encoding of every sans font: one byte a character, code `c` showing CID (= subset glyph)
/// `c - 31`.
const ENCODING_CMAP: &str = "%!PS-Adobe-3.0 Resource-CMap
/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def
/CMapName /PuzzlepressASCII def
/CMapType 1 def
1 begincodespacerange
<00> <FF>
endcodespacerange
1 begincidrange
<20> <7E> 1
endcidrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end
";

/// Code to Unicode for copying and searching sans text: the codes are ASCII.
const TO_UNICODE_CMAP: &str = "/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<00> <FF>
endcodespacerange
1 beginbfrange
<20> <7E> <0020>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end
";

/// The encodings' CMap name.
const ENCODING: &str = "PZPR-Serif-H";

/// The codes of [`encode`]: one byte for printable ASCII, two for any glyph.
const CODESPACE: &str = "2 begincodespacerange\n<00> <7F>\n<8000> <FFFF>\nendcodespacerange\n";

/// A CMap's text in the frame every CMap has, over the codes of [`encode`]: each
/// `(kind, lines)` as blocks of at most 100 lines (`N begin{kind}` … `end{kind}`, the most
/// a block may hold).
fn cmap(ordering: &str, name: &str, cmap_type: u8, sections: &[(&str, Vec<String>)]) -> String {
    let mut s = format!(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering ({ordering}) /Supplement 0 >> def\n\
         /CMapName /{name} def\n/CMapType {cmap_type} def\n{CODESPACE}"
    );
    for (kind, lines) in sections {
        for block in lines.chunks(100) {
            s.push_str(&format!("{} begin{kind}\n", block.len()));
            for line in block {
                s.push_str(line);
                s.push('\n');
            }
            s.push_str(&format!("end{kind}\n"));
        }
    }
    s.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    s
}

/// The face's encoding: the codes of [`encode`] to glyph ids (CIDs).
fn encoding_cmap(face: &Face) -> String {
    let ascii = (b' '..=b'~')
        .map(|b| {
            let mut line = String::with_capacity(10);
            hex(&mut line, &[b]);
            line.push(' ');
            line.push_str(&face.glyph(b as char).to_string());
            line
        })
        .collect();
    // Two-byte codes by their first byte, a range each (a range varies in its last byte).
    let top = face.glyphs.iter().map(|g| g.1).max().unwrap_or(0);
    assert!(top < 0x8000, "glyph ids fit the two-byte codes");
    let ranges = (0..=top >> 8).map(|hi| format!("<{:02X}00> <{:02X}FF> {}", 0x80 | hi, 0x80 | hi, hi << 8)).collect();
    cmap("Identity", ENCODING, 1, &[("cidchar", ascii), ("cidrange", ranges)])
}

/// `<…>`: `bytes` in upper-case hex (by hand: formatted, the faces' maps took 0.8 % of a
/// dictionary's instructions).
fn hex(line: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    line.push('<');
    for &b in bytes {
        line.push(DIGITS[usize::from(b >> 4)] as char);
        line.push(DIGITS[usize::from(b & 15)] as char);
    }
    line.push('>');
}

/// Each code of [`encode`] to its text, for every glyph of the face.
fn to_unicode_cmap(face: &Face) -> String {
    let mut pairs: Vec<(Vec<u8>, char)> = face
        .glyphs
        .iter()
        .map(|&(c, _, _)| {
            let mut buf = [0u8; 2];
            (encode(face, c, &mut buf).to_vec(), c)
        })
        .collect();
    pairs.sort_unstable();
    // Two characters drawn by one glyph (not ASCII): the first of them reads back.
    pairs.dedup_by(|a, b| a.0 == b.0);
    let lines = pairs
        .iter()
        .map(|(code, c)| {
            let mut units = [0u16; 2];
            let mut line = String::with_capacity(20);
            hex(&mut line, code);
            line.push(' ');
            let text: Vec<u8> = c.encode_utf16(&mut units).iter().flat_map(|u| u.to_be_bytes()).collect();
            hex(&mut line, &text);
            line
        })
        .collect();
    cmap("UCS", "Adobe-Identity-UCS", 2, &[("bfchar", lines)])
}
