use proptest::prelude::*;
use serde_json::json;

use super::walk::{Meter, Order, Shape, Walk, Wide};
use super::*;
use crate::puzzles::monitor::Unmonitored;

fn req(bits: u32, length: usize, circular: bool, start_at_zero: bool) -> GrayRequest {
    GrayRequest {
        bits,
        length,
        circular,
        start_at_zero,
        count_only: false,
        limit: None,
        cursor: None,
        node_budget: None,
    }
}

fn count_of(r: &GrayRequest) -> u128 {
    let out = gray_codes(&GrayRequest { count_only: true, ..r.clone() }, &mut Unmonitored).unwrap();
    assert_eq!(out.count_is_lower_bound, Some(false));
    assert!(out.sequences.is_empty() && out.next_cursor.is_none());
    out.count.unwrap().0
}

/// Every page, following cursors, concatenated.
fn list_all(r: &GrayRequest) -> Vec<Vec<u32>> {
    let mut r = r.clone();
    let mut all = Vec::new();
    for _ in 0..1_000_000 {
        let out = gray_codes(&r, &mut Unmonitored).unwrap();
        all.extend(out.sequences);
        match out.next_cursor {
            Some(c) => r.cursor = Some(c),
            None => return all,
        }
    }
    panic!("paging does not end");
}

