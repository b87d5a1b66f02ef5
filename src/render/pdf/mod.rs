//! The one PDF writer: every document of every product, the pages of the page model
//! ([`write`]) and the typesetter's pages ([`write_typeset`]), through one assembly of
//! objects (catalog, page tree, information, fonts embedded once each by one path, pages,
//! forms), in pdf-writer. No clock: the same pages give the same bytes.
//!
//! Coordinates are PDF points with the origin at the bottom left of the page.

mod compress;
mod content;
mod fonts;
mod huffman;
mod serif;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;

pub use compress::Compression;

use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Settings, TextStr};

use super::fonts::serif::Style as Face;
use super::fonts::Font;
use super::page::Document;
use super::typeset::Typeset;
use fonts::Program;

/// How a document is written: a layout version's choice, kept so that its documents keep
/// their bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub compression: Compression,
    /// Objects written without the line breaks and indents that make them readable.
    pub compact: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { compression: Compression::Miniz1, compact: false }
    }
}

/// Every object reference of a document, allocated in the order the objects are numbered.
struct Refs {
    catalog: Ref,
    tree: Ref,
    info: Ref,
    /// The sans family's shared encoding and ToUnicode maps.
    shared_maps: Option<(Ref, Ref)>,
    fonts: Vec<Vec<Ref>>,
    /// Each page's dictionary and content stream.
    pages: Vec<(Ref, Ref)>,
    forms: Vec<Ref>,
}

impl Refs {
    fn allocate(shared_maps: bool, fonts: &[(Name, Program)], pages: usize, forms: usize) -> Refs {
        let mut next = 0;
        let mut alloc = || {
            next += 1;
            Ref::new(next)
        };
        let (catalog, tree, info) = (alloc(), alloc(), alloc());
        let shared_maps = shared_maps.then(|| (alloc(), alloc()));
        let fonts = fonts.iter().map(|(_, p)| (0..p.refs()).map(|_| alloc()).collect()).collect();
        let pages = (0..pages).map(|_| (alloc(), alloc())).collect();
        let forms = (0..forms).map(|_| alloc()).collect();
        Refs { catalog, tree, info, shared_maps, fonts, pages, forms }
    }

    fn count(&self) -> usize {
        self.forms.last().or(self.pages.last().map(|p| &p.1)).map_or(3, |r| r.get() as usize)
    }
}

/// A document's objects before its pages: catalog, page tree (its kids, and the fonts and
/// forms its pages share as resources), information, fonts.
fn begin(refs: &Refs, fonts: &[(Name, Program)], forms: &[String], title: Option<&str>, pdf: &mut Pdf) {
    pdf.catalog(refs.catalog).pages(refs.tree);
    {
        let mut pages = pdf.pages(refs.tree);
        pages.kids(refs.pages.iter().map(|r| r.0)).count(refs.pages.len() as i32);
        let mut resources = pages.resources();
        font_resources(&mut resources.fonts(), fonts, refs);
        if !forms.is_empty() {
            let mut dict = resources.x_objects();
            for (name, r) in forms.iter().zip(&refs.forms) {
                dict.pair(Name(name.as_bytes()), *r);
            }
        }
    }
    {
        let mut doc_info = pdf.document_info(refs.info);
        if let Some(t) = title {
            doc_info.title(TextStr(t));
        }
        doc_info.producer(TextStr("puzzlepress"));
    }
    if let (Some((encoding, to_unicode)), false) = (refs.shared_maps, fonts.is_empty()) {
        fonts::write_shared_maps(pdf, encoding, to_unicode);
    }
    for ((_, program), font_refs) in fonts.iter().zip(&refs.fonts) {
        fonts::embed(pdf, program, font_refs, refs.shared_maps);
    }
}

fn font_resources(dict: &mut pdf_writer::Dict, fonts: &[(Name, Program)], refs: &Refs) {
    for ((name, _), font_refs) in fonts.iter().zip(&refs.fonts) {
        dict.pair(*name, font_refs[0]);
    }
}

/// Page `i` of `size` points with `bleed` on every side, showing `stream` (deflated or not).
fn page(pdf: &mut Pdf, refs: &Refs, i: usize, size: (f32, f32), bleed: f32, stream: &[u8], deflated: bool) {
    let ((w, h), b) = (size, bleed);
    let (page_ref, content_ref) = refs.pages[i];
    let mut p = pdf.page(page_ref);
    p.parent(refs.tree).media_box(Rect::new(0.0, 0.0, w, h)).trim_box(Rect::new(b, b, w - b, h - b));
    if b > 0.0 {
        p.bleed_box(Rect::new(0.0, 0.0, w, h));
    }
    p.contents(content_ref);
    p.finish();
    let mut s = pdf.stream(content_ref, stream);
    if deflated {
        s.filter(Filter::FlateDecode);
    }
}

