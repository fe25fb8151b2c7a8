//! Sudoku sessions driven with no terminal: whole games, undo and redo, the save format both ways, and every bad
//! input answered with an error value.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use play::sudoku::{Direction, End, HintKind, Mode, Puzzle, Setup, SudokuError, SudokuSession};
use play::{Clock, Env, Inline, SaveFile, Session, Tone};

/// A change to a saved state, making it damaged.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// A blocking environment with a manual clock (so saves compare equal).
fn env() -> (Env, Clock) {
    let clock = Clock::manual();
    (Env::new(Arc::new(Inline), clock.clone()), clock)
}

/// Project Euler 96's first grid: a fixed puzzle whatever the generator does.
const FIXED: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

fn fixed(env: &Env) -> SudokuSession {
    let grid: sudoku::Grid = FIXED.parse().unwrap();
    let puzzle = Puzzle::from_givens(*grid.digits(), "Project Euler 96, grid 1").unwrap();
    assert!(puzzle.unique);
    SudokuSession::with_puzzle(Setup::default(), puzzle, env).unwrap()
}

#[test]
fn a_generated_puzzle_is_finished_with_hints() {
    let (env, clock) = env();
    let mut s = SudokuSession::new(Setup::default(), &env).unwrap();
    let news = s.poll().unwrap().unwrap();
    assert_eq!(news.text, "A new medium puzzle. Fill the grid.");
    let solution = s.puzzle().unwrap().solution;
    let mut taken = 0;
    while s.end().is_none() {
        clock.advance(std::time::Duration::from_secs(3));
        s.hint().unwrap();
        taken += 1;
        assert!(
            s.shown_hint().unwrap().applicable(),
            "a medium puzzle never needs guessing"
        );
        let msg = s.apply_hint().unwrap();
        assert!(taken < 400, "no progress");
        if s.end().is_some() {
            assert_eq!(msg.tone, Tone::Good);
            assert!(
                msg.text.starts_with(&format!(
                    "Solved in {}",
                    play::clock::format_duration(s.elapsed())
                )),
                "{}",
                msg.text
            );
            assert!(
                msg.text.contains(&format!("0 mistakes and {taken} hints")),
                "{}",
                msg.text
            );
        }
    }
    let v = s.view();
    assert_eq!(v.end, Some(End::Solved));
    assert_eq!(v.values, solution.to_vec());
    assert_eq!((v.cells_left, v.mistakes, v.hints), (0, 0, taken));
    assert!(!v.running, "the timer stops at the end");
    // Nothing more can be played; a new game can.
    assert_eq!(s.enter(0, 1), Err(SudokuError::Over(End::Solved)));
    assert_eq!(s.hint(), Err(SudokuError::Over(End::Solved)));
    let msg = s.new_game().unwrap();
    assert!(msg.text.starts_with("A new medium puzzle"), "{}", msg.text);
    assert_eq!(s.view().hints, 0);
    assert_eq!(s.setup().index, 2, "the next puzzle of the seed");
}

