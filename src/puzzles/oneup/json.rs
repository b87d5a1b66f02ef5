//! The JSON form `{"row_regions": [...], "col_regions": [...], "clues": [{"row", "col", "digit"}]}`
//! (1-based): serde derives the shape, `serde_path_to_error` names the field at fault, and
//! [`Puzzle::new`] checks sizes, ranges and consistency afterwards.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, value::MapAccessDeserializer, Deserializer, MapAccess, Unexpected, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::error::{ErrorKind, Loc, ParseError};
use super::puzzle::{Clue, Puzzle};

/// The JSON form as written, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleJson {
    row_regions: Vec<String>,
    col_regions: Vec<String>,
    clues: Vec<Object<ClueJson>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClueJson {
    row: Whole,
    col: Whole,
    digit: Whole,
}

impl Puzzle {
    /// Parses the JSON form from a string. Malformed JSON is reported as such (with its
    /// line) before any field is looked at.
    pub fn from_json(input: &str) -> Result<Puzzle, ParseError> {
        let value: Value = serde_json::from_str(input).map_err(|e| ParseError {
            kind: ErrorKind::Json,
            line: Some(e.line()),
            field: None,
            message: format!("invalid JSON: {e}"),
        })?;
        Puzzle::from_json_value(&value)
    }

    /// Parses the JSON form from an already decoded value.
    pub fn from_json_value(value: &Value) -> Result<Puzzle, ParseError> {
        let Object::<PuzzleJson>(json) = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().iter().next().is_some().then(|| e.path().to_string());
            shape_error(path, &e.into_inner().to_string())
        })?;
        json.validate()
    }

    /// The JSON form as a value (same as serializing the `Puzzle`).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a Puzzle always serializes")
    }
}

/// Deserializing validates, so a `Puzzle` inside other data is always a valid one.
impl<'de> Deserialize<'de> for Puzzle {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Puzzle, D::Error> {
        let Object(json) = Object::<PuzzleJson>::deserialize(de)?;
        json.validate().map_err(de::Error::custom)
    }
}

impl TryFrom<Value> for Puzzle {
    type Error = ParseError;
    fn try_from(value: Value) -> Result<Self, ParseError> {
        Puzzle::from_json_value(&value)
    }
}

impl PuzzleJson {
    /// The semantic checks, each error located by its JSON field.
    fn validate(self) -> Result<Puzzle, ParseError> {
        let mut clues = Vec::with_capacity(self.clues.len());
        for (i, Object(ClueJson { row, col, digit })) in self.clues.into_iter().enumerate() {
            // Larger digits fail validation anyway; this only keeps them out of a u8.
            let Ok(small) = u8::try_from(digit.0) else {
                return Err(ParseError::new(
                    ErrorKind::ClueDigit,
                    &Loc::Field(format!("clues[{i}].digit")),
                    format!("clue digit {} is impossible; digits are 1 to the size of the clue's regions", digit.0),
                ));
            };
            clues.push(Clue { row: row.0, col: col.0, digit: small });
        }
        Puzzle::new(self.row_regions, self.col_regions, clues)
    }
}

/// Maps serde's `message` about the value at `path` (None: the whole document) to a
/// located `ParseError`. serde reports shape problems only as messages; their fixed
/// openings (from `serde::de::Error`'s provided methods) tell the kinds apart.
fn shape_error(path: Option<String>, message: &str) -> ParseError {
    let named = |prefix: &str| message.strip_prefix(prefix).and_then(|rest| rest.split('`').next());
    if let Some(name) = named("missing field `") {
        // The path leads to the object that lacks the field.
        let field = match &path {
            Some(p) => format!("{p}.{name}"),
            None => name.to_string(),
        };
        return ParseError::new(ErrorKind::MissingField, &Loc::Field(field), "this required field is missing");
    }
    let kind = if named("unknown field `").is_some() { ErrorKind::UnknownField } else { ErrorKind::WrongType };
    ParseError::new(kind, &path.map_or(Loc::Nowhere, Loc::Field), message)
}

/// A struct that only deserializes from a JSON object: a derived `Deserialize` also takes
/// the fields as an array in order, which this format does not allow.
struct Object<T>(T);

/// What an object stands for, in "expected ..." messages when something else is found.
trait Expecting {
    const EXPECTING: &'static str;
}

impl Expecting for PuzzleJson {
    const EXPECTING: &'static str = "a puzzle object with row_regions, col_regions and clues";
}

impl Expecting for ClueJson {
    const EXPECTING: &'static str = "a clue object {\"row\", \"col\", \"digit\"}";
}

impl<'de, T: Deserialize<'de> + Expecting> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Expecting> Visitor<'de> for ObjectVisitor<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(T::EXPECTING)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Object)
            }
        }
        de.deserialize_map(ObjectVisitor(PhantomData))
    }
}

/// A JSON whole number (no sign, no fraction), named so in error messages.
struct Whole(usize);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct WholeVisitor;
        impl Visitor<'_> for WholeVisitor {
            type Value = Whole;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Whole, E> {
                usize::try_from(v).map(Whole).map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Whole, E> {
                usize::try_from(v).map(Whole).map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
            }
        }
        de.deserialize_u64(WholeVisitor)
    }
}