/// Reference: plain recursion over all codes, next codes tried in increasing order.
fn naive(bits: u32, length: usize, circular: bool, start_at_zero: bool) -> Vec<Vec<u32>> {
    fn extend(bits: u32, length: usize, circular: bool, path: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if path.len() == length {
            if !circular || (path[0] ^ path[length - 1]).count_ones() == 1 {
                out.push(path.clone());
            }
            return;
        }
        for c in 0..1u32 << bits {
            if (c ^ path[path.len() - 1]).count_ones() == 1 && !path.contains(&c) {
                path.push(c);
                extend(bits, length, circular, path, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    let starts = if start_at_zero { 1 } else { 1 << bits };
    for s in 0..starts {
        extend(bits, length, circular, &mut vec![s], &mut out);
    }
    out
}

#[test]
fn known_counts() {
    assert_eq!(count_of(&req(3, 8, true, true)), 12);
    assert_eq!(count_of(&req(3, 8, false, true)), 18);
    assert_eq!(count_of(&req(4, 16, true, true)), 2_688);
    assert_eq!(count_of(&req(4, 16, false, true)), 5_712);
    // Any start: 2^bits times as many.
    assert_eq!(count_of(&req(4, 16, false, false)), 16 * 5_712);
    assert_eq!(count_of(&req(3, 8, true, false)), 8 * 12);
    // Short codes in many bits: 16 choices, then 15, then 15 again.
    assert_eq!(count_of(&req(16, 4, false, true)), 16 * 15 * 15);
    assert_eq!(count_of(&req(16, 1, false, false)), 65_536);
}

#[test]
fn counts_and_listings_match_the_reference() {
    for bits in 1..=3 {
        for length in 1..=1usize << bits {
            for circular in [false, true] {
                if circular && length % 2 == 1 {
                    continue;
                }
                for zero in [false, true] {
                    let r = req(bits, length, circular, zero);
                    let expected = naive(bits, length, circular, zero);
                    assert_eq!(count_of(&r), expected.len() as u128, "{r:?}");
                    assert_eq!(list_all(&GrayRequest { limit: Some(7), ..r }), expected);
                }
            }
        }
    }
    for length in [5, 9, 16] {
        let r = req(4, length, length % 2 == 0, true);
        let expected = naive(4, length, r.circular, true);
        assert_eq!(count_of(&r), expected.len() as u128);
        assert_eq!(list_all(&GrayRequest { limit: Some(1000), ..r }), expected);
    }
}

/// The canonical (bit-relabelling) count agrees with walking every sequence.
#[test]
fn symmetry_reduced_count_matches_plain_walk() {
    for (bits, length, circular) in
        [(5, 7, false), (5, 8, true), (6, 6, true), (7, 6, false), (8, 5, false), (5, 10, true)]
    {
        let shape = Shape { bits, length, circular };
        let mut walk = Walk::<Wide>::new(shape, Order::Lex, 0);
        let mut unwatched = Unmonitored;
        let mut meter = Meter::new(u64::MAX, &mut unwatched);
        let mut plain = 0u128;
        while walk.next_sequence(&mut meter).unwrap() {
            plain += 1;
        }
        assert_eq!(count_of(&req(bits, length, circular, true)), plain, "bits {bits} length {length}");
    }
}

#[test]
fn first_sequences_in_order() {
    let out = gray_codes(&GrayRequest { limit: Some(3), ..req(3, 8, true, true) }, &mut Unmonitored).unwrap();
    assert_eq!(
        out.sequences,
        vec![vec![0, 1, 3, 2, 6, 7, 5, 4], vec![0, 1, 3, 7, 5, 4, 6, 2], vec![0, 1, 5, 4, 6, 7, 3, 2]]
    );
    assert!(out.next_cursor.is_some());
    let v = serde_json::to_value(&out).unwrap();
    assert_eq!(v["bits"], json!(3));
    assert_eq!(v["length"], json!(8));
    assert_eq!(v["circular"], json!(true));
    assert_eq!(v["start_at_zero"], json!(true));
    assert_eq!(v["sequences"][0], json!([0, 1, 3, 2, 6, 7, 5, 4]));
    assert!(v.get("count").is_none() && v.get("reason").is_none());
    assert_eq!(v["next_cursor"], json!(out.next_cursor.unwrap()));
}

#[test]
fn last_page_has_no_cursor_and_counts_serialize() {
    let out = gray_codes(&GrayRequest { limit: Some(18), ..req(3, 8, false, true) }, &mut Unmonitored).unwrap();
    assert_eq!(out.sequences.len(), 18);
    assert_eq!(out.next_cursor, None);
    let counted = gray_codes(&GrayRequest { count_only: true, ..req(3, 8, true, true) }, &mut Unmonitored).unwrap();
    assert_eq!(
        serde_json::to_value(&counted).unwrap(),
        json!({"bits": 3, "length": 8, "circular": true, "start_at_zero": true, "count": 12,
               "count_is_lower_bound": false, "sequences": []})
    );
    let huge = Count(u64::MAX as u128 + 1);
    assert_eq!(serde_json::to_value(huge).unwrap(), json!("18446744073709551616"));
    assert_eq!(serde_json::from_value::<Count>(json!("18446744073709551616")).unwrap(), huge);
    assert_eq!(serde_json::from_value::<Count>(json!(12)).unwrap(), Count(12));
}

#[test]
fn small_lengths() {
    // Length 1: every code on its own.
    assert_eq!(list_all(&req(2, 1, false, false)), vec![vec![0], vec![1], vec![2], vec![3]]);
    // Length 2 circular: the pair are neighbours both ways.
    assert_eq!(list_all(&req(2, 2, true, true)), vec![vec![0, 1], vec![0, 2]]);
    assert_eq!(count_of(&req(5, 2, true, false)), 32 * 5);
}

#[test]
fn budget_gives_lower_bounds_and_resumable_pages() {
    let out = gray_codes(
        &GrayRequest { count_only: true, node_budget: Some(1000), ..req(5, 32, false, true) },
        &mut Unmonitored,
    )
    .unwrap();
    assert_eq!(out.count_is_lower_bound, Some(true));
    assert!(out.reason.as_deref().unwrap().contains("node budget of 1000 exhausted"));
    // Deterministic: the same budget gives the same partial count.
    let again = gray_codes(
        &GrayRequest { count_only: true, node_budget: Some(1000), ..req(5, 32, false, true) },
        &mut Unmonitored,
    )
    .unwrap();
    assert_eq!(out, again);

    // Budget-stopped pages resume exactly where they stopped: nothing lost or repeated.
    let r = GrayRequest { limit: Some(50), node_budget: Some(40), ..req(4, 16, false, true) };
    let first = gray_codes(&r, &mut Unmonitored).unwrap();
    assert!(first.reason.as_deref().unwrap().contains("continue with next_cursor"));
    assert!(first.next_cursor.as_deref().unwrap().contains("-p"), "a mid-search position");
    assert_eq!(list_all(&r), naive(4, 16, false, true));
    // Even a budget of one node makes progress.
    let tiny = GrayRequest { limit: Some(3), node_budget: Some(1), ..req(3, 8, true, false) };
    assert_eq!(list_all(&tiny), naive(3, 8, true, false));
}

#[test]
fn bad_requests_are_named() {
    let err = |r: GrayRequest| gray_codes(&r, &mut Unmonitored).unwrap_err().to_string();
    assert_eq!(err(req(0, 1, false, false)), "bits must be between 1 and 16, got 0");
    assert_eq!(err(req(17, 1, false, false)), "bits must be between 1 and 16, got 17");
    assert_eq!(err(req(3, 9, false, false)), "length must be between 1 and 2^3 = 8 (the number of 3-bit codes), got 9");
    assert!(err(req(3, 0, false, false)).starts_with("length must be"));
    assert!(err(req(3, 7, true, false)).starts_with("a circular Gray code needs an even length"));
    assert!(err(req(3, 1, true, false)).ends_with("got length 1"));
    assert_eq!(
        err(GrayRequest { limit: Some(0), ..req(3, 8, false, false) }),
        "limit must be between 1 and 10000, got 0"
    );
    assert!(err(GrayRequest { limit: Some(100), ..req(16, 65_536, false, false) }).contains("lower the limit"));
    assert_eq!(err(GrayRequest { node_budget: Some(0), ..req(3, 8, false, false) }), "node_budget must be at least 1");
    assert!(err(GrayRequest { count_only: true, cursor: Some("x".into()), ..req(3, 8, false, false) })
        .contains("cannot be combined with count_only"));
}

#[test]
fn bad_cursors_are_rejected() {
    let base = req(3, 8, true, true);
    let page = gray_codes(&GrayRequest { limit: Some(1), ..base.clone() }, &mut Unmonitored).unwrap();
    let good = page.next_cursor.unwrap();
    let with =
        |r: &GrayRequest, c: &str| gray_codes(&GrayRequest { cursor: Some(c.into()), ..r.clone() }, &mut Unmonitored);
    assert!(with(&base, &good).is_ok());
    let wrong_request = with(&req(3, 8, false, true), &good).unwrap_err().to_string();
    assert!(wrong_request.contains("different bits, length"), "{wrong_request}");
    assert!(with(&base, "hello").unwrap_err().to_string().contains("not a cursor"));
    assert!(with(&base, "gc1-b3-n8-cz-s0-f0101010").unwrap_err().to_string().contains("repeats a code"));
    assert!(with(&base, "gc1-b3-n8-cz-s0-f0120").unwrap_err().to_string().contains("wrong length"));
    assert!(with(&base, "gc1-b3-n8-cz-s0-f0121013").unwrap_err().to_string().contains("flips a bit"));
    assert!(with(&base, "gc1-b3-n8-cz-s0-f0102101").unwrap_err().to_string().contains("close up"));
    assert!(with(&base, "gc1-b3-n8-cz-s1-f010201").unwrap_err().to_string().contains("start at code 0"));
    assert!(with(&base, "gc1-b3-n8-cz-s0-f01-p9").unwrap_err().to_string().contains("flips a bit"));
    assert!(with(&base, "gc1-b3-n8-cz-s0-f01").is_err());
    // A hand-made mid-search position is fine.
    assert!(with(&base, "gc1-b3-n8-cz-s0-f01-p2").is_ok());
}

#[test]
fn cancellation_is_honoured() {
    struct Stop;
    impl Monitor for Stop {
        fn update(&mut self, _: u64, _: u64) -> bool {
            false
        }
    }
    let r = GrayRequest { count_only: true, ..req(5, 32, false, true) };
    assert_eq!(gray_codes(&r, &mut Stop), Err(GrayError::Cancelled));
    let r = GrayRequest { limit: Some(10_000), ..req(5, 32, true, true) };
    assert_eq!(gray_codes(&r, &mut Stop), Err(GrayError::Cancelled));
}

#[test]
fn binary_rendering() {
    assert_eq!(to_binary(3, 4), "0011");
    assert_eq!(to_binary(0, 1), "0");
    assert_eq!(sequence_to_binary(&[0, 1, 3, 2], 2), ["00", "01", "11", "10"]);
}

#[test]
fn every_sequence_is_a_gray_code() {
    let r = GrayRequest { limit: Some(200), ..req(5, 20, true, false) };
    let out = gray_codes(&r, &mut Unmonitored).unwrap();
    assert_eq!(out.sequences.len(), 200);
    for s in &out.sequences {
        assert_eq!(s.len(), 20);
        let mut sorted = s.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 20);
        assert!(s.iter().all(|&c| c < 32));
        assert!(s.windows(2).all(|w| (w[0] ^ w[1]).count_ones() == 1));
        assert_eq!((s[0] ^ s[19]).count_ones(), 1);
    }
    assert!(out.sequences.windows(2).all(|w| w[0] < w[1]), "lexicographic order");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(11), ..ProptestConfig::default() })]

    /// Any page size and budget yields the same listing as one unbounded pass.
    #[test]
    fn paging_never_loses_or_repeats(bits in 1u32..=4, len_seed in 0usize..16, circular in any::<bool>(),
                                     zero in any::<bool>(), limit in 1usize..20, budget in 1u64..200) {
        let length = 1 + len_seed % (1 << bits);
        let circular = circular && length % 2 == 0;
        let r = GrayRequest { limit: Some(limit), node_budget: Some(budget), ..req(bits, length, circular, zero) };
        prop_assert_eq!(list_all(&r), naive(bits, length, circular, zero));
    }
}

