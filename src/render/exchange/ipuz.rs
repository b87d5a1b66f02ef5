//! ipuz files (the open JSON format, <http://ipuz.org>), kind `crossword#1`: the numbered
//! empty grid (`puzzle`: a number, 0 for an unnumbered white square, `#` for a block), the
//! `solution`, the clues under `Across` and `Down` and the texts.

use serde_json::{json, Map, Value};

use crate::puzzles::crossword::clues::Texts;
use crate::puzzles::crossword::{Direction, Grid};

const BLOCK: &str = "#";

/// The .ipuz file of a filled grid (a white square without its letter, which no fill
/// produces, gets `null` as its solution).
pub fn ipuz(grid: &Grid, texts: &Texts) -> Vec<u8> {
    let (h, w) = (grid.height(), grid.width());
    let slots = grid.slots();
    let mut numbers = vec![0u32; h * w];
    for s in &slots {
        numbers[s.row * w + s.col] = s.number;
    }
    let puzzle: Vec<Vec<Value>> = (0..h)
        .map(|r| (0..w).map(|c| if grid.is_white(r, c) { json!(numbers[r * w + c]) } else { json!(BLOCK) }).collect())
        .collect();
    let solution: Vec<Vec<Value>> = (0..h)
        .map(|r| {
            (0..w)
                .map(|c| match (grid.is_white(r, c), grid.letter(r, c)) {
                    (false, _) => json!(BLOCK),
                    (true, Some(l)) => json!((l as char).to_string()),
                    (true, None) => Value::Null,
                })
                .collect()
        })
        .collect();
    let clues = |dir: Direction| -> Vec<Value> {
        slots.iter().filter(|s| s.dir == dir).map(|s| json!([s.number, texts.clue(dir, s.number)])).collect()
    };
    let mut doc = Map::new();
    doc.insert("version".into(), json!("http://ipuz.org/v2"));
    doc.insert("kind".into(), json!(["http://ipuz.org/crossword#1"]));
    doc.insert("title".into(), json!(texts.title));
    for (key, text) in [("author", texts.author), ("copyright", texts.copyright), ("notes", texts.notes)] {
        if !text.is_empty() {
            doc.insert(key.into(), json!(text));
        }
    }
    doc.insert("dimensions".into(), json!({"width": w, "height": h}));
    doc.insert("block".into(), json!(BLOCK));
    doc.insert("empty".into(), json!(0));
    doc.insert("puzzle".into(), json!(puzzle));
    doc.insert("solution".into(), json!(solution));
    doc.insert("clues".into(), json!({"Across": clues(Direction::Across), "Down": clues(Direction::Down)}));
    let mut out = serde_json::to_vec_pretty(&Value::Object(doc)).expect("JSON values serialize");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn grid_numbers_solution_and_clues() {
        let grid = Grid::from_rows(&["CAT", "O#R", "WET"]).unwrap();
        let clues: BTreeMap<String, String> =
            [("1A", "Pet"), ("3A", "Damp"), ("1D", "Bovine")].map(|(k, v)| (k.into(), v.into())).into();
        let texts = Texts { title: "Tiny", author: "Ann", copyright: "", notes: "", clues: Some(&clues) };
        let doc: Value = serde_json::from_slice(&ipuz(&grid, &texts)).unwrap();
        assert_eq!(doc["kind"], json!(["http://ipuz.org/crossword#1"]));
        assert_eq!(doc["dimensions"], json!({"width": 3, "height": 3}));
        assert_eq!(doc["puzzle"], json!([[1, 0, 2], [0, "#", 0], [3, 0, 0]]));
        assert_eq!(doc["solution"], json!([["C", "A", "T"], ["O", "#", "R"], ["W", "E", "T"]]));
        assert_eq!(doc["clues"]["Across"], json!([[1, "Pet"], [3, "Damp"]]));
        // 2-Down has no clue: it is exported empty.
        assert_eq!(doc["clues"]["Down"], json!([[1, "Bovine"], [2, ""]]));
        assert_eq!((doc["title"].as_str(), doc["author"].as_str()), (Some("Tiny"), Some("Ann")));
        assert!(doc.get("copyright").is_none());
        assert_eq!(ipuz(&grid, &texts), ipuz(&grid, &texts));
    }
}