/// With the environment's stop flag raised (a server's request past its deadline) no puzzle is made, in either
/// mode: the new game is refused with "stopped", never handed an empty or half-made grid. Lowered, the same
/// setup makes its puzzle.
#[test]
fn a_raised_stop_flag_makes_no_puzzle() {
    let (mut env, _) = env();
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
    env.stop = Some(Arc::clone(&flag));
    let classic = Setup {
        mode: Mode::Classic,
        hide: 40,
        unique: true,
        ..Setup::default()
    };
    for setup in [Setup::default(), classic] {
        let err = SudokuSession::new(setup.clone(), &env).unwrap_err();
        assert_eq!(err, SudokuError::Stopped);
        assert_eq!(
            err.to_string(),
            "No puzzle: making it was stopped before it finished (it took too long)"
        );
        assert_eq!(
            Puzzle::make_until(&setup, Some(&flag)),
            Err(SudokuError::Stopped)
        );
        flag.store(false, std::sync::atomic::Ordering::Relaxed);
        let mut s = SudokuSession::new(setup.clone(), &env).unwrap();
        assert_eq!(s.puzzle(), Puzzle::make(&setup).ok().as_ref());
        assert!(s.poll().unwrap().is_ok());
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn digits_mistakes_and_the_win_by_typing() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    let empty: Vec<usize> = (0..81).filter(|&c| s.view().givens[c] == 0).collect();
    // A wrong digit that clashes with nothing is not counted when typed (the counter would give the answer
    // away); a check finds it and counts it, once.
    let givens = s.view().givens;
    let peers = |c: usize, o: usize| {
        o != c && (o / 9 == c / 9 || o % 9 == c % 9 || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3))
    };
    let (c, wrong) = empty
        .iter()
        .find_map(|&c| {
            (1..=9u8)
                .find(|&d| d != sol[c] && (0..81).all(|o| !peers(c, o) || givens[o] != d))
                .map(|d| (c, d))
        })
        .unwrap();
    let m = s.enter(c, wrong).unwrap();
    assert_eq!(m.text, format!("{wrong} in {}", cell(c)));
    assert_eq!(s.view().mistakes, 0);
    let m = s.check().unwrap();
    assert!(
        m.text.starts_with("Check: 1 entry wrong (marked)"),
        "{}",
        m.text
    );
    assert_eq!(s.view().mistakes, 1);
    s.check().unwrap();
    assert_eq!(s.view().mistakes, 1, "a check counts each wrong entry once");
    // A clash is counted at once, and names the other cell and the house.
    assert_eq!(s.enter(c, 0).unwrap().text, format!("{} erased", cell(c)));
    assert_eq!(
        s.enter(c, 0).unwrap().text,
        format!("{} is already empty", cell(c))
    );
    // r1c1 is empty; 3 is a clue in r1c3.
    let m = s.enter(0, 3).unwrap();
    assert_eq!(m.text, "3 in r1c1 clashes with the 3 in r1c3 (row 1)");
    assert_eq!(m.tone, Tone::Warn);
    assert_eq!(s.view().conflicts, vec![0, 2]);
    assert_eq!(s.view().mistakes, 2);
    // Typed entries fill the rest.
    for &c in &empty {
        let m = s
            .type_entry(&format!("r{}c{} {}", c / 9 + 1, c % 9 + 1, sol[c]))
            .unwrap();
        assert_eq!(s.cursor(), c);
        if c == *empty.last().unwrap() {
            assert_eq!(m.text, "Solved in 0:00 with 2 mistakes and 0 hints!");
        }
    }
    assert_eq!(s.end(), Some(End::Solved));
}

fn cell(c: usize) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

#[test]
fn undo_and_redo_walk_through_changes() {
    let (env, _) = env();
    let mut s = fixed(&env);
    assert_eq!(s.undo().unwrap().text, "Nothing to undo");
    s.enter(0, 4).unwrap();
    s.toggle_mark(1, 5).unwrap();
    s.toggle_mark(1, 7).unwrap();
    assert_eq!(s.view().marks[1], (1 << 4) | (1 << 6));
    assert!(s.view().can_undo && !s.view().can_redo);
    s.undo().unwrap();
    assert_eq!(s.view().marks[1], 1 << 4);
    s.undo().unwrap();
    s.undo().unwrap();
    assert_eq!(s.view().values[0], 0);
    assert_eq!(s.undo().unwrap().text, "Nothing to undo");
    assert_eq!(s.redo().unwrap().text, "Redone");
    assert_eq!(s.view().values[0], 4);
    // A new change drops what could be redone.
    s.enter(9, 0).unwrap_err();
    s.enter(10, 2).unwrap();
    assert!(!s.view().can_redo);
    assert_eq!(s.redo().unwrap().text, "Nothing to redo");
    // Automatic marks are one step, and a digit takes its value out of its peers' marks.
    s.fill_marks().unwrap();
    assert_eq!(
        s.fill_marks().unwrap().text,
        "The pencil marks are already complete"
    );
    let before = s.view().marks[1];
    assert!(before & (1 << 3) == 0, "4 is in r1c1 already");
    s.undo().unwrap();
    assert_eq!(s.view().marks[3], 0);
}

