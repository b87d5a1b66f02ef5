//! Engine-level tests: the 7 July 2024 example, solver outcomes, generator properties,
//! parse errors and property tests.

use super::*;
use crate::puzzles::monitor::Unmonitored;

pub(crate) use super::EXAMPLE;

pub(crate) const EXAMPLE_SOLUTION: [&str; 8] =
    ["43122314", "35241123", "14153267", "21531246", "42615378", "12362451", "31224135", "23416512"];

#[test]
fn example_solves_uniquely() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let out = solve(&puzzle, 2, &mut Unmonitored).unwrap();
    assert_eq!(out.solution.unwrap(), EXAMPLE_SOLUTION);
    assert_eq!(out.unique, Some(true));
    assert_eq!(out.method, Method::Exact);
    println!("{:?}", out.stats);
}

fn latin(n: usize, clues: &[(usize, usize, u8)]) -> Puzzle {
    let line = "1".repeat(n);
    let clues = clues.iter().map(|&(row, col, digit)| Clue { row, col, digit }).collect();
    Puzzle::new(vec![line.clone(); n], vec![line; n], clues).unwrap()
}

#[test]
fn two_solutions_are_reported_not_unique() {
    let out = solve(&latin(4, &[]), 2, &mut Unmonitored).unwrap();
    assert_eq!(out.unique, Some(false));
    assert_eq!(out.stats.solutions_found, 2);
    assert!(out.solution.is_some() && out.reason.is_none());
}

#[test]
fn limit_one_leaves_uniqueness_open() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let out = solve(&puzzle, 1, &mut Unmonitored).unwrap();
    assert_eq!(out.solution.unwrap(), EXAMPLE_SOLUTION);
    assert_eq!(out.unique, None);
}

#[test]
fn contradictory_clues_have_no_solution() {
    let out = solve(&latin(4, &[(1, 1, 1), (1, 3, 1)]), 2, &mut Unmonitored).unwrap();
    assert_eq!((out.solution, out.unique), (None, None));
    assert!(out.reason.unwrap().starts_with("no solution"));
}

#[test]
fn impossible_walls_have_no_solution() {
    // Every row is one region of 4, every column two regions of 2: rows need four 4s,
    // columns allow none.
    let rows = vec!["1111".to_string(); 4];
    let cols = vec!["1111".into(), "1111".into(), "2222".into(), "2222".into()];
    let out = solve(&Puzzle::new(rows, cols, vec![]).unwrap(), 2, &mut Unmonitored).unwrap();
    assert!(out.solution.is_none());
    assert!(out.reason.unwrap().contains("no solution"));
}

#[test]
fn exhaustive_search_can_prove_no_solution() {
    // A partial 5 x 5 Latin square that propagation alone does not refute (found by search).
    let clues = [(1, 1, 5), (5, 3, 1), (2, 2, 2), (1, 4, 2), (2, 1, 4), (3, 4, 5), (4, 5, 3)];
    let out = solve(&latin(5, &clues), 2, &mut Unmonitored).unwrap();
    assert_eq!((out.solution, out.unique), (None, None));
    assert!(out.stats.nodes > 1 && out.stats.solutions_found == 0);
    assert!(out.reason.unwrap().contains("every possibility was ruled out"));
}

#[test]
fn node_budget_reports_undecided() {
    let options = ExactOptions { limit_solutions: 2, max_nodes: 1 };
    let out = solve_with(&latin(9, &[]), &options, &mut Unmonitored).unwrap();
    assert_eq!(out.unique, None);
    assert!(out.reason.unwrap().contains("budget"));
}

#[test]
fn cancellation_stops_the_solver() {
    struct Stop;
    impl crate::puzzles::monitor::Monitor for Stop {
        fn update(&mut self, _: u64, _: u64) -> bool {
            false
        }
    }
    // Enough search nodes to reach a progress check: a 9 x 9 Latin square, all solutions.
    let options = ExactOptions { limit_solutions: usize::MAX, max_nodes: DEFAULT_MAX_NODES };
    assert!(solve_with(&latin(9, &[]), &options, &mut Stop).is_err());
    assert!(generate(8, 1, &mut Stop).is_err());
}