#[test]
fn node_budget_at_the_maximum_is_accepted_and_above_refused() {
    let l = Limits::default();
    let at =
        |b| validate_within(&GrayRequest { node_budget: Some(b), limit: Some(1), ..req(16, 65_536, false, false) }, &l);
    assert_eq!(at(l.max_node_budget), Ok(()));
    let e = at(l.max_node_budget + 1).unwrap_err();
    assert_eq!(e.field(), "node_budget");
    assert_eq!(e.to_string(), "node_budget must be at most 2000000000 (got 2000000001)");
    // Counting too, and before any search.
    let count = GrayRequest { count_only: true, node_budget: Some(u64::MAX), ..req(6, 64, false, false) };
    assert_eq!(gray_codes(&count, &mut Unmonitored).unwrap_err().field(), "node_budget");
    // A server may allow less than the default budget: absent means its maximum then.
    let small = Limits { max_node_budget: 10, ..Limits::default() };
    let out =
        gray_codes_within(&GrayRequest { count_only: true, ..req(4, 16, false, false) }, &small, &mut Unmonitored);
    assert!(out.unwrap().reason.unwrap().contains("node budget of 10 exhausted"));
}

#[test]
fn limit_at_the_maximum_is_accepted_and_above_refused() {
    let l = Limits::default();
    let at = |limit| validate_within(&GrayRequest { limit: Some(limit), ..req(3, 8, false, false) }, &l);
    assert_eq!(at(l.max_limit), Ok(()));
    let e = at(l.max_limit + 1).unwrap_err();
    assert_eq!((e.field(), e.to_string().as_str()), ("limit", "limit must be between 1 and 10000, got 10001"));
    let narrow = Limits { max_limit: 5, ..Limits::default() };
    let e = validate_within(&GrayRequest { limit: Some(6), ..req(3, 8, false, false) }, &narrow).unwrap_err();
    assert_eq!(e.to_string(), "limit must be between 1 and 5, got 6");
}

#[test]
fn pages_are_capped_by_their_size() {
    let l = Limits::default();
    // 65536 codes of up to 5 digits: 10 sequences (3.9 MB) fit in 4 MiB, 11 do not.
    let at = |limit| validate_within(&GrayRequest { limit: Some(limit), ..req(16, 65_536, false, false) }, &l);
    assert_eq!(at(10), Ok(()));
    let e = at(11).unwrap_err();
    assert_eq!(e.field(), "limit");
    assert_eq!(
        e.to_string(),
        "a page may take at most 4194304 bytes, which holds at most 10 sequences of length 65536, but limit is 11; \
         lower the limit"
    );
    // The estimate bounds real pages, cursor included.
    for (bits, length, limit) in [(4, 16, 100), (5, 32, 7), (10, 1000, 3), (16, 300, 20)] {
        let r = GrayRequest { limit: Some(limit), ..req(bits, length, false, false) };
        let out = gray_codes(&r, &mut Unmonitored).unwrap();
        assert_eq!(out.sequences.len(), limit);
        let bytes = serde_json::to_string(&out).unwrap().len();
        assert!(bytes <= ENVELOPE_BYTES + length + limit * sequence_bytes(bits, length), "{bits} {length}: {bytes}");
    }
}