#[test]
fn a_hint_for_a_wrong_entry_and_the_check() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    let c = (0..81).find(|&c| s.view().givens[c] == 0).unwrap();
    let wrong = (1..=9).find(|&d| d != sol[c]).unwrap();
    s.enter(c, wrong).unwrap();
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(
        h.text,
        format!(
            "The {wrong} in {} is wrong: the solution has another digit there.",
            cell(c)
        )
    );
    assert!(!h.applicable());
    assert_eq!(
        s.apply_hint().unwrap().text,
        "This hint has nothing to apply"
    );
    assert_eq!(s.apply_hint(), Err(SudokuError::NoHint));
    let m = s.check().unwrap();
    assert_eq!(m.tone, Tone::Warn);
    assert!(m.text.starts_with("Check: 1 entry wrong"), "{}", m.text);
    assert!(s.view().flagged.contains(&c));
    s.enter(c, 0).unwrap();
    assert!(s.view().flagged.is_empty(), "a change clears the flags");
    assert_eq!(s.check().unwrap().tone, Tone::Good);
}

/// Issue 37, defect 4: marks that are not filled in everywhere, and leave out a cell's digit, are notes, not
/// candidates: a hint still gives the next step (the one the grid's digits alone give), and says marks are wrong
/// only once every empty cell
/// has marks and a cell's marks rule out its digit. Only a step counts as a hint taken; a wrong entry a hint
/// points at counts once as a mistake, as a check counts it.
#[test]
fn partial_marks_still_get_a_step_and_only_steps_count() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    // r1c1: a corner mark that is not its digit, and two centre marks.
    let c = 0;
    assert_eq!(s.view().givens[c], 0);
    let others: Vec<u8> = (1..=9).filter(|&d| d != sol[c]).collect();
    s.toggle_mark(c, others[0]).unwrap();
    s.toggle_centre_mark(c, others[1]).unwrap();
    s.toggle_centre_mark(c, others[2]).unwrap();
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(h.kind, HintKind::Step, "{}", h.text);
    // The step the digits alone give (as `boardlab sudoku hint` and the API give it).
    let values: [u8; 81] = s.view().values.try_into().unwrap();
    let plain = play::sudoku::hint(&values, &values, &[0; 81]);
    assert_eq!(h.text, plain.text);
    assert!(h.applicable());
    assert_eq!(s.view().hints, 1);
    // Every cell's marks filled in, then the solution's digit taken out of r1c1's: now the marks are wrong.
    s.fill_marks().unwrap();
    if s.view().marks[c] & (1 << (sol[c] - 1)) != 0 {
        s.toggle_mark(c, sol[c]).unwrap();
    }
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(h.kind, HintKind::Marks);
    assert_eq!(
        h.text,
        "Your pencil marks in r1c1 leave out the digit that belongs there; filling the marks again puts it back."
    );
    assert_eq!(h.cell(), Some(c));
    assert_eq!(s.view().hints, 1, "pointing at marks is not a hint taken");
    // With the digit back, the marks are candidates: the step reads them.
    s.toggle_mark(c, sol[c]).unwrap();
    s.hint().unwrap();
    assert_eq!(s.shown_hint().unwrap().kind, HintKind::Step);
    assert_eq!(s.view().hints, 2);
    // A wrong digit that clashes with nothing: the hint names it, counts it as one mistake, and no hint.
    let (cell, wrong) = (0..81)
        .filter(|&c| s.view().values[c] == 0)
        .find_map(|c| {
            let v = s.view().values;
            let peers = |d: u8| {
                (0..81).any(|o| {
                    o != c
                        && v[o] == d
                        && (o / 9 == c / 9
                            || o % 9 == c % 9
                            || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3))
                })
            };
            (1..=9).find(|&d| d != sol[c] && !peers(d)).map(|d| (c, d))
        })
        .unwrap();
    s.enter(cell, wrong).unwrap();
    assert_eq!(s.view().mistakes, 0);
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(h.kind, HintKind::Mistake);
    assert_eq!(h.cell(), Some(cell));
    assert_eq!((s.view().hints, s.view().mistakes), (2, 1));
    s.check().unwrap();
    s.hint().unwrap();
    assert_eq!((s.view().hints, s.view().mistakes), (2, 1), "counted once");
}

#[test]
fn revealing_ends_the_game() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    s.reveal().unwrap();
    assert_eq!(s.end(), Some(End::Revealed));
    assert_eq!(s.view().values, sol.to_vec());
    assert_eq!(s.reveal(), Err(SudokuError::Over(End::Revealed)));
    let over = s.undo().unwrap_err();
    assert_eq!(over.to_string(), "The solution is shown.");
    assert_eq!(
        over.message().next,
        [play::NextAction::NewGame, play::NextAction::Leave]
    );
}