/// Checks a solution against the rules directly (independent of the solver).
fn assert_valid(puzzle: &Puzzle, rows: &[String]) {
    let n = puzzle.size();
    let grid: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().map(|b| b - b'0').collect()).collect();
    assert_eq!(grid.len(), n);
    for c in puzzle.clues() {
        assert_eq!(grid[c.row - 1][c.col - 1], c.digit, "clue {c:?}");
    }
    let check = |cells: &[(usize, usize)]| {
        let mut digits: Vec<u8> = cells.iter().map(|&(r, c)| grid[r][c]).collect();
        digits.sort();
        assert_eq!(digits, (1..=cells.len() as u8).collect::<Vec<_>>(), "region {cells:?}");
    };
    for r in 0..n {
        let labels = puzzle.row_regions()[r].as_bytes();
        let mut run = vec![(r, 0)];
        for c in 1..=n {
            if c == n || labels[c] != labels[c - 1] {
                check(&run);
                run.clear();
            }
            if c < n {
                run.push((r, c));
            }
        }
    }
    for c in 0..n {
        let mut run = vec![(0, c)];
        for r in 1..=n {
            if r == n || puzzle.col_regions()[r].as_bytes()[c] != puzzle.col_regions()[r - 1].as_bytes()[c] {
                check(&run);
                run.clear();
            }
            if r < n {
                run.push((r, c));
            }
        }
    }
}

#[test]
fn example_solution_satisfies_the_rules() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let rows: Vec<String> = EXAMPLE_SOLUTION.iter().map(|s| s.to_string()).collect();
    assert_valid(&puzzle, &rows);
}

#[test]
fn metropolis_solves_the_example_with_default_budget() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    for seed in 0..5 {
        let out = metropolis(&puzzle, &MetropolisOptions { seed, ..Default::default() }, &mut Unmonitored).unwrap();
        assert_eq!(out.solution.as_deref(), Some(&EXAMPLE_SOLUTION.map(String::from)[..]), "seed {seed}");
        assert_eq!(out.stats.final_energy, 0);
        assert_eq!(out.unique, None);
        assert!(out.stats.steps <= DEFAULT_MAX_STEPS && out.stats.acceptance_rate > 0.0);
    }
}

#[test]
fn metropolis_is_deterministic_and_honours_its_budget() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let options = MetropolisOptions { seed: 9, max_steps: Some(1000), temperature: Some(0.5) };
    let a = metropolis(&puzzle, &options, &mut Unmonitored).unwrap();
    let b = metropolis(&puzzle, &options, &mut Unmonitored).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.stats.steps, 1000);
    assert!(a.solution.is_none() && a.stats.final_energy > 0);
    assert!(a.reason.unwrap().contains("1000 steps"));
    // Degenerate temperatures are treated as 0: greedy, never panicking.
    for t in [0.0, -1.0, f64::NAN] {
        let out =
            metropolis(&puzzle, &MetropolisOptions { temperature: Some(t), ..options }, &mut Unmonitored).unwrap();
        assert_eq!(out.stats.temperature, 0.0);
        assert!(out.stats.final_energy <= out.stats.initial_energy);
    }
}

/// The 100-seed statistic (also printed by `examples/oneup_stats.rs`).
#[test]
#[ignore]
fn metropolis_success_rate_over_100_seeds() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let mut steps: Vec<u64> = (0..100)
        .filter_map(|seed| {
            let out = metropolis(&puzzle, &MetropolisOptions { seed, ..Default::default() }, &mut Unmonitored).unwrap();
            out.solution.map(|_| out.stats.steps)
        })
        .collect();
    steps.sort();
    println!("solved {}/100, median steps {}", steps.len(), steps[steps.len() / 2]);
    assert!(steps.len() >= 95);
}

