use std::collections::HashSet;

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::puzzles::monitor::{Cancelled, Monitor, Unmonitored};
use crate::puzzles::rng::Rng;

fn graph(adjacency: &[&[usize]]) -> Graph {
    Graph::from_adjacency(adjacency.iter().map(|a| a.to_vec()).collect()).unwrap()
}

fn cycle(n: usize) -> Graph {
    Graph::from_adjacency((0..n).map(|i| vec![(i + n - 1) % n, (i + 1) % n]).collect()).unwrap()
}

/// Centre 0 with `legs` legs of `len` holes each.
fn spider(legs: usize, len: usize) -> Graph {
    let mut adj = vec![Vec::new(); 1 + legs * len];
    for leg in 0..legs {
        let mut prev = 0;
        for k in 0..len {
            let hole = 1 + leg * len + k;
            adj[prev].push(hole);
            adj[hole].push(prev);
            prev = hole;
        }
    }
    Graph::from_adjacency(adj).unwrap()
}

fn solve(g: &Graph) -> StrategyOutcome {
    shortest_strategy(g, &mut Unmonitored).unwrap()
}

/// Reference: BFS over candidate sets trying every hole each day, written without
/// the bitset tables or the pruning of the real search. `None` = no strategy.
fn naive_shortest_days(g: &Graph) -> Option<usize> {
    let n = g.holes();
    let next = |set: &Vec<bool>, inspect: usize, first: bool| -> Vec<bool> {
        let mut out = vec![first; n];
        if !first {
            for (hole, &possible) in set.iter().enumerate() {
                if possible {
                    for &nb in g.neighbours(hole) {
                        out[nb] = true;
                    }
                }
            }
        }
        out[inspect] = false;
        out
    };
    let mut seen = HashSet::new();
    let mut layer: Vec<Vec<bool>> = (0..n).map(|h| next(&vec![], h, true)).collect();
    for day in 1.. {
        if layer.iter().any(|s| s.iter().all(|&p| !p)) {
            return Some(day);
        }
        let mut fresh = Vec::new();
        for set in &layer {
            for h in 0..n {
                let s = next(set, h, false);
                if seen.insert(s.clone()) {
                    fresh.push(s);
                }
            }
        }
        if fresh.is_empty() {
            return None;
        }
        layer = fresh;
    }
    unreachable!()
}

/// Every strategy returned must be as short as the reference and verify with `check`.
fn assert_optimal(g: &Graph) -> StrategyOutcome {
    let out = solve(g);
    assert_eq!(out.days, naive_shortest_days(g), "graph {:?}", g.adjacency());
    if let Some(inspections) = &out.inspections {
        assert_eq!(out.days, Some(inspections.len()));
        let c = check(g, inspections).unwrap();
        assert_eq!((c.caught, c.day), (true, out.days), "{inspections:?} on {:?}", g.adjacency());
    } else {
        assert!(out.reason.as_deref().unwrap().contains("no inspection sequence"));
    }
    out
}

fn assert_valid_escape(g: &Graph, inspections: &[usize], escape: &[usize]) {
    assert_eq!(escape.len(), inspections.len());
    for (i, (&fox, &hole)) in escape.iter().zip(inspections).enumerate() {
        assert!(fox < g.holes());
        assert_ne!(fox, hole, "fox caught on day {}", i + 1);
        if i > 0 {
            assert!(g.neighbours(escape[i - 1]).contains(&fox), "{escape:?} is not a walk");
        }
    }
}

#[test]
fn line_shortest_strategies_match_known_lengths() {
    for n in 1..=12 {
        let expected = match n {
            1 => 1,
            2 | 3 => 2,
            _ => 2 * n - 4,
        };
        let out = solve(&Graph::line(n).unwrap());
        assert_eq!(out.days, Some(expected), "line of {n}");
        let inspections = out.inspections.unwrap();
        assert_eq!(check(&Graph::line(n).unwrap(), &inspections).unwrap().day, Some(expected));
        if n <= 8 {
            assert_optimal(&Graph::line(n).unwrap());
        }
    }
}

