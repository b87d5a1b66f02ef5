//! Property tests: the parsers never panic, and generated puzzles round-trip.

use super::EXAMPLE;
use crate::puzzles::monitor::Unmonitored;
use crate::puzzles::oneup::{generate, Puzzle};
use proptest::prelude::*;
use serde_json::Value;

/// Text near the real format: the example with random lines replaced, removed or duplicated.
fn near_example() -> impl Strategy<Value = String> {
    let lines: Vec<String> = EXAMPLE.lines().map(String::from).collect();
    let n = lines.len();
    proptest::collection::vec((0..n, 0..3u8, "[0-9a-z# \\-]{0,10}"), 0..6).prop_map(move |edits| {
        let mut out = lines.clone();
        for (i, op, text) in edits {
            let i = i.min(out.len().saturating_sub(1));
            if out.is_empty() {
                break;
            }
            match op {
                0 => out[i] = text,
                1 => drop(out.remove(i)),
                _ => out.insert(i, out[i].clone()),
            }
        }
        out.join("\n")
    })
}

/// JSON values built from the format's own field names, so validation goes deep.
fn json_ish() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..100).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[12a#]{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 10, |inner| {
        let key = prop_oneof![
            Just("row_regions".to_string()),
            Just("col_regions".to_string()),
            Just("clues".to_string()),
            Just("row".to_string()),
            Just("col".to_string()),
            Just("digit".to_string()),
            "[a-z]{1,4}",
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..10).prop_map(Value::from),
            proptest::collection::btree_map(key, inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn text_parser_never_panics(input in "\\PC{0,300}") {
        let _ = Puzzle::from_text(&input);
    }

    #[test]
    fn text_parser_never_panics_near_the_format(input in near_example()) {
        if let Ok(p) = Puzzle::from_text(&input) {
            prop_assert_eq!(Puzzle::from_text(&p.to_text()).unwrap(), p);
        }
    }

    #[test]
    fn json_parser_never_panics(input in "[\\[\\]{}\":,0-9a-z_ \n-]{0,200}") {
        let _ = Puzzle::from_json(&input);
    }

    #[test]
    fn json_value_parser_never_panics(value in json_ish()) {
        let _ = Puzzle::from_json_value(&value);
        let _ = Puzzle::from_json(&value.to_string());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn generated_puzzles_round_trip(size in 4usize..=9, seed in any::<u64>()) {
        let puzzle = generate(size, seed, &mut Unmonitored).unwrap().puzzle;
        let text = puzzle.to_text();
        let via_json = Puzzle::from_json(&Puzzle::from_text(&text).unwrap().to_json().to_string()).unwrap();
        prop_assert_eq!(via_json.to_text(), text);
        prop_assert_eq!(via_json, puzzle);
    }
}