#[test]
fn generated_puzzles_are_unique_and_minimal() {
    for size in MIN_SIZE..=MAX_SIZE {
        for seed in 0..3 {
            let g = generate(size, seed, &mut Unmonitored).unwrap();
            let p = &g.puzzle;
            assert_eq!(p.size(), size);
            let out = solve(p, 2, &mut Unmonitored).unwrap();
            assert_eq!(out.unique, Some(true), "size {size} seed {seed}");
            assert_eq!(out.solution.as_ref(), Some(&g.solution));
            assert_valid(p, &g.solution);
            assert_eq!(g.difficulty.clues, p.clues().len());
            assert_eq!(g.difficulty.nodes, out.stats.nodes);
            for skip in 0..p.clues().len() {
                let fewer = p.clues().iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, c)| *c).collect();
                let weaker = Puzzle::new(p.row_regions().to_vec(), p.col_regions().to_vec(), fewer).unwrap();
                assert_eq!(
                    solve(&weaker, 2, &mut Unmonitored).unwrap().unique,
                    Some(false),
                    "clue {skip} is redundant"
                );
            }
            // Walls: each row and column holds 1-3 regions.
            let walls = |lines: &[String], axis_rows: bool| {
                for a in 0..size {
                    let line: Vec<u8> = (0..size)
                        .map(|b| if axis_rows { lines[a].as_bytes()[b] } else { lines[b].as_bytes()[a] })
                        .collect();
                    let regions = 1 + line.windows(2).filter(|w| w[0] != w[1]).count();
                    assert!((1..=3).contains(&regions), "{line:?}");
                }
            };
            walls(p.row_regions(), true);
            walls(p.col_regions(), false);
        }
    }
}

#[test]
fn generation_is_deterministic() {
    let a = generate(8, 42, &mut Unmonitored).unwrap();
    assert_eq!(a, generate(8, 42, &mut Unmonitored).unwrap());
    assert_ne!(a.puzzle, generate(8, 43, &mut Unmonitored).unwrap().puzzle);
    // Pinned so a change to the generator or the RNG is noticed (it changes every book).
    assert_eq!(a.puzzle.row_regions()[..2], ["11111222", "11222222"], "{}", a.puzzle.to_text());
    assert_eq!(a.puzzle.clues()[..2], [Clue { row: 1, col: 8, digit: 1 }, Clue { row: 2, col: 2, digit: 2 }]);
    assert_eq!(a.difficulty.clues, 12);
}

#[test]
fn text_json_text_round_trips() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let json = puzzle.to_json().to_string();
    let back = Puzzle::from_json(&json).unwrap();
    assert_eq!(back, puzzle);
    assert_eq!(back.to_text(), puzzle.to_text());
    assert_eq!(Puzzle::from_text(&puzzle.to_text()).unwrap(), puzzle);
    assert!(puzzle.to_text().starts_with("11112222 Row regions\n11111222\n"));
}

#[test]
fn json_shapes_match_the_api() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let json = puzzle.to_json();
    assert_eq!(json["row_regions"][0], "11112222");
    assert_eq!(json["col_regions"][7], "22222221");
    assert_eq!(json["clues"][0], serde_json::json!({"row": 1, "col": 2, "digit": 3}));

    let out = serde_json::to_value(solve(&puzzle, 2, &mut Unmonitored).unwrap()).unwrap();
    assert_eq!(out["method"], "exact");
    assert_eq!(out["unique"], true);
    assert_eq!(out["solution"][0], "43122314");
    assert!(out.get("reason").is_none() && out["stats"]["nodes"].is_u64());

    let none = serde_json::to_value(solve(&latin(4, &[(1, 1, 1), (1, 2, 1)]), 2, &mut Unmonitored).unwrap()).unwrap();
    assert!(none["solution"].is_null() && none["unique"].is_null() && none["reason"].is_string());

    let m = metropolis(&puzzle, &MetropolisOptions { seed: 1, ..Default::default() }, &mut Unmonitored).unwrap();
    let m = serde_json::to_value(m).unwrap();
    assert_eq!(m["method"], "metropolis");
    assert!(m["unique"].is_null() && m["stats"]["acceptance_rate"].is_f64());

    let g = generate(6, 3, &mut Unmonitored).unwrap();
    let v = serde_json::to_value(&g).unwrap();
    assert_eq!(v["puzzle"]["text"], g.puzzle.to_text());
    assert_eq!(v["puzzle"]["json"], g.puzzle.to_json());
    assert!(v["solution"].is_array() && v["difficulty"]["nodes"].is_u64());
    assert!(["easy", "medium", "hard"].contains(&v["difficulty"]["level"].as_str().unwrap()));
    let back: Generated = serde_json::from_value(v).unwrap();
    assert_eq!(back, g);
}

