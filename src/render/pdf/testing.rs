//! Reading back what a document draws, for tests of the layouts: `lopdf` parses the file,
//! inflates each page's content stream and splits it into operations.

use crate::render::fonts::Font;
use crate::render::page::Rgb;
use lopdf::content::{Content, Operation};
use lopdf::{Document, Object};

/// Each page's drawing operations, in page order, with the forms it draws in place
/// (between `q` and `Q`, as a form's drawing is). Also checks that the page tree's
/// `/Count` agrees with its pages.
pub fn pages(pdf: &[u8]) -> Vec<Vec<Operation>> {
    let doc = Document::load_mem(pdf).expect("lopdf reads the PDF");
    let tree = doc.catalog().and_then(|c| c.get_deref(b"Pages", &doc)).and_then(Object::as_dict).unwrap();
    let count = tree.get(b"Count").and_then(Object::as_i64).unwrap();
    let decode = |stream: &lopdf::Stream| {
        let data = stream.decompressed_content().expect("content streams inflate");
        Content::decode(&data).expect("content streams are well formed").operations
    };
    let forms = tree.get(b"Resources").and_then(Object::as_dict).ok().and_then(|r| r.get(b"XObject").ok());
    let form = |name: &[u8]| -> Vec<Operation> {
        let forms = forms.and_then(|f| f.as_dict().ok()).expect("the page tree names its forms");
        let id = forms.get(name).and_then(Object::as_reference).expect("a form the page tree names");
        let stream = doc.get_object(id).and_then(Object::as_stream).unwrap();
        assert_eq!(stream.dict.get(b"Subtype").and_then(Object::as_name).unwrap(), b"Form");
        let fonts = stream.dict.get(b"Resources").and_then(Object::as_dict).and_then(|r| r.get(b"Font"));
        assert!(fonts.is_ok(), "a form names its fonts");
        decode(stream)
    };
    let pages: Vec<Vec<Operation>> = doc
        .page_iter()
        .map(|page| {
            let streams = doc.get_page_contents(page);
            assert_eq!(streams.len(), 1, "one content stream per page");
            let stream = doc.get_object(streams[0]).and_then(Object::as_stream).unwrap();
            let mut ops = Vec::new();
            for op in decode(stream) {
                if op.operator == "Do" {
                    ops.push(Operation::new("q", vec![]));
                    ops.extend(form(op.operands[0].as_name().unwrap()));
                    ops.push(Operation::new("Q", vec![]));
                } else {
                    ops.push(op);
                }
            }
            ops
        })
        .collect();
    assert_eq!(pages.len() as i64, count);
    pages
}

/// The numeric operands of `op`.
pub fn numbers(op: &Operation) -> Vec<f32> {
    op.operands.iter().map(|o| o.as_float().expect("numeric operand")).collect()
}

/// Each operation as text, operands then operator: `0.5 w`, `/F2 12 Tf`, `(FOX) Tj`.
pub fn listing(page: &[Operation]) -> Vec<String> {
    fn word(obj: &Object) -> String {
        match obj {
            Object::Integer(i) => i.to_string(),
            Object::Real(r) => r.to_string(),
            Object::Name(n) => format!("/{}", String::from_utf8_lossy(n)),
            Object::String(bytes, _) => format!("({})", String::from_utf8_lossy(bytes)),
            Object::Array(items) => format!("[{}]", items.iter().map(word).collect::<Vec<_>>().join(" ")),
            other => format!("{other:?}"),
        }
    }
    page.iter()
        .map(|op| op.operands.iter().map(word).chain([op.operator.clone()]).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The operations with this operator, in order.
pub fn ops<'a>(page: &'a [Operation], operator: &'a str) -> impl Iterator<Item = &'a Operation> {
    page.iter().filter(move |op| op.operator == operator)
}

/// One text-showing operation of a content stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub font: Font,
    pub size: f32,
    /// The fill colour in force.
    pub color: Rgb,
    /// The glyphs shown, without positioning.
    pub text: String,
}

/// The text shown by `Tj` and `TJ` on `page`, in drawing order, with the font and
/// colour in force.
pub fn shown(page: &[Operation]) -> Vec<Shown> {
    let (mut font, mut size, mut color) = (None, 0.0, Rgb::BLACK);
    let mut saved = Vec::new();
    let mut out = Vec::new();
    for op in page {
        match op.operator.as_str() {
            "q" => saved.push((font, size, color)),
            "Q" => (font, size, color) = saved.pop().expect("Q after q"),
            "Tf" => {
                let name = op.operands[0].as_name().unwrap();
                font = Font::ALL.into_iter().find(|f| super::content::resource(*f).0 == name);
                size = op.operands[1].as_float().unwrap();
            }
            "rg" => {
                let c = numbers(op);
                color = Rgb(c[0], c[1], c[2]);
            }
            "Tj" | "TJ" | "'" => {
                let mut text = String::new();
                strings(&op.operands[0], &mut text);
                out.push(Shown { font: font.expect("a font is set before text"), size, color, text });
            }
            _ => {}
        }
    }
    out
}

/// The string operands in `obj` (a string, or a `TJ` array), concatenated.
fn strings(obj: &Object, out: &mut String) {
    match obj {
        Object::String(bytes, _) => out.extend(bytes.iter().map(|&b| b as char)),
        Object::Array(items) => items.iter().for_each(|item| strings(item, out)),
        _ => {}
    }
}

#[test]
fn reads_back_shown_text() {
    let content = b"BT\n/F2 12 Tf\n0 0 1 rg\n1 2 Td\n(a\\)b)Tj\n/F1 9 Tf\n[(1)-20(2)]TJ\nET\n";
    let s = shown(&Content::decode(content).unwrap().operations);
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].font, s[0].color, s[0].text.as_str()), (Font::SansBold, Rgb(0.0, 0.0, 1.0), "a)b"));
    assert_eq!((s[1].font, s[1].size, s[1].text.as_str()), (Font::Sans, 9.0, "12"));
}