#[test]
fn every_bad_input_is_an_error_value() {
    let (env, _) = env();
    let mut s = fixed(&env);
    assert_eq!(s.enter(81, 1), Err(SudokuError::NoCell(81)));
    assert_eq!(s.enter(usize::MAX, 1), Err(SudokuError::NoCell(usize::MAX)));
    assert_eq!(s.enter(0, 10), Err(SudokuError::NoDigit(10)));
    assert_eq!(s.toggle_mark(0, 0), Err(SudokuError::NoDigit(0)));
    assert_eq!(s.toggle_mark(200, 1), Err(SudokuError::NoCell(200)));
    let e = s.enter(2, 5).unwrap_err();
    assert_eq!(e, SudokuError::Clue(2));
    assert_eq!(e.to_string(), "r1c3 is a clue; it cannot be changed");
    assert_eq!(e.tone(), Tone::Warn);
    assert_eq!(
        s.toggle_mark(2, 5).unwrap_err().to_string(),
        "r1c3 holds a digit; erase it before pencilling"
    );
    for (text, want) in [
        ("", "has 0 digits"),
        ("12", "has 2 digits"),
        ("0 1 1", "rows are numbered 1 to 9"),
        ("1 0 1", "columns are numbered 1 to 9"),
        ("x", "is not \"row column value\""),
        ("1 3 5", "r1c3 is a clue"),
    ] {
        let e = s.type_entry(text).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
    assert_eq!(s.set_cursor(81), Err(SudokuError::NoCell(81)));
    s.set_cursor(80).unwrap();
    s.move_cursor(Direction::Right);
    assert_eq!(s.cursor(), 72, "the cursor wraps along the row");
    s.move_cursor(Direction::Down);
    assert_eq!(s.cursor(), 0, "and down the column");
    // A repeated digit stops the automatic marks.
    s.enter(0, 3).unwrap();
    assert_eq!(s.fill_marks(), Err(SudokuError::Repeated));
    // Setups the generator does not know.
    let bad = Setup {
        difficulty: "impossible".into(),
        ..Setup::default()
    };
    let e = SudokuSession::new(bad, &env).unwrap_err().to_string();
    assert!(e.contains("impossible"), "{e}");
    let too_many = Setup {
        mode: Mode::Classic,
        hide: 90,
        ..Setup::default()
    };
    let e = SudokuSession::new(too_many, &env).unwrap_err().to_string();
    // Refused by the setup's check, in the one range every front end takes (0 to 64).
    assert_eq!(
        e,
        "cannot hide 90 cells: a puzzle keeps at least 17 clues, so at most 64 cells are hidden"
    );
    // A pasted puzzle without a solution, or with a repeated clue.
    let mut clash = [0u8; 81];
    clash[0] = 1;
    clash[1] = 1;
    assert!(matches!(
        Puzzle::from_givens(clash, "x"),
        Err(SudokuError::BadPuzzle(_))
    ));
}

/// Centre marks (save format version 2): toggled, cleared by a digit in the cell and from its row, column and
/// box, erased, undone, saved and loaded; a version-1 save (no centre marks) loads with none.
#[test]
fn centre_marks_are_kept_cleared_and_saved() {
    let (env, _) = env();
    let mut s = fixed(&env);
    // r1c1 is empty in the fixed puzzle; r1c2 too; r9c1 shares the column with r1c1.
    assert_eq!(s.view().givens[0], 0);
    let m = s.toggle_centre_mark(0, 4).unwrap();
    assert_eq!(m.text, "Centre mark 4 added to r1c1");
    s.toggle_centre_mark(0, 5).unwrap();
    s.toggle_centre_mark(1, 4).unwrap();
    s.toggle_centre_mark(1, 5).unwrap();
    s.toggle_mark(1, 4).unwrap();
    let v = s.view();
    assert_eq!(v.centre[0], 0b11000);
    assert_eq!(v.centre[1], 0b11000);
    assert_eq!(v.marks[1], 0b01000);
    assert_eq!(v.marks[0], 0, "corner and centre marks are apart");
    // Saved and loaded through the envelope.
    let save = SaveFile::parse(&s.save().to_text()).unwrap();
    assert_eq!(save.version, play::save::VERSION);
    assert_eq!(save.state["board"]["centre"][0], serde_json::json!(0b11000));
    let Session::Sudoku(mut back) = Session::load(&save, &env).unwrap() else {
        panic!("not a sudoku")
    };
    assert_eq!(back.view().centre, v.centre);
    // A 4 in r1c1 clears its centre marks and the 4 from r1c2's (same row), corner and centre alike.
    back.enter(0, 4).unwrap();
    let w = back.view();
    assert_eq!((w.centre[0], w.centre[1], w.marks[1]), (0, 0b10000, 0));
    // Erasing an empty cell takes its centre marks too; undo brings them back.
    back.undo().unwrap();
    back.enter(1, 0).unwrap();
    assert_eq!(back.view().centre[1], 0);
    assert_eq!(back.view().marks[1], 0);
    back.undo().unwrap();
    assert_eq!(back.view().centre[1], 0b11000);
    // Bad input is an error value naming the cell or the digit.
    assert_eq!(back.toggle_centre_mark(81, 1), Err(SudokuError::NoCell(81)));
    assert_eq!(back.toggle_centre_mark(0, 0), Err(SudokuError::NoDigit(0)));
    assert_eq!(
        back.toggle_centre_mark(2, 1),
        Err(SudokuError::HoldsDigit(2))
    );
    // A damaged centre mark is refused with the cell.
    let mut state = back.to_state();
    state["board"]["centre"][10] = serde_json::json!(1024);
    let e = SudokuSession::from_state(&state, &env).unwrap_err();
    assert_eq!(e, "the grid: the centre marks of r2c2 are out of range");
    // A version-1 save without centre marks loads with none, and saves without the field.
    let mut v1 = s.save().to_value();
    v1["version"] = serde_json::json!(1);
    v1["state"]["board"]
        .as_object_mut()
        .unwrap()
        .remove("centre");
    let old = SaveFile::from_value(v1).unwrap();
    let Session::Sudoku(o) = Session::load(&old, &env).unwrap() else {
        panic!("not a sudoku")
    };
    assert!(o.view().centre.iter().all(|&m| m == 0));
    assert!(o.to_state()["board"].get("centre").is_none());
}

/// The player's setting "remove a placed digit from the pencil marks of its row, column and box" (issue 37):
/// on (`enter`, and `enter_with(.., true)`), the digit leaves every peer's corner and centre marks and nothing
/// else changes; off, every other cell's marks stay as they were. Either way the cell's own marks go.
#[test]
fn a_placed_digit_tidies_its_peers_marks_only_when_asked() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    s.fill_marks().unwrap();
    let sees = |a: usize, b: usize| {
        a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
    };
    // An empty at whose digit is a corner mark of a peer; a centre mark of that digit in another empty peer.
    let (at, peer) = (0..81)
        .filter(|&c| s.view().givens[c] == 0)
        .find_map(|c| {
            let d = sol[c];
            (0..81)
                .find(|&o| sees(c, o) && s.view().marks[o] & (1 << (d - 1)) != 0)
                .map(|o| (c, o))
        })
        .expect("a peer with the digit among its marks");
    let digit = sol[at];
    let bitd = 1u16 << (digit - 1);
    let centre_peer = (0..81)
        .find(|&o| o != peer && sees(at, o) && s.view().values[o] == 0)
        .expect("another empty peer");
    if s.view().centre[centre_peer] & bitd == 0 {
        s.toggle_centre_mark(centre_peer, digit).unwrap();
    }
    let before = s.view();
    assert!(before.marks[at] != 0, "the at has marks of its own");

    // Off: only the at itself changes.
    s.enter_with(at, digit, false).unwrap();
    let off = s.view();
    assert_eq!(
        (off.values[at], off.marks[at], off.centre[at]),
        (digit, 0, 0)
    );
    for o in (0..81).filter(|&o| o != at) {
        assert_eq!(
            (off.marks[o], off.centre[o]),
            (before.marks[o], before.centre[o]),
            "{} kept its marks",
            cell(o)
        );
    }
    assert!(off.marks[peer] & bitd != 0 && off.centre[centre_peer] & bitd != 0);

    // On: the digit leaves exactly its peers' marks.
    s.undo().unwrap();
    assert_eq!(s.view().marks, before.marks);
    s.enter_with(at, digit, true).unwrap();
    let on = s.view();
    assert_eq!((on.values[at], on.marks[at], on.centre[at]), (digit, 0, 0));
    for o in (0..81).filter(|&o| o != at) {
        let keep = if sees(at, o) { !bitd } else { u16::MAX };
        assert_eq!(
            (on.marks[o], on.centre[o]),
            (before.marks[o] & keep, before.centre[o] & keep),
            "{}",
            cell(o)
        );
    }
    assert!(on.marks[peer] & bitd == 0 && on.centre[centre_peer] & bitd == 0);

    // `enter` is the setting on.
    s.undo().unwrap();
    s.enter(at, digit).unwrap();
    assert_eq!((s.view().marks, s.view().centre), (on.marks, on.centre));
}