#[test]
fn method_is_lowercase_on_the_wire() {
    for (method, name) in [(Method::Exact, "exact"), (Method::Metropolis, "metropolis")] {
        assert_eq!(serde_json::to_value(method).unwrap(), name);
        assert_eq!(serde_json::from_value::<Method>(name.into()).unwrap(), method);
    }
    assert!(serde_json::from_value::<Method>("Exact".into()).is_err());
}

#[test]
fn deserializing_a_puzzle_validates_it() {
    let bad = serde_json::json!({"row_regions": ["111"], "col_regions": ["111"], "clues": []});
    let err = serde_json::from_value::<Puzzle>(bad).unwrap_err().to_string();
    assert!(err.contains("sizes 4 to 9"), "{err}");
}

#[test]
fn render_draws_walls() {
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let art = puzzle.render(None);
    let lines: Vec<&str> = art.lines().collect();
    assert_eq!(lines.len(), 17);
    assert_eq!(lines[0], "+---+---+---+---+---+---+---+---+");
    assert_eq!(lines[1], "|     3         |               |");
    assert_eq!(lines[2], "+   +   +   +   +   +   +---+   +");
    let solved = puzzle.render(Some(&EXAMPLE_SOLUTION.map(String::from)));
    assert_eq!(solved.lines().nth(1).unwrap(), "| 4   3   1   2 | 2   3   1   4 |");
}

mod errors;
mod props;

#[test]
fn metropolis_steps_at_the_maximum_are_accepted_and_above_refused() {
    let limits = Limits::default();
    let steps = |s| MetropolisOptions { max_steps: Some(s), ..Default::default() };
    assert_eq!(steps(limits.max_steps).validate(&limits), Ok(()));
    assert_eq!(MetropolisOptions::default().validate(&limits), Ok(()));
    let e = steps(limits.max_steps + 1).validate(&limits).unwrap_err();
    assert_eq!(e.field(), "max_steps");
    assert_eq!(e.to_string(), "max_steps must be between 1 and 1000000000 (got 1000000001)");
    assert_eq!(steps(0).validate(&limits).unwrap_err().field(), "max_steps");
    // Refused before the first step.
    let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
    let e = metropolis(&puzzle, &steps(u64::MAX), &mut Unmonitored).unwrap_err();
    assert!(matches!(e, MetropolisError::Options(OptionsError::MaxSteps { steps: u64::MAX, max: 1_000_000_000 })));
    // A narrower server limit also bounds the default budget.
    let narrow = Limits { max_steps: 100, ..Limits::default() };
    let hot = MetropolisOptions { temperature: Some(1000.0), ..Default::default() };
    let out = metropolis_within(&puzzle, &hot, &narrow, &mut Unmonitored).unwrap();
    assert_eq!(out.stats.steps, 100);
    assert!(metropolis_within(&puzzle, &steps(101), &narrow, &mut Unmonitored).is_err());
}

mod logic {
    use super::*;
    use std::collections::BTreeSet;

    fn digit_at(solution: &[String], row: usize, col: usize) -> u8 {
        solution[row - 1].as_bytes()[col - 1] - b'0'
    }

    /// Every placement is the solution's digit and no elimination removes it.
    fn assert_sound(logical: &Logical, solution: &[String], what: &str) {
        for step in &logical.steps {
            if let Some(p) = step.place {
                assert_eq!(p.digit, digit_at(solution, p.row, p.col), "{what}: {}", step.text);
            }
            for e in &step.eliminate {
                assert_ne!(e.digit, digit_at(solution, e.row, e.col), "{what}: {}", step.text);
            }
            assert!(!step.text.is_empty() && !step.cells.is_empty(), "{what}: a step in words, with its cells");
        }
    }