#[test]
fn long_lines_up_to_thirty_holes() {
    for n in [13, 16, 20, 25, 30] {
        let g = Graph::line(n).unwrap();
        let out = solve(&g);
        assert_eq!(out.days, Some(2 * n - 4), "line of {n}");
        assert_eq!(check(&g, &out.inspections.unwrap()).unwrap().day, Some(2 * n - 4));
    }
}

#[test]
fn disconnected_graphs_are_solved_part_by_part() {
    // Edge + path of 3 + star + edge: small enough for the reference search.
    let g = graph(&[&[1], &[0], &[3], &[2, 4], &[3], &[6, 7, 8], &[5], &[5], &[5], &[10], &[9]]);
    let out = assert_optimal(&g);
    assert_eq!(out.days, Some(2 + 2 + 2 + 2));
    // A part with a cycle dooms the whole graph.
    let doomed = graph(&[&[1], &[0], &[3, 4], &[2, 4], &[2, 3]]);
    assert_eq!(assert_optimal(&doomed).days, None);
    // 15 separate tunnels: 2^30 candidate sets as one search, instant part by part.
    let tunnels = Graph::from_adjacency((0..30).map(|i| vec![i ^ 1]).collect()).unwrap();
    let out = solve(&tunnels);
    assert_eq!(out.days, Some(30));
    assert!(check(&tunnels, &out.inspections.unwrap()).unwrap().caught);
}

#[test]
fn five_holes_textbook_strategy() {
    let g = Graph::line(5).unwrap();
    let out = solve(&g);
    assert_eq!(out.days, Some(6));
    let c = check(&g, &[1, 2, 3, 1, 2, 3]).unwrap();
    assert_eq!(serde_json::to_value(&c).unwrap(), json!({"caught": true, "day": 6, "escape": null}));
    // One day short is not enough: the fox must be able to dodge every 5-day list.
    assert!(!check(&g, &[1, 2, 3, 1, 2]).unwrap().caught);
}

#[test]
fn single_hole_graph() {
    let by_line = Graph::line(1).unwrap();
    let by_list = Graph::from_adjacency(vec![vec![]]).unwrap();
    assert_eq!(by_line, by_list);
    for g in [by_line, by_list] {
        let out = serde_json::to_value(solve(&g)).unwrap();
        assert_eq!(out, json!({"inspections": [0], "days": 1}));
        assert_eq!(check(&g, &[0]).unwrap().day, Some(1));
        assert_eq!(check(&g, &[0, 0]).unwrap().day, Some(1));
    }
}

#[test]
fn cycles_have_no_strategy() {
    for n in 3..=8 {
        let out = solve(&cycle(n));
        assert_eq!((out.inspections.as_ref(), out.days), (None, None), "cycle {n}");
        let v = serde_json::to_value(&out).unwrap();
        assert_eq!(v["inspections"], json!(null));
        assert_eq!(v["days"], json!(null));
        assert!(v["reason"].as_str().unwrap().contains("cycle"));
    }
    assert_optimal(&cycle(4));
    // A cycle with a tail is no better: the fox stays on the cycle.
    let lollipop = graph(&[&[1, 2], &[0, 2], &[0, 1, 3], &[2, 4], &[3]]);
    assert_eq!(assert_optimal(&lollipop).days, None);
}

#[test]
fn stars_take_two_days() {
    for leaves in 1..=10 {
        let g = spider(leaves, 1);
        let out = solve(&g);
        assert_eq!(out.days, Some(2), "star with {leaves} leaves");
        if leaves >= 2 {
            // The centre must come first: the fox on a leaf can reach nothing but the centre.
            assert_eq!(out.inspections, Some(vec![0, 0]));
        }
    }
}

#[test]
fn small_trees_and_spiders() {
    // A "T": line 0-1-2-3-4 with a leaf 5 on hole 2.
    let t = graph(&[&[1], &[0, 2], &[1, 3, 5], &[2, 4], &[3], &[2]]);
    assert!(assert_optimal(&t).days.is_some());
    // Spiders with three legs: catchable while the legs are short, not once they are long.
    assert!(assert_optimal(&spider(3, 2)).days.is_some());
    assert_eq!(assert_optimal(&spider(3, 3)).days, None);
    // Disconnected: two separate tunnels.
    let two = graph(&[&[1], &[0], &[3], &[2]]);
    assert!(assert_optimal(&two).days.is_some());
}