/// A hint drawn on the candidates (issue 37): the naked pair 4 8 in r8c1 and r9c3 of a grid without pencil marks.
/// The hint names the pattern's candidates and gives every cell of the step its candidates, which are, with no
/// marks, the digits its row, column and box leave (counted here the slow way).
#[test]
fn a_hint_carries_its_patterns_candidates_and_its_cells_candidates() {
    let text = "..9341.6.3476592811562879436..92531.531764829.92813.56915478632.6359217....136.9.";
    let values: [u8; 81] = std::array::from_fn(|i| {
        text.as_bytes()[i]
            .checked_sub(b'0')
            .filter(|d| (1..=9).contains(d))
            .unwrap_or(0)
    });
    let h = play::sudoku::hint(&values, &values, &[0; 81]);
    assert_eq!(h.kind, HintKind::Step);
    assert!(
        h.text
            .starts_with("Naked pair: in box 7, r8c1 and r9c3 hold only 4 and 8"),
        "{}",
        h.text
    );
    let (r8c1, r9c3) = (63, 74);
    let mut lit = h.highlight.clone();
    lit.sort_unstable();
    assert_eq!(lit, [(r8c1, 4), (r8c1, 8), (r9c3, 4), (r9c3, 8)]);
    let left = |c: usize| -> u16 {
        let seen = (0..81)
            .filter(|&o| {
                o / 9 == c / 9 || o % 9 == c % 9 || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3)
            })
            .fold(0u16, |m, o| {
                if values[o] == 0 {
                    m
                } else {
                    m | 1 << (values[o] - 1)
                }
            });
        0x1ff & !seen
    };
    let mut cells: Vec<usize> = h.pattern.iter().chain(&h.targets).copied().collect();
    cells.sort_unstable();
    assert_eq!(
        h.candidates.iter().map(|&(c, _)| c).collect::<Vec<_>>(),
        cells
    );
    for &(c, mask) in &h.candidates {
        assert_eq!(mask, left(c), "{}", cell(c));
    }
    for &(c, d) in h.highlight.iter().chain(&h.remove) {
        let mask = h.candidates.iter().find(|x| x.0 == c).map(|x| x.1).unwrap();
        assert!(
            mask & 1 << (d - 1) != 0,
            "{d} is a candidate of {}",
            cell(c)
        );
    }
    assert!(!h.remove.is_empty());
    assert!(h.remove.iter().all(|&(_, d)| d == 4 || d == 8));
    // A hint that only points at a cell carries neither.
    let mut wrong = values;
    wrong[0] = 1;
    let m = play::sudoku::hint(&values, &wrong, &[0; 81]);
    assert!(m.highlight.is_empty() && m.candidates.is_empty(), "{m:?}");
}

/// A hint shown when the game is saved is shown again when it is loaded, and applying it then does what it
/// would have done (the web server answers each request from the saved state).
#[test]
fn a_shown_hint_survives_a_save() {
    let (env, _) = env();
    let mut s = fixed(&env);
    s.hint().unwrap();
    let shown = s.shown_hint().cloned().unwrap();
    assert!(shown.applicable());
    let state = s.to_state();
    assert_eq!(state["hint"], serde_json::json!(true));
    let mut back = SudokuSession::from_state(&state, &env).unwrap();
    assert_eq!(back.shown_hint(), Some(&shown));
    assert_eq!(back.view().hints, 1, "not counted twice");
    s.apply_hint().unwrap();
    back.apply_hint().unwrap();
    assert_eq!(back.to_state(), s.to_state());
    assert!(back.to_state().get("hint").is_none());
    // With no hint shown, applying one is refused.
    assert_eq!(back.apply_hint(), Err(SudokuError::NoHint));
}

mod saves;