    #[test]
    fn the_example_is_easy_and_its_logical_solution_is_the_known_grid() {
        let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
        let logical = solve_logically(&puzzle).unwrap();
        assert!(logical.solved);
        let rows: Vec<String> =
            logical.grid.chunks(8).map(|r| r.iter().map(|d| char::from(b'0' + d)).collect()).collect();
        assert_eq!(rows, EXAMPLE_SOLUTION);
        assert_eq!(logical.level(), Some(Level::Easy));
        assert_eq!(grade(&puzzle), Some(Level::Easy));
        assert_eq!(logical.steps.len(), 64 - 9, "one placement a step");
        let solution: Vec<String> = EXAMPLE_SOLUTION.iter().map(|s| s.to_string()).collect();
        assert_sound(&logical, &solution, "example");
        let first = &logical.steps[0];
        assert!(
            first.text.starts_with(&format!(
                "row {}, column {} is {}: the only place for",
                first.place.unwrap().row,
                first.place.unwrap().col,
                first.place.unwrap().digit
            )),
            "{}",
            first.text
        );
        assert!(first.text.contains("region (") || first.text.contains("column ") || first.text.contains("row "));
    }

    #[test]
    fn generated_puzzles_have_the_level_asked_for_one_solution_and_sound_steps() {
        let mut seen = BTreeSet::new();
        for level in Level::ALL {
            for seed in 0..12u64 {
                for symmetry in [ClueSymmetry::None, ClueSymmetry::Rotational] {
                    let options = GenerateOptions { size: 7 + (seed as usize % 3), level: Some(level), symmetry };
                    let g = generate_with(&options, seed, &mut Unmonitored).unwrap();
                    let what = format!("{level:?} seed {seed} {symmetry:?}");
                    assert_eq!(g.difficulty.level, level, "{what}");
                    let exact = solve(&g.puzzle, 2, &mut Unmonitored).unwrap();
                    assert_eq!(exact.unique, Some(true), "{what}: one solution");
                    assert_eq!(exact.solution.as_deref(), Some(&g.solution[..]), "{what}");
                    let logical = solve_logically(&g.puzzle).unwrap();
                    assert!(logical.solved && logical.level() == Some(level), "{what}");
                    assert_eq!(logical.hardest().map(Technique::level).unwrap_or(Level::Easy), level, "{what}");
                    assert_eq!(
                        (g.difficulty.steps, &g.difficulty.techniques),
                        (logical.steps.len(), &logical.techniques())
                    );
                    assert_sound(&logical, &g.solution, &what);
                    // Monotone: the level's own techniques solve it, the easier ones do not.
                    assert_eq!(grade_within(&g.puzzle, level.hardest()), Some(level), "{what}");
                    if level > Level::Easy {
                        let easier = Level::ALL[Level::ALL.iter().position(|&l| l == level).unwrap() - 1];
                        assert_eq!(grade_within(&g.puzzle, easier.hardest()), None, "{what}");
                    }
                    if symmetry == ClueSymmetry::Rotational {
                        let n = g.puzzle.size();
                        let at: BTreeSet<(usize, usize)> = g.puzzle.clues().iter().map(|c| (c.row, c.col)).collect();
                        for &(r, c) in &at {
                            assert!(
                                at.contains(&(n + 1 - r, n + 1 - c)),
                                "{what}: clue ({r}, {c}) has its mirror image"
                            );
                        }
                    }
                    seen.extend(logical.techniques());
                }
            }
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), Technique::ALL, "every technique is exercised");
    }

    #[test]
    fn the_same_request_and_seed_give_the_same_puzzle() {
        let options = GenerateOptions { size: 8, level: Some(Level::Medium), symmetry: ClueSymmetry::Rotational };
        let a = generate_with(&options, 5, &mut Unmonitored).unwrap();
        assert_eq!(a, generate_with(&options, 5, &mut Unmonitored).unwrap());
        assert_ne!(a.puzzle, generate_with(&options, 6, &mut Unmonitored).unwrap().puzzle);
    }

    #[test]
    fn digits_against_the_rules_are_a_contradiction_naming_the_cell_and_region() {
        let puzzle = Puzzle::from_text(EXAMPLE).unwrap();
        // Row 1, column 2 is the clue 3; a 3 at row 1, column 1 is in the same row region.
        let mut extra = vec![0u8; 64];
        extra[0] = 3;
        let e = solve_logically_from(&puzzle, &extra, Technique::Trial).unwrap_err();
        assert_eq!(e.cells, [Cell { row: 1, col: 1 }]);
        assert!(e.detail.contains("row 1") && e.detail.contains("already has it at row 1, column 2"), "{}", e.detail);
        // Row 5 is one region of 8 and column 1's lower region has 5 cells: 9 fits nowhere.
        extra[0] = 0;
        extra[4 * 8] = 9;
        let e = solve_logically_from(&puzzle, &extra, Technique::Trial).unwrap_err();
        assert!(e.detail.contains("cannot hold 9"), "{}", e.detail);
    }

    #[test]
    fn hints_lead_from_any_right_grid_to_the_solution_and_refuse_wrong_ones() {
        let options = GenerateOptions { size: 8, level: Some(Level::Hard), symmetry: ClueSymmetry::None };
        let g = generate_with(&options, 3, &mut Unmonitored).unwrap();
        let solution: Vec<u8> = g.solution.concat().bytes().map(|b| b - b'0').collect();
        let mut grid = vec![0u8; 64];
        let mut techniques = BTreeSet::new();
        for _ in 0..64 {
            let h = hint(&g.puzzle, &grid).unwrap();
            if h.solved {
                break;
            }
            let last = h.steps.last().expect("a step");
            let p = last.place.expect("every hint ends in a placement");
            assert_eq!(p.digit, solution[(p.row - 1) * 8 + p.col - 1], "{}", last.text);
            assert!(h.steps[..h.steps.len() - 1].iter().all(|s| s.place.is_none()), "eliminations come first");
            techniques.extend(h.steps.iter().map(|s| s.technique));
            grid[(p.row - 1) * 8 + p.col - 1] = p.digit;
        }
        for c in g.puzzle.clues() {
            grid[(c.row - 1) * 8 + c.col - 1] = c.digit;
        }
        assert_eq!(grid, solution, "the hints solve the puzzle");
        assert!(hint(&g.puzzle, &grid).unwrap().solved);
        assert!(techniques.contains(&Technique::RegionWing), "a hard puzzle's hints use a region wing: {techniques:?}");

        // A digit that breaks no rule yet but is not the solution's: 409-worthy, naming the cell.
        let mut wrong = vec![0u8; 64];
        let i = (0..64)
            .find(|&i| {
                let max = g.puzzle.layout().max_digit(i) as u8;
                !g.puzzle.clues().iter().any(|c| (c.row - 1) * 8 + c.col - 1 == i) && max >= 2
            })
            .unwrap();
        wrong[i] = if solution[i] == 1 { 2 } else { 1 };
        match hint(&g.puzzle, &wrong) {
            Err(HintError::Contradiction(c)) => {
                assert_eq!(c.cells, [Cell { row: i / 8 + 1, col: i % 8 + 1 }]);
                assert!(c.detail.contains("cannot be right") || c.detail.contains("cannot hold"), "{}", c.detail);
            }
            other => panic!("{other:?}"),
        }
        // A clue overwritten.
        let clue = g.puzzle.clues()[0];
        let mut over = vec![0u8; 64];
        over[(clue.row - 1) * 8 + clue.col - 1] = if clue.digit == 1 { 2 } else { 1 };
        assert!(matches!(hint(&g.puzzle, &over), Err(HintError::Contradiction(c)) if c.detail.contains("is the clue")));
        // A puzzle with more than one solution has no hint.
        let open = Puzzle::new(vec!["1111".into(); 4], vec!["1111".into(); 4], vec![]).unwrap();
        assert!(matches!(hint(&open, &[0; 16]), Err(HintError::NotUnique(_))));
    }

    #[test]
    fn a_book_has_the_levels_asked_for_easiest_first_each_with_one_solution() {
        let levels = LevelCounts { easy: 2, medium: 2, hard: 1, expert: 1 };
        let book = generate_book(7, &levels, ClueSymmetry::None, 3, &mut Unmonitored).unwrap();
        assert_eq!(
            book.iter().map(|g| g.difficulty.level).collect::<Vec<_>>(),
            [Level::Easy, Level::Easy, Level::Medium, Level::Medium, Level::Hard, Level::Expert]
        );
        for g in &book {
            assert_eq!(g.puzzle.size(), 7);
            let outcome = solve(&g.puzzle, 2, &mut Unmonitored).unwrap();
            assert_eq!(outcome.unique, Some(true), "one solution");
            assert_eq!(outcome.solution.as_ref(), Some(&g.solution));
        }
        assert_eq!(book, generate_book(7, &levels, ClueSymmetry::None, 3, &mut Unmonitored).unwrap(), "same seed");
        let other = generate_book(7, &levels, ClueSymmetry::None, 4, &mut Unmonitored).unwrap();
        assert_ne!(book[0].puzzle, other[0].puzzle);
    }

    #[test]
    fn counts_spread_evenly_with_the_easier_levels_taking_the_rest() {
        let spread = |n| {
            let c = LevelCounts::spread(n);
            (c.easy, c.medium, c.hard, c.expert)
        };
        assert_eq!(spread(10), (3, 3, 2, 2));
        assert_eq!(spread(12), (3, 3, 3, 3));
        assert_eq!(spread(1), (1, 0, 0, 0));
        assert_eq!(spread(500), (125, 125, 125, 125));
        for n in 0..=40 {
            assert_eq!(LevelCounts::spread(n).total(), n);
        }
        let huge = LevelCounts { easy: usize::MAX, medium: 1, hard: 0, expert: 0 };
        assert_eq!(huge.total(), usize::MAX, "saturates, so a limit check sees it");
    }

    #[test]
    fn each_level_is_found_from_its_smallest_size_and_refused_at_once_below_it() {
        for level in Level::ALL {
            let smallest = smallest_size(level);
            for seed in 0..2 {
                let options = GenerateOptions { size: smallest, level: Some(level), symmetry: ClueSymmetry::None };
                let g = generate_with(&options, seed, &mut Unmonitored).unwrap();
                assert_eq!((g.puzzle.size(), g.difficulty.level), (smallest, level));
            }
            if smallest > MIN_SIZE {
                let options = GenerateOptions { size: smallest - 1, level: Some(level), symmetry: ClueSymmetry::None };
                let e = generate_with(&options, 0, &mut Unmonitored).unwrap_err();
                assert!(matches!(e, GenerateError::TooSmall { .. }), "{e}");
                assert!(e.to_string().contains(&format!("use size {smallest} or more")), "{e}");
            }
        }
    }

    #[test]
    fn a_book_reports_progress_in_puzzles_and_stops_when_cancelled() {
        struct Watch(Vec<(u64, u64)>, usize);
        impl crate::puzzles::monitor::Monitor for Watch {
            fn update(&mut self, done: u64, total: u64) -> bool {
                self.0.push((done, total));
                self.0.len() < self.1
            }
        }
        let levels = LevelCounts { easy: 3, ..Default::default() };
        let mut watch = Watch(Vec::new(), usize::MAX);
        generate_book(6, &levels, ClueSymmetry::None, 1, &mut watch).unwrap();
        assert!(watch.0.iter().all(|&(_, total)| total == 3));
        assert_eq!(watch.0.first(), Some(&(0, 3)));
        assert_eq!(watch.0.last().map(|p| p.0), Some(2));
        // Asked to stop mid-book: no book, cancelled.
        let mut stop = Watch(Vec::new(), 2);
        let e = generate_book(6, &levels, ClueSymmetry::None, 1, &mut stop).unwrap_err();
        assert!(matches!(e, GenerateError::Cancelled(_)), "{e}");
    }

    #[test]
    fn book_times_are_estimated_for_every_level_a_size_can_have() {
        for size in MIN_SIZE..=MAX_SIZE {
            for level in Level::ALL {
                for symmetry in [ClueSymmetry::None, ClueSymmetry::Rotational] {
                    let rate = puzzles_per_second(size, level, symmetry);
                    assert_eq!(rate.is_some(), size >= smallest_size(level), "{size} {level:?}");
                    assert!(rate.is_none_or(|r| r > 0.0), "{size} {level:?} {symmetry:?}");
                }
            }
        }
        let default = book_seconds(8, &LevelCounts::spread(100), ClueSymmetry::None).unwrap();
        assert!(default > 0.5 && default < 5.0, "a default book takes seconds: {default}");
        let slow = LevelCounts { hard: 500, ..Default::default() };
        assert!(book_seconds(6, &slow, ClueSymmetry::None).unwrap() > 60.0, "500 hard 6 x 6 puzzles take minutes");
        assert_eq!(book_seconds(5, &slow, ClueSymmetry::None), None, "no hard 5 x 5 puzzles");
        assert_eq!(book_seconds(5, &LevelCounts::default(), ClueSymmetry::None), Some(0.0));
    }
}