#[test]
fn random_small_graphs_are_solved_optimally() {
    let mut rng = Rng::from_u64(2024);
    for _ in 0..300 {
        let n = 2 + rng.index(7);
        let g = random_graph(n, |p| rng.chance(p));
        assert_optimal(&g);
    }
}

/// Random edges (density 0.3), then a tunnel for every hole left without one.
fn random_graph(n: usize, mut coin: impl FnMut(f64) -> bool) -> Graph {
    let mut adj = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            if coin(0.3) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
    }
    for a in 0..n {
        if n > 1 && adj[a].is_empty() {
            let b = (a + 1) % n;
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    Graph::from_adjacency(adj).unwrap()
}

#[test]
fn escape_reconstruction() {
    let g = Graph::line(5).unwrap();
    let inspections = [1, 2, 3];
    let c = check(&g, &inspections).unwrap();
    assert!(!c.caught);
    assert_eq!(c.day, None);
    assert_valid_escape(&g, &inspections, c.escape.as_ref().unwrap());
    // The lowest hole left on day 3 is 0, so the fox ends there: 0 <- 1 <- 0.
    assert_eq!(c.escape, Some(vec![0, 1, 0]));

    let empty = check(&g, &[]).unwrap();
    assert_eq!(serde_json::to_value(empty).unwrap(), json!({"caught": false, "day": null, "escape": []}));
}

#[test]
fn candidate_sets_day_by_day() {
    let g = Graph::line(5).unwrap();
    assert_eq!(candidate_sets(&g, &[2]).unwrap(), vec![vec![0, 1, 3, 4]]);
    let sets = candidate_sets(&g, &[1, 2, 3, 1, 2, 3, 0]).unwrap();
    assert_eq!(sets[0], vec![0, 2, 3, 4]);
    assert_eq!(sets[1], vec![1, 3, 4]);
    assert_eq!(sets[5], Vec::<usize>::new());
    assert_eq!(sets[6], Vec::<usize>::new(), "stays empty after the catch");
    assert_eq!(check(&g, &[1, 2, 3, 1, 2, 3, 0]).unwrap().day, Some(6));
}

#[test]
fn bad_graphs_are_named() {
    let err = |adj: Vec<Vec<usize>>| Graph::from_adjacency(adj).unwrap_err().to_string();
    assert_eq!(err(vec![]), "the graph must have between 1 and 30 holes, got 0");
    assert_eq!(Graph::line(31).unwrap_err(), GraphError::HoleCount { holes: 31 });
    assert_eq!(Graph::line(0).unwrap_err(), GraphError::HoleCount { holes: 0 });
    assert_eq!(err(vec![vec![1], vec![0, 5]]), "hole 1 lists neighbour 5, but the holes are numbered 0 to 1");
    assert!(err(vec![vec![0, 1], vec![0]]).starts_with("hole 0 lists itself as a neighbour"));
    assert_eq!(err(vec![vec![1, 1], vec![0]]), "hole 0 lists neighbour 1 more than once");
    assert!(err(vec![vec![1, 2], vec![0], vec![1]]).starts_with("hole 0 lists 2 but 2 does not list 0"));
    assert_eq!(err(vec![vec![1], vec![0], vec![]]), "hole 2 has no neighbours; the fox must be able to move");
    assert_eq!(err(vec![vec![], vec![]]), "hole 0 has no neighbours; the fox must be able to move");
    assert!(Graph::line(30).is_ok());
}

#[test]
fn bad_inspections_are_named() {
    let g = Graph::line(5).unwrap();
    let e = check(&g, &[1, 2, 5]).unwrap_err();
    assert_eq!(e, GraphError::InspectionOutOfRange { index: 2, hole: 5, holes: 5 });
    assert_eq!(e.to_string(), "inspection 2 (day 3) is hole 5, but the holes are numbered 0 to 4");
    assert!(candidate_sets(&g, &[9]).is_err());
}

#[test]
fn cancellation_is_honoured() {
    struct StopAt(u64);
    impl Monitor for StopAt {
        fn update(&mut self, done: u64, _total: u64) -> bool {
            done < self.0
        }
    }
    let g = Graph::line(20).unwrap();
    assert_eq!(shortest_strategy(&g, &mut StopAt(1)), Err(Cancelled));
    struct Count(u64);
    impl Monitor for Count {
        fn update(&mut self, _: u64, _: u64) -> bool {
            self.0 += 1;
            true
        }
    }
    let mut calls = Count(0);
    assert_eq!(shortest_strategy(&g, &mut calls).unwrap().days, Some(36));
    assert!(calls.0 >= 30, "progress reported every layer, got {} calls", calls.0);
}

fn graph_and_inspections() -> impl Strategy<Value = (Graph, Vec<usize>)> {
    (1usize..=8, prop::collection::vec(any::<bool>(), 28), any::<u64>()).prop_flat_map(|(n, edges, _)| {
        let mut bits = edges.into_iter().cycle();
        let g = random_graph(n, |_| bits.next().unwrap() && bits.next().unwrap());
        (Just(g), prop::collection::vec(0..n, 0..14))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

    #[test]
    fn check_escapes_are_walks_that_dodge((g, inspections) in graph_and_inspections()) {
        let c = check(&g, &inspections).unwrap();
        let sets = candidate_sets(&g, &inspections).unwrap();
        match c.escape {
            Some(escape) => {
                prop_assert!(!c.caught && c.day.is_none());
                prop_assert!(sets.iter().all(|s| !s.is_empty()));
                assert_valid_escape(&g, &inspections, &escape);
                for (fox, set) in escape.iter().zip(&sets) {
                    prop_assert!(set.contains(fox));
                }
            }
            None => {
                let day = c.day.unwrap();
                prop_assert!(c.caught);
                prop_assert!(sets[day - 1].is_empty() && sets[..day - 1].iter().all(|s| !s.is_empty()));
            }
        }
    }

    #[test]
    fn strategies_catch_the_fox((g, _) in graph_and_inspections()) {
        let out = solve(&g);
        if let Some(inspections) = out.inspections {
            let c = check(&g, &inspections).unwrap();
            prop_assert!(c.caught);
            prop_assert_eq!(c.day, Some(inspections.len()));
            // Any shorter prefix lets the fox escape.
            if inspections.len() > 1 {
                prop_assert!(!check(&g, &inspections[..inspections.len() - 1]).unwrap().caught);
            }
        }
    }
}

#[test]
fn hole_and_inspection_limits() {
    // Refused before anything is allocated.
    assert_eq!(Graph::line(usize::MAX).unwrap_err(), GraphError::HoleCount { holes: usize::MAX });
    let limits = Limits::default();
    assert_eq!(Graph::line(MAX_HOLES).unwrap().check_limits(&limits), Ok(()));
    let narrow = Limits { max_holes: 10, max_inspections: 4 };
    assert_eq!(Graph::line(10).unwrap().check_limits(&narrow), Ok(()));
    let e = Graph::line(11).unwrap().check_limits(&narrow).unwrap_err();
    assert_eq!(e, GraphError::HoleLimit { holes: 11, max: 10 });
    assert_eq!(e.to_string(), "the graph may have at most 10 holes, got 11");
    // A limit above what the search supports acts as that.
    let wide = Limits { max_holes: 1000, ..Limits::default() };
    assert_eq!(Graph::line(30).unwrap().check_limits(&wide), Ok(()));
    let g = Graph::line(3).unwrap();
    assert!(check_within(&g, &[1, 1, 1, 1], &narrow).is_ok());
    let e = check_within(&g, &[1, 1, 1, 1, 1], &narrow).unwrap_err();
    assert_eq!(e.to_string(), "at most 4 inspections can be checked, got 5");
    assert!(check(&g, &vec![1; limits.max_inspections]).is_ok());
    assert_eq!(
        check(&g, &vec![1; limits.max_inspections + 1]).unwrap_err(),
        GraphError::InspectionLimit { count: limits.max_inspections + 1, max: limits.max_inspections }
    );
    assert!(check_within(&Graph::line(11).unwrap(), &[1], &narrow).is_err());
}