/// The PDF of a document of the page model. Fonts (and forms) are shared resources of the
/// page tree (inherited by pages), each font embedded once, the sans family with the
/// encoding and ToUnicode maps its fonts share.
pub fn write(doc: &Document) -> Vec<u8> {
    let pages: Vec<_> = doc.pages.iter().map(|p| content::content(&p.marks)).collect();
    let forms: Vec<_> = doc.forms.iter().map(|f| content::content(&f.marks)).collect();
    let used = |f: Font| pages.iter().chain(&forms).any(|(_, fonts)| fonts[f.index()]);
    let fonts: Vec<(Name, Program)> =
        Font::ALL.into_iter().filter(|&f| used(f)).map(|f| (content::resource(f), Program::sans(f))).collect();
    let form_names: Vec<String> = (0..forms.len()).map(|i| content::form_name(super::page::Form(i))).collect();
    let refs = Refs::allocate(true, &fonts, pages.len(), forms.len());

    let Options { compression, compact } = doc.options;
    let font_bytes: usize = fonts.iter().map(|(_, p)| p.size()).sum();
    let ratio = if compression == Compression::None { 1 } else { 4 };
    let body: usize = pages.iter().chain(&forms).map(|(c, _)| c.len() / ratio + 220).sum::<usize>() + 20 * refs.count();
    let mut pdf = Pdf::with_settings_and_capacity(Settings { pretty: !compact }, body + font_bytes + 2048);
    begin(&refs, &fonts, &form_names, doc.title.as_deref(), &mut pdf);
    for (i, ((content, _), p)) in pages.iter().zip(&doc.pages).enumerate() {
        let z = compression.apply(content);
        page(&mut pdf, &refs, i, p.size, p.bleed, z.as_deref().unwrap_or(content), z.is_some());
    }
    for (((content, _), form), form_ref) in forms.iter().zip(&doc.forms).zip(&refs.forms) {
        let (w, h) = form.size;
        let z = compression.apply(content);
        let mut x = pdf.form_xobject(*form_ref, z.as_deref().unwrap_or(content));
        if z.is_some() {
            x.filter(Filter::FlateDecode);
        }
        x.bbox(Rect::new(0.0, 0.0, w, h));
        // A form's own resources (readers need not look at the page's).
        font_resources(&mut x.resources().fonts(), &fonts, &refs);
    }
    pdf.finish()
}

/// The PDF of the typesetter's `book`, titled `title`, with pages of `size` points, in the
/// serif faces (every one embedded) and compressed by libdeflate.
pub fn write_typeset(book: &Typeset, title: &str, size: (f32, f32)) -> Vec<u8> {
    let fonts: Vec<(Name, Program)> = Face::ALL.iter().map(|&s| (serif::resource(s), Program::serif(s))).collect();
    let refs = Refs::allocate(false, &fonts, book.pages.len(), 0);
    // Room for it all from the start (a page's stream is two or three kilobytes
    // compressed): a buffer grown as it fills was copied at every doubling, into memory the
    // kernel had to clear each time. Not much more: room for 16 KiB a page took a huge
    // page of its own, which the kernel cleared whole.
    let faces: usize = Face::ALL.iter().map(|s| s.face().file.len()).sum();
    // Pages are drawn and compressed on all cores, the rest made and written meanwhile
    // (the buffer made and begun before the pages were: its fresh memory, which the
    // allocator and the kernel clear as it is first touched, held them up).
    let (streams, mut pdf) = crate::parallel::in_parallel_beside(
        &book.pages,
        |page| {
            // Each thread draws into one buffer, kept for the pages it takes next.
            thread_local! {
                static STREAM: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
            }
            STREAM.with_borrow_mut(|stream| {
                stream.clear();
                serif::draw(book.marks(page), book, stream);
                Compression::Libdeflate1.apply(stream).expect("deflated")
            })
        },
        || {
            let mut pdf = Pdf::with_capacity(faces + 64 * 1024 + 4 * 1024 * book.pages.len());
            begin(&refs, &fonts, &[], Some(title), &mut pdf);
            pdf
        },
    );
    for (i, z) in streams.iter().enumerate() {
        page(&mut pdf, &refs, i, size, 0.0, z, true);
    }
    pdf.finish()
}
