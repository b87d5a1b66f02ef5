//! The JSON form `{"row_regions": [...], "col_regions": [...], "clues": [{"row", "col", "digit"}]}`
//! (1-based), walked by hand so that every error names the field at fault.

use super::error::{ErrorKind, Loc, ParseError};
use super::puzzle::{Clue, Puzzle};
use serde_json::{Map, Value};

impl Puzzle {
    /// Parses the JSON form from a string.
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
        let obj = object(value, &Loc::Nowhere, "a puzzle object with row_regions, col_regions and clues")?;
        reject_unknown(obj, &["row_regions", "col_regions", "clues"], "")?;
        let rows = strings(obj, "row_regions")?;
        let cols = strings(obj, "col_regions")?;
        let clue_values = field(obj, "clues", "")?
            .as_array()
            .ok_or_else(|| wrong_type("clues", "an array of clues", &obj["clues"]))?;
        let mut clues = Vec::with_capacity(clue_values.len());
        for (i, v) in clue_values.iter().enumerate() {
            let path = format!("clues[{i}]");
            let c = object(v, &Loc::Field(path.clone()), "a clue object {\"row\", \"col\", \"digit\"}")?;
            reject_unknown(c, &["row", "col", "digit"], &path)?;
            let digit = whole(c, "digit", &path)?;
            let Ok(digit) = u8::try_from(digit) else {
                return Err(ParseError::new(
                    ErrorKind::ClueDigit,
                    &Loc::Field(format!("{path}.digit")),
                    format!("clue digit {digit} is impossible; digits are 1 to the size of the clue's regions"),
                ));
            };
            clues.push(Clue { row: whole(c, "row", &path)?, col: whole(c, "col", &path)?, digit });
        }
        Puzzle::new(rows, cols, clues)
    }

    /// The JSON form as a value (same as serializing the `Puzzle`).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a Puzzle always serializes")
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn wrong_type(path: &str, expected: &str, found: &Value) -> ParseError {
    let loc = if path.is_empty() { Loc::Nowhere } else { Loc::Field(path.into()) };
    ParseError::new(ErrorKind::WrongType, &loc, format!("expected {expected}, found {}", describe(found)))
}

fn object<'a>(v: &'a Value, loc: &Loc, expected: &str) -> Result<&'a Map<String, Value>, ParseError> {
    v.as_object().ok_or_else(|| {
        ParseError::new(ErrorKind::WrongType, loc, format!("expected {expected}, found {}", describe(v)))
    })
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

fn field<'a>(obj: &'a Map<String, Value>, name: &str, prefix: &str) -> Result<&'a Value, ParseError> {
    obj.get(name).ok_or_else(|| {
        ParseError::new(ErrorKind::MissingField, &Loc::Field(join(prefix, name)), "this required field is missing")
    })
}

fn reject_unknown(obj: &Map<String, Value>, known: &[&str], prefix: &str) -> Result<(), ParseError> {
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(ParseError::new(
            ErrorKind::UnknownField,
            &Loc::Field(join(prefix, k)),
            format!("unknown field; expected only {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

fn strings(obj: &Map<String, Value>, name: &str) -> Result<Vec<String>, ParseError> {
    let v = field(obj, name, "")?;
    let items = v.as_array().ok_or_else(|| wrong_type(name, "an array of label strings", v))?;
    items
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| wrong_type(&format!("{name}[{i}]"), "a string of region labels", s))
        })
        .collect()
}

fn whole(obj: &Map<String, Value>, name: &str, prefix: &str) -> Result<usize, ParseError> {
    let v = field(obj, name, prefix)?;
    v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| wrong_type(&join(prefix, name), "a whole number", v))
}
