//! Each technique on a position where it applies: a puzzle (made by this crate's generator) that the solver
//! cannot finish with the singles alone and where, given only the singles and that technique, it uses the
//! technique. Every step is checked against the solution found by the independent solver: no elimination removes
//! the solution's digit and no placement puts a wrong one.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sudoku::Grid;
use sudoku::logic::{self, Candidates, Options, Step, TECHNIQUES, Technique, TechniqueSet};

/// (technique id, puzzle).
const CASES: &[(&str, &str)] = &[
    (
        "full_house",
        "1...6.......8.....56......7..8...5..9..3..7.8...6..4.327..4.....1..2......9.1..6.",
    ),
    (
        "hidden_single_box",
        "...39...8.6.....9..8..7...1...7....3..3..5.....743.18..9......78.....9...5.1.....",
    ),
    (
        "hidden_single_line",
        "...28.59....4.6...1......6......3.524.51......1.8..3..2........74.....39..17.9...",
    ),
    (
        "direct_pointing",
        ".1..8.9.2...5...6......1...49....81.5..2....9....7....2.4..6..18.6..7.4.9........",
    ),
    (
        "direct_claiming",
        ".1..8.9.2...5...6......1...49....81.5..2....9....7....2.4..6..18.6..7.4.9........",
    ),
    (
        "direct_hidden_pair",
        ".....9.37.3.5.....1...8.46.48..6..9.67......4.....5....5...78.2....925...........",
    ),
    (
        "naked_single",
        "5..3.64...19..7.6....1...8..6...18.....2.....1..4.325.9.....3...34........5....47",
    ),
    (
        "direct_hidden_triple",
        "..........8.2..93......41......2......9...3.53.2.56..92.....7..84.79.....3..65.8.",
    ),
    (
        "pointing",
        "7.8.5..64............2.8..3.4.......8...6.7...3.1..89.2..9.5.7.3........6...1....",
    ),
    (
        "claiming",
        ".9..1...5.2........56..4.21.....6.5.2......68...487.....48.......35.1......94...7",
    ),
    (
        "naked_pair",
        "..6...78.147........81........36....2....1.4.4.3...86..3.9..6.......329....2.7.5.",
    ),
    (
        "x_wing",
        "..2.8..4..5....8..8.75.......1.7..8....1..3......5..7.2.98..4.171...9...6......97",
    ),
    (
        "hidden_pair",
        "8....6..49..32.........17....9...1.7.6...8.49...5...3....1.2....8.6.....1.2.53...",
    ),
    (
        "naked_triple",
        "1..4......6.3.9...5.2.6...7.4.7...8..3......2..18...64..6....9...79.3.18.........",
    ),
    (
        "swordfish",
        "..2.8..4..5....8..8.75.......1.7..8....1..3......5..7.2.98..4.171...9...6......97",
    ),
    (
        "hidden_triple",
        "1...9......4.......7...5.3.....87..6.6.3..8..3..1.......1...687.9.......756....91",
    ),
    (
        "skyscraper",
        "4...2...5..53....4.3.....2.563........4...95....7...8.1.2.4......9..3.76....9..4.",
    ),
    (
        "two_string_kite",
        ".7......2...12..47...5...9.....3....9.6......3...72.8.18..5.....3..8.12...76.....",
    ),
    (
        "turbot_fish",
        "..9..........78..36..2.9..7..6...5...954.........3.7.9......3..58..1.....615...8.",
    ),
    (
        "grouped_turbot_fish",
        ".7......2...12..47...5...9.....3....9.6......3...72.8.18..5.....3..8.12...76.....",
    ),
    (
        "xy_wing",
        "...56.3...4.....6........95..3.....912.....4....1..8.26...4.......3...1.9..72...3",
    ),
    (
        "xyz_wing",
        ".9.3..2......2.36........7.62.4.8.3.5.1.9..8...817.......9....3...2.41........496",
    ),
    (
        "naked_quad",
        "..28.16..178.........4......1...79........18.3.....7.4..5....7..9...24...4395....",
    ),
    (
        "jellyfish",
        "7.8..6...9.....23...59..7..8...2.....3.....4...9.8.5....6..3.2.5..6..1...7..4....",
    ),
    (
        "hidden_quad",
        ".48......5.91.......64...1.9..7.61.2...5.......4.1..3....689.43......5...........",
    ),
    (
        "x_cycle",
        "29.......6...78.3.....3..4...54...2....7....87.....9......6.8.43...9.67...2......",
    ),
    (
        "y_cycle",
        "..2..7..6...8..1...48..6.294..7.5..31......7....4.9.......3...4........83.5...9..",
    ),
    (
        "x_chain",
        "..9..........78..36....9..7..6..25...954.........3.7.9......3..58..1.....615...8.",
    ),
    (
        "mixed_cycle",
        "5..6...8221.37.5..8........674.........4........96.3...8......1.9...3.......8.65.",
    ),
    (
        "forcing_chain",
        ".154.........5....7..3....9.......6.1.....2...34.......51.3.....9...6..86...2.73.",
    ),
    (
        "cell_forcing_chains",
        ".154.........5....7..3....9.......6.1.....2...34.......51.3.....9...6..86...2.73.",
    ),
    (
        "region_forcing_chains",
        ".154.........5....7..3....9.......6.1.....2...34.......51.3.....9...6..86...2.73.",
    ),
    (
        "unique_rectangle",
        ".3.6.172.6.....3.....28..5....4....7..6.2.1..1....6....7..42.....2.....3.517.8.4.",
    ),
    (
        "bug",
        "..8.....55...9..34...3.2.9...3....81.6.....4.18....9...2.1.9...93..2...64.....7..",
    ),
    (
        "three_strong_links",
        ".8.417...45....8.......3.....8.6.79..6.....4..24.5.6.....7.......9....16...931.8.",
    ),
    (
        "four_strong_links",
        ".2.........93.....3518.9....6..2...41..4.3..74...9..5....5.1463.....75.........8.",
    ),
    (
        "wxyz_wing",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
    (
        "vwxyz_wing",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
    (
        "aligned_pair_exclusion",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
    (
        "uvwxyz_wing",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
    (
        "tuvwxyz_wing",
        ".347.69......2..4.5.29.1..6.27.........3.9.........18.7..5.43.1.5..3......31.756.",
    ),
    (
        "nishio_forcing_chain",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
    (
        "dynamic_forcing_chains",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
    (
        "dynamic_forcing_chains_plus",
        "51....6..........3....982..3...21..6.7..4..9.8..95...1..231....1..........6....45",
    ),
];

fn technique(id: &str) -> Technique {
    TECHNIQUES.into_iter().find(|t| t.id() == id).unwrap()
}

fn check_step(puzzle: &str, step: &Step, sol: &[u8; 81]) {
    for e in &step.eliminations {
        assert_ne!(
            sol[usize::from(e.cell)],
            e.digit,
            "{puzzle}: `{step}` removes the solution digit"
        );
    }
    for p in &step.placements {
        assert_eq!(
            sol[usize::from(p.cell)],
            p.digit,
            "{puzzle}: `{step}` places a wrong digit"
        );
    }
    assert!(
        !step.placements.is_empty() || !step.eliminations.is_empty(),
        "{puzzle}: `{step}` does nothing"
    );
    let text = step.to_string();
    assert!(
        text.starts_with(&format!("{}: ", step.technique().name()))
            || text.starts_with(&format!("{} (", step.technique().name())),
        "{text}"
    );
    assert!(!text.contains("\n"), "one sentence: {text}");
}

#[test]
fn every_technique_applies_on_its_position() {
    let covered: Vec<Technique> = CASES.iter().map(|(id, _)| technique(id)).collect();
    for t in TECHNIQUES {
        assert!(covered.contains(&t), "no position for {}", t.id());
    }
    for (id, puzzle) in CASES {
        let t = technique(id);
        let grid: Grid = puzzle.parse().unwrap();
        let sol = *grid.solve().unwrap().digits();
        let start = Candidates::from_values(grid.digits()).unwrap();
        let opts = Options {
            techniques: TechniqueSet::SINGLES.with(t),
            record: true,
            ..Options::default()
        };
        let out = logic::solve(start.clone(), &opts);
        let used: Vec<&Step> = out.steps.iter().filter(|s| s.technique() == t).collect();
        assert!(!used.is_empty(), "{id} not used on {puzzle}");
        for step in &out.steps {
            check_step(puzzle, step, &sol);
        }
        for step in used {
            assert!(
                step.rating >= t.base_rating(),
                "{id}: rating {} below the base",
                step.rating
            );
            if t.has_fixed_rating() {
                assert_eq!(step.rating, t.base_rating());
            }
        }
        // Singles alone do not get as far.
        let singles = logic::solve(
            start,
            &Options {
                techniques: TechniqueSet::SINGLES,
                ..Options::default()
            },
        );
        if !matches!(
            t,
            Technique::FullHouse
                | Technique::HiddenSingleBox
                | Technique::HiddenSingleLine
                | Technique::NakedSingle
        ) {
            assert!(
                singles.state.candidate_count() > out.state.candidate_count()
                    || out.is_solved() && !singles.is_solved(),
                "{id} makes no progress beyond the singles on {puzzle}"
            );
        }
    }
}

/// The eliminations of the first step of technique `t` on pencil marks `marks` (empty grid).
fn eliminations_on_marks(marks: &[u16; 81], t: Technique) -> Vec<(usize, u8)> {
    let s = Candidates::from_pencil_marks(&[0; 81], marks).unwrap();
    let mut step = Step::default();
    assert!(logic::find_step(
        &s,
        &mut step,
        logic::Rating(u8::MAX),
        TechniqueSet::EMPTY.with(t)
    ));
    assert_eq!(step.technique(), t);
    let mut v: Vec<(usize, u8)> = step
        .eliminations
        .iter()
        .map(|e| (usize::from(e.cell), e.digit))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn x_wing_on_constructed_pencil_marks() {
    // 5 is possible in rows 2 and 7 only in columns 3 and 8; everything else is open.
    let mut marks = [0x1ffu16; 81];
    for c in [0, 1, 3, 4, 5, 6, 8] {
        marks[9 + c] &= !(1 << 4);
        marks[6 * 9 + c] &= !(1 << 4);
    }
    let got = eliminations_on_marks(&marks, Technique::XWing);
    let want: Vec<(usize, u8)> = (0..9)
        .filter(|&r| r != 1 && r != 6)
        .flat_map(|r| [(r * 9 + 2, 5u8), (r * 9 + 7, 5u8)])
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(got, want);
}

#[test]
fn naked_pair_on_constructed_pencil_marks() {
    // r1c1 and r1c2 hold only 1 and 2: found first in box 1 (Sudoku Explainer searches boxes first).
    let mut marks = [0x1ffu16; 81];
    marks[0] = 0b11;
    marks[1] = 0b11;
    let got = eliminations_on_marks(&marks, Technique::NakedPair);
    let box1 = [2usize, 9, 10, 11, 18, 19, 20];
    let want: Vec<(usize, u8)> = box1.iter().flat_map(|&c| [(c, 1u8), (c, 2u8)]).collect();
    assert_eq!(got, want);
}
