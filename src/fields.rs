//! Structs of the API's JSON written with two shorthands, so that what repeats is said once.
//!
//! [`api_struct!`] writes a serde and OpenAPI struct whose body may hold, besides fields
//! as Rust writes them:
//! - `name?: T`, an optional member: `Option<T>`, left out of the JSON when absent and
//!   never null in the schema;
//! - `..group`, a group of members several structs share (the word source of the crossword
//!   searches, the imprint of the books, the grid and word rules of the word searches), with
//!   their docs, defaults and limits, and the group's accessor (`source()`, `imprint()`).
//!   A group is spliced in rather than nested with `#[serde(flatten)]`, because serde cannot
//!   deny an unknown field through a flattened struct, and the JSON stays flat.

/// Writes a struct with optional members and member groups; see the [module](self).
macro_rules! api_struct {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident { $($body:tt)* }
    ) => {
        $crate::fields::api_struct!(@munch [$(#[$attr])* $vis struct $name] $name [] [] $($body)*);
    };

    // All fields read: the struct and the accessors of its groups.
    (@munch [$($head:tt)*] $name:ident [$($fields:tt)*] [$($impls:tt)*]) => {
        $($head)* { $($fields)* }
        impl $name { $($impls)* }
    };

    (@munch $head:tt $name:ident [$($fields:tt)*] [$($impls:tt)*] ..word_source, $($rest:tt)*) => {
        // The members go back into the input, to be read as the struct's own.
        $crate::fields::api_struct!(@munch $head $name [$($fields)*] [$($impls)*
            /// Its word list and entry filter.
            pub fn source(&self) -> $crate::puzzles::crossword::WordSource<'_> {
                $crate::puzzles::crossword::WordSource::new(
                    &self.words,
                    &self.wordlist,
                    self.min_score,
                    self.allow_offensive,
                )
            }
        ]
            /// A small word list of its own instead of the bundled English one: entries, each
            /// `entry` or `entry;score` (0..100, default 50). It is stored once, by the hash of
            /// its text, and the queued request names it as `wordlist`.
            #[schema(max_items = 1000000)]
            pub words?: Vec<String>,
            /// The id of an uploaded word list (`POST /wordlists`) instead of the bundled one.
            pub wordlist?: String,
            /// Entries scoring below are not used (0..100).
            #[schema(minimum = 0, maximum = 100, default = 50)]
            pub min_score?: u8,
            /// Whether entries of the block list of offensive and crude words may be used.
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            #[schema(default = false)]
            pub allow_offensive: bool,
            $($rest)*);
    };

    (@munch $head:tt $name:ident [$($fields:tt)*] [$($impls:tt)*] ..imprint, $($rest:tt)*) => {
        $crate::fields::api_struct!(@munch $head $name [$($fields)*
            /// Printed under the title on the title page, and on the front cover where the book
            /// has one: at most 100 printable ASCII characters. Default: none.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(max_length = 100, example = "Ada Fox")]
            pub author: Option<String>,
            /// The copyright line, printed as given with the title page (on its back in Find the
            /// Fox books, at its foot in the others): at most 120 printable ASCII characters or
            /// © (drawn, as the fonts have no glyph for it). Default: none.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(max_length = 120, example = "© 2026 Example Press")]
            pub copyright: Option<String>,
            /// ISBN-10 or ISBN-13 with its check digit, hyphens and spaces allowed (stored
            /// without them): printed under the copyright line, and as an EAN-13 barcode on the
            /// back cover where the book has one (an ISBN-10 as its ISBN-13). Default: none.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(max_length = 40, example = "978-0-306-40615-7")]
            pub isbn: Option<String>,
        ] [$($impls)*
            /// The author, copyright line and ISBN as given (checked by `Imprint::checked`).
            pub fn imprint(&self) -> $crate::render::print::Imprint {
                $crate::render::print::Imprint {
                    author: self.author.clone(),
                    copyright: self.copyright.clone(),
                    isbn: self.isbn.clone(),
                }
            }
        ] $($rest)*);
    };

    (@munch $head:tt $name:ident [$($fields:tt)*] [$($impls:tt)*] ..word_search_grid, $($rest:tt)*) => {
        $crate::fields::api_struct!(@munch $head $name [$($fields)*
            /// Rows and columns, 5 to 40 each (default 15).
            #[serde(default = "crate::jobs::kinds::wordsearch::default_side")]
            #[schema(minimum = 5, maximum = 40, default = 15)]
            pub rows: usize,
            #[serde(default = "crate::jobs::kinds::wordsearch::default_side")]
            #[schema(minimum = 5, maximum = 40, default = 15)]
            pub cols: usize,
            /// The grid's outline: `rectangle` (default), `heart`, `circle`, `star`, `fox`, or
            /// mask rows of `.` (a cell) and `#` or a space (none).
            #[serde(default)]
            pub shape: $crate::puzzles::wordbook::Shape,
        ] [$($impls)*] $($rest)*);
    };

    (@munch $head:tt $name:ident [$($fields:tt)*] [$($impls:tt)*] ..word_search_words, $($rest:tt)*) => {
        $crate::fields::api_struct!(@munch $head $name [$($fields)*
            #[serde(default)]
            pub filler: $crate::puzzles::wordsearch::Filler,
            /// More words that must not occur anywhere (up to 500).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub avoid: Vec<String>,
            /// Let words of the block list occur.
            #[serde(default)]
            pub allow_offensive: bool,
            /// Keep a word that is part of another (CAT and CATS): the copy inside the longer
            /// word does not count.
            #[serde(default)]
            pub allow_contained: bool,
        ] [$($impls)*] $($rest)*);
    };

    // An optional member of the struct's own.
    (@munch $head:tt $name:ident [$($fields:tt)*] $impls:tt
        $(#[$fattr:meta])* $fvis:vis $field:ident ?: $ty:ty, $($rest:tt)*) => {
        $crate::fields::api_struct!(@munch $head $name [$($fields)*
            $(#[$fattr])*
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(nullable = false)]
            $fvis $field: Option<$ty>,
        ] $impls $($rest)*);
    };

    // A field of the struct's own.
    (@munch $head:tt $name:ident [$($fields:tt)*] $impls:tt
        $(#[$fattr:meta])* $fvis:vis $field:ident : $ty:ty, $($rest:tt)*) => {
        $crate::fields::api_struct!(@munch $head $name [$($fields)* $(#[$fattr])* $fvis $field: $ty,] $impls $($rest)*);
    };
}

pub(crate) use api_struct;
