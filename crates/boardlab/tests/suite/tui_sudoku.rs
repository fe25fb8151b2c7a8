//! The sudoku screen, driven key by key on a test terminal.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tui_common::{Harness, config};
use boardlab::tui::App;
use play::GameKind;
use ratatui::style::Modifier;
use sudoku::generate::{Difficulty, GenerateOptions, Symmetry, generate};

/// The puzzle the screen makes with the test seed (1) for its first game at the default options.
fn first_puzzle() -> ([u8; 81], [u8; 81]) {
    let opts = GenerateOptions {
        difficulty: Difficulty::Medium,
        symmetry: Symmetry::Rotate180,
    };
    let g = generate(&opts, 1, 0).unwrap();
    (g.puzzle, g.solution)
}

/// A fixed puzzle (Project Euler 96's first grid) for the tests that look at particular cells, so that they do
/// not change when the generator does.
const FIXED: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// The fixed puzzle and its solution (by the library's solver).
fn fixed_puzzle() -> ([u8; 81], [u8; 81]) {
    let grid = sudoku::Grid::parse(FIXED).unwrap();
    let solution = grid.solve().unwrap();
    (*grid.digits(), *solution.digits())
}

/// A game of the fixed puzzle, opened from a save file in the default save place (so `s` saves there).
fn fixed() -> Harness {
    let (cfg, dir) = config();
    let (givens, solution) = fixed_puzzle();
    let line = |g: &[u8; 81]| -> String {
        g.iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect()
    };
    let save = serde_json::json!({
        "format": "boardlab-save",
        "version": 1,
        "game": "sudoku",
        "state": {
            "setup": {"mode": "graded", "difficulty": "medium", "symmetry": "180", "hide": 27, "unique": false,
                      "seed": 1, "index": 1},
            "puzzle": {"givens": line(&givens), "solution": line(&solution), "unique": true,
                       "label": "Project Euler 96, grid 1"},
            "board": {"values": line(&givens), "marks": vec![0; 81]},
            "undo": [], "redo": [], "cursor": 40, "pencil": false, "conflicts": true,
            "mistakes": 0, "hints": 0, "end": null, "elapsed_ms": 0
        }
    });
    let path = cfg.save_path(GameKind::Sudoku);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string(&save).unwrap()).unwrap();
    Harness::with(App::load(cfg, &path).unwrap(), dir)
}

/// The screen position of the digit of cell (row, col), 0-based, on the 80x24 layout.
fn cell_xy(row: u16, col: u16) -> (u16, u16) {
    (3 + col * 5 + col / 3 + 2, 2 + row * 2 + row / 3)
}

/// The digit shown in cell (row, col), or ' '.
fn shown(h: &Harness, row: u16, col: u16) -> String {
    h.buffer()[cell_xy(row, col)].symbol().to_string()
}

/// Type "row column value" entries for every (cell, digit).
fn type_entries(h: &mut Harness, entries: &[(usize, u8)]) {
    h.keys(":");
    for &(cell, d) in entries {
        h.keys(&format!("{} {} {}<Enter>", cell / 9 + 1, cell % 9 + 1, d));
    }
    h.keys("<Esc>");
}

#[test]
fn a_new_game_shows_the_generators_puzzle() {
    let h = Harness::game(GameKind::Sudoku);
    let (givens, _) = first_puzzle();
    for r in 0..9u16 {
        for c in 0..9u16 {
            let g = givens[usize::from(r * 9 + c)];
            let want = if g == 0 {
                " ".to_string()
            } else {
                g.to_string()
            };
            assert_eq!(shown(&h, r, c), want, "r{}c{}", r + 1, c + 1);
        }
    }
    let empty = givens.iter().filter(|&&d| d == 0).count();
    assert!(h.shows(&format!("Cells left {empty}")));
    assert!(h.shows("A new medium puzzle."));
    assert!(h.shows(" Sudoku · medium · 180 symmetry"));
}

#[test]
fn the_sudoku_screen() {
    let h = fixed();
    insta::assert_snapshot!(h.screen());
    assert!(h.shows("Cells left 49"));
    assert!(h.shows("Resumed <TMP>/saves/sudoku.json"));
}

#[test]
fn the_title_screen_starts_a_game_with_its_options() {
    let mut h = Harness::title();
    h.select("Difficulty");
    h.keys("<Right><Right>");
    assert!(h.shows("▶ Difficulty    ◀ expert ▶"), "{}", h.screen());
    h.keys("<Down><Left><Enter>");
    assert!(
        h.shows(" Sudoku · expert · none symmetry"),
        "{}",
        h.screen()
    );
    assert!(h.shows("expert · SE "));
}

#[test]
fn digits_conflicts_and_mistakes() {
    let mut h = fixed();
    let (_, solution) = fixed_puzzle();
    // The cursor starts on r5c5; r5c1 holds the clue 7.
    h.keys("7");
    assert!(
        h.shows("7 in r5c5 clashes with the 7 in r5c1 (row 5)"),
        "{}",
        h.screen()
    );
    assert!(h.shows("Mistakes   1"));
    assert!(h.shows("Cells left 48"));
    let (x, y) = cell_xy(4, 4);
    assert!(
        h.buffer()[(x, y)].modifier.contains(Modifier::UNDERLINED),
        "conflict shown"
    );
    assert!(
        h.buffer()[cell_xy(4, 0)]
            .modifier
            .contains(Modifier::UNDERLINED)
    );
    insta::assert_snapshot!(h.screen());
    h.keys("c");
    assert!(h.shows("Conflicts  not shown"));
    assert!(
        !h.buffer()[(x, y)].modifier.contains(Modifier::UNDERLINED),
        "conflicts hidden"
    );
    h.keys("c");
    assert!(h.buffer()[(x, y)].modifier.contains(Modifier::UNDERLINED));
    // Replace it with the right digit: no new mistake, the conflict is gone.
    let right = solution[40];
    h.keys(&right.to_string());
    assert!(h.shows(&format!("{right} in r5c5")));
    assert!(h.shows("Mistakes   1"));
    assert!(!h.buffer()[(x, y)].modifier.contains(Modifier::UNDERLINED));
    // Erase, and a clue cannot be changed.
    h.keys("0");
    assert!(h.shows("r5c5 erased"));
    assert_eq!(shown(&h, 4, 4), " ");
    h.keys("<Left><Left><Left><Left>");
    assert!(h.shows("r5c1       clue 7"));
    h.keys("5");
    assert!(h.shows("r5c1 is a clue; it cannot be changed"));
    assert_eq!(shown(&h, 4, 0), "7");
}

#[test]
fn typed_row_column_value_entries_are_validated() {
    let mut h = fixed();
    let (givens, solution) = fixed_puzzle();
    h.keys(":");
    insta::assert_snapshot!("prompt_open", h.screen());
    h.keys("3 5<Enter>");
    assert!(
        h.shows("\"3 5\" has 2 digits; type three"),
        "{}",
        h.screen()
    );
    h.keys("0 5 7<Enter>");
    assert!(h.shows("rows are numbered 1 to 9"));
    h.keys("hello<Enter>");
    assert!(h.shows("is not \"row column value\""));
    h.keys("1 3 9<Enter>");
    assert!(
        h.shows("r1c3 is a clue; it cannot be changed"),
        "{}",
        h.screen()
    );
    assert_eq!(givens[2], 3);
    // A right entry; the prompt stays open for the next one, as on the ZX-81.
    let cell = (0..81).find(|&c| givens[c] == 0).unwrap();
    let entry = format!("{} {} {}", cell / 9 + 1, cell % 9 + 1, solution[cell]);
    h.keys(&format!("{entry}<Enter>"));
    assert!(h.shows("Row column value:"));
    assert_eq!(
        shown(&h, (cell / 9) as u16, (cell % 9) as u16),
        solution[cell].to_string()
    );
    assert!(h.shows("Mistakes   0"));
    // Keys that mean something outside the prompt are just text inside it.
    h.keys("q?s");
    assert!(!h.app.should_quit());
    assert!(h.shows("Row column value: q?s"));
    h.keys("<Esc>");
    assert!(!h.shows("Row column value:"));
}

#[test]
fn pencil_marks_by_hand_and_automatic() {
    let mut h = fixed();
    h.keys("p");
    assert!(h.shows("Entry      pencil marks"));
    h.keys("137");
    assert!(h.shows("r5c5       marks 1 3 7"));
    h.keys("3");
    assert!(h.shows("r5c5       marks 1 7"));
    h.keys("p<Right>");
    h.keys("a");
    assert!(h.shows("Pencil marks filled in for every empty cell"));
    insta::assert_snapshot!(h.screen());
    // A digit removes itself from the marks of its row, column and box.
    h.keys("<Left>");
    let before = h.screen();
    assert!(before.contains("r5c5       marks"));
    h.keys("u");
    assert!(
        h.shows("r5c5       marks 1 7"),
        "undo restores the hand-made marks"
    );
    h.keys("r");
    assert!(h.shows("Undone") || h.shows("Redone"));
    assert_eq!(
        h.screen(),
        before.replace("Pencil marks filled in for every empty cell", "Redone")
    );
}

#[test]
fn a_hint_is_explained_highlighted_and_applied() {
    let mut h = fixed();
    h.keys("h");
    assert!(h.shows("Hint:"));
    assert!(h.shows("Hints      1"));
    insta::assert_snapshot!(h.screen());
    let hinted: Vec<(u16, u16)> = (0..9)
        .flat_map(|r| (0..9).map(move |c| (r, c)))
        .filter(|&(r, c)| {
            let (x, y) = cell_xy(r, c);
            h.buffer()[(x - 2, y)]
                .modifier
                .contains(Modifier::UNDERLINED)
        })
        .collect();
    assert!(!hinted.is_empty(), "the hint highlights cells");
    let left = h.screen();
    h.keys("h");
    assert_ne!(h.screen(), left, "h again applies the hint");
    assert!(!h.shows("Hint:"));
    assert!(h.shows("Mistakes   0"));
    h.keys("u");
    assert!(h.shows("Undone"));
}

#[test]
fn a_wrong_entry_is_the_first_hint_and_check_marks_it() {
    let mut h = fixed();
    let (givens, solution) = fixed_puzzle();
    // A digit that clashes with nothing but is not the solution's.
    let (cell, d) = (0..81)
        .filter(|&c| givens[c] == 0)
        .find_map(|c| {
            (1..=9u8)
                .find(|&d| {
                    d != solution[c]
                        && (0..81).all(|o| {
                            givens[o] != d
                                || !(o / 9 == c / 9
                                    || o % 9 == c % 9
                                    || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3))
                        })
                })
                .map(|d| (c, d))
        })
        .unwrap();
    type_entries(&mut h, &[(cell, d)]);
    // Typing it gives nothing away: it counts as a mistake only when a check finds it.
    assert!(h.shows("Mistakes   0"), "{cell} {d}\n{}", h.screen());
    h.keys("k");
    assert!(
        h.shows("Check: 1 entry wrong (marked); 48 cells left"),
        "{}",
        h.screen()
    );
    assert!(h.shows("Mistakes   1"), "{}", h.screen());
    let (x, y) = cell_xy((cell / 9) as u16, (cell % 9) as u16);
    assert!(h.buffer()[(x, y)].modifier.contains(Modifier::UNDERLINED));
    h.keys("h");
    assert!(
        h.shows(&format!(
            "Hint: The {d} in r{}c{} is",
            cell / 9 + 1,
            cell % 9 + 1
        )),
        "{}",
        h.screen()
    );
}

#[test]
fn a_win() {
    let mut h = fixed();
    let (givens, solution) = fixed_puzzle();
    h.advance(125);
    let entries: Vec<(usize, u8)> = (0..81)
        .filter(|&c| givens[c] == 0)
        .map(|c| (c, solution[c]))
        .collect();
    let (last, rest) = entries.split_last().unwrap();
    type_entries(&mut h, rest);
    h.keys("k");
    assert!(
        h.shows("Everything so far is right; 1 cell to go"),
        "{}",
        h.screen()
    );
    // The last entry ends the game and closes the prompt.
    h.keys(&format!(
        ":{} {} {}<Enter>",
        last.0 / 9 + 1,
        last.0 % 9 + 1,
        last.1
    ));
    assert!(!h.shows("Row column value:"));
    assert!(h.shows("Cells left 0"));
    assert!(h.shows("State      solved!"), "{}", h.screen());
    assert!(h.shows("Solved in 2:05 with 0 mistakes and 0 hints!"));
    insta::assert_snapshot!(h.screen());
    // The clock stops; digits no longer change anything.
    h.advance(60);
    assert!(h.shows("Time       2:05"));
    h.keys("5u");
    assert!(h.shows("The puzzle is solved. n: new game"));
    h.keys("n");
    assert!(h.shows("Cells left"));
    assert!(!h.shows("solved!"));
}

#[test]
fn show_the_solution() {
    let mut h = fixed();
    let (_, solution) = fixed_puzzle();
    h.keys("v");
    assert!(h.shows("Show the solution and end this game? y/n"));
    h.keys("n");
    assert!(h.shows("Carry on"));
    assert!(h.shows("Cells left 49"));
    h.keys("vy");
    assert!(h.shows("solution shown"));
    assert!(h.shows("Cells left 0"));
    for r in 0..9u16 {
        for c in 0..9u16 {
            assert_eq!(
                shown(&h, r, c),
                solution[usize::from(r * 9 + c)].to_string()
            );
        }
    }
    insta::assert_snapshot!(h.screen());
}

#[test]
fn the_timer_runs_and_stops_while_the_help_is_open() {
    let mut h = fixed();
    h.advance(65);
    assert!(h.shows("Time       1:05"));
    h.keys("?");
    assert!(h.shows("Sudoku: the rules"));
    h.advance(100);
    h.keys("<Esc>");
    assert!(h.shows("Time       1:05"), "{}", h.screen());
    h.advance(5);
    assert!(h.shows("Time       1:10"));
}

#[test]
fn undo_and_redo_walk_through_entries() {
    let mut h = fixed();
    h.keys("u");
    assert!(h.shows("Nothing to undo"));
    h.keys("2<Right>3<Right>");
    assert!(h.shows("Cells left 47"));
    h.keys("u");
    assert!(h.shows("Cells left 48"));
    assert_eq!(shown(&h, 4, 5), " ");
    assert_eq!(shown(&h, 4, 4), "2");
    h.keys("u");
    assert!(h.shows("Cells left 49"));
    h.keys("rr");
    assert!(h.shows("Cells left 47"));
    assert_eq!(shown(&h, 4, 5), "3");
    h.keys("r");
    assert!(h.shows("Nothing to redo"));
    // A new entry after an undo drops the redo stack.
    h.keys("u<Left>4r");
    assert!(h.shows("Nothing to redo"));
    assert_eq!(shown(&h, 4, 5), "4");
}

#[test]
fn save_and_load() {
    let mut h = fixed();
    h.advance(42);
    h.keys("7<Right>p12<Left>");
    h.keys("s");
    let path = h.save_dir().join("sudoku.json");
    assert!(
        h.shows("Saved to <TMP>/saves/sudoku.json"),
        "{}",
        h.screen()
    );
    let saved_screen = h.screen();
    let text = std::fs::read_to_string(&path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["format"], "boardlab-save");
    assert_eq!(json["version"], play::save::VERSION);
    assert_eq!(json["game"], "sudoku");
    assert_eq!(json["state"]["elapsed_ms"], 42_000);
    // Leaving after a save does not ask; the title screen offers the save.
    h.keys("q");
    assert!(h.shows("Resume saved Sudoku"), "{}", h.screen());
    h.select("Resume saved Sudoku");
    h.keys("<Enter>");
    assert!(h.shows("Resumed <TMP>/saves/sudoku.json"), "{}", h.screen());
    assert!(h.shows("Time       0:42"));
    let strip = |s: &str| s.lines().skip(1).take(22).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&h.screen()), strip(&saved_screen));
    // The undo history came back too.
    h.keys("<Right>");
    assert!(h.shows("r5c6       marks 1 2"));
    h.keys("uu");
    assert!(h.shows("r5c6       empty"));
    assert_eq!(shown(&h, 4, 4), "7");
    h.keys("u");
    assert_eq!(shown(&h, 4, 4), " ");
    insta::assert_snapshot!(h.screen());

    // The same file through --load.
    let (cfg, _dir) = config();
    let app = App::load(cfg, &path).unwrap();
    assert_eq!(app.game().unwrap().game(), GameKind::Sudoku);
}

#[test]
fn a_damaged_sudoku_save_is_refused() {
    let mut h = fixed();
    h.keys("s");
    let path = h.save_dir().join("sudoku.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&good).unwrap();
    let (cfg, _dir) = config();
    let try_with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut j = json.clone();
        edit(&mut j);
        std::fs::write(&path, serde_json::to_string(&j).unwrap()).unwrap();
        App::load(cfg.clone(), &path)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let e = try_with(&|j| j["state"]["board"]["values"] = "1".repeat(81).into());
    assert!(
        e.contains("the saved Sudoku game is damaged: the grid: the clue in r1c3 was changed"),
        "{e}"
    );
    let e = try_with(&|j| j["state"]["puzzle"]["givens"] = "12".into());
    assert!(e.contains("a grid has 81 cells, this one 2"), "{e}");
    let e = try_with(&|j| j["state"]["cursor"] = 99.into());
    assert!(e.contains("the cursor is at cell 99"), "{e}");
    let e = try_with(&|j| {
        j["state"].as_object_mut().unwrap().remove("mistakes");
    });
    assert!(e.contains("the field \"mistakes\" is missing"), "{e}");
    let e = try_with(&|j| j["state"]["setup"]["difficulty"] = "impossible".into());
    assert!(e.contains("unknown value `impossible`"), "{e}");
    let e = try_with(&|j| {
        let mut s: Vec<u8> = j["state"]["puzzle"]["solution"]
            .as_str()
            .unwrap()
            .bytes()
            .collect();
        s.swap(0, 1);
        j["state"]["puzzle"]["solution"] = String::from_utf8(s).unwrap().into();
    });
    assert!(e.contains("damaged: the"), "{e}");
}

#[test]
fn a_large_terminal_shows_pencil_marks_in_blocks() {
    let mut h = fixed();
    h.resize(100, 34);
    h.keys("a");
    insta::assert_snapshot!(h.screen());
    // Cells are 7x3; r5c5's marks (the digits its row, column and box allow, by the library) sit in a 3x3
    // block: 1 2 3 / 4 5 6 / 7 8 9.
    let screen = h.screen();
    assert!(screen.contains("┌───1──────2──────3───┬"), "{screen}");
    let (givens, _) = fixed_puzzle();
    let cands = sudoku::logic::Candidates::from_values(&givens)
        .unwrap()
        .candidates(40);
    let digits: Vec<String> = (1..=9u8)
        .filter(|d| cands & (1 << (d - 1)) != 0)
        .map(|d| d.to_string())
        .collect();
    assert!(
        h.shows(&format!("r5c5       marks {}", digits.join(" "))),
        "{screen}"
    );
    let lines: Vec<&str> = screen.lines().collect();
    let cell = |dy: usize| -> String { lines[15 + dy].chars().skip(32).take(7).collect() };
    let want = |row: u8| -> String {
        let mut s = String::from(" ");
        for j in 0..3u8 {
            let d = row * 3 + j + 1;
            s.push(if cands & (1 << (d - 1)) != 0 {
                char::from(b'0' + d)
            } else {
                ' '
            });
            s.push(' ');
        }
        s
    };
    assert_eq!([cell(0), cell(1), cell(2)], [want(0), want(1), want(2)]);
}

#[test]
fn classic_puzzles_accept_any_solution() {
    use sudoku::Grid;
    use sudoku::classic::{ClassicOptions, classic};
    use sudoku::rng::Rng;
    let mut h = Harness::title();
    h.select("Puzzles");
    h.keys("<Right>");
    h.select("Hidden cells");
    h.keys("<Right><Right><Right>");
    assert!(h.shows("▶ Hidden cells  ◀ 54 ▶"), "{}", h.screen());
    h.keys("<Enter>");
    assert!(h.shows(" Sudoku · classic · 54 hidden"), "{}", h.screen());
    assert!(h.shows("Cells left 54"));
    // The same puzzle from the library (seed 1, first puzzle), and a solution other than the grid it came from.
    let c = classic(
        &ClassicOptions {
            hide: 54,
            unique: false,
        },
        &mut Rng::for_item(1, 0),
    )
    .unwrap();
    assert!(
        h.shows(" Sudoku · classic · 54 hidden · several solutions"),
        "{}",
        h.screen()
    );
    assert!(h.shows("classic · 27 clues"));
    let other = (0..81)
        .filter(|&i| c.puzzle[i] == 0)
        .find_map(|i| {
            (1..=9u8).filter(|&d| d != c.solution[i]).find_map(|d| {
                let mut p = c.puzzle;
                p[i] = d;
                Grid::from_digits(p).ok().and_then(|g| g.first_solution())
            })
        })
        .expect("54 hidden cells leave more than one solution");
    let other = *other.digits();
    assert_ne!(other, c.solution);
    let entries: Vec<(usize, u8)> = (0..81)
        .filter(|&i| c.puzzle[i] == 0)
        .map(|i| (i, other[i]))
        .collect();
    let (last, rest) = entries.split_last().unwrap();
    type_entries(&mut h, rest);
    h.keys(&format!(
        ":{} {} {}<Enter>",
        last.0 / 9 + 1,
        last.0 % 9 + 1,
        last.1
    ));
    assert!(h.shows("State      solved!"), "{}", h.screen());
    assert!(
        h.shows("Solved in 0:00 with 0 mistakes and 0 hints!"),
        "{}",
        h.screen()
    );
}

/// Ctrl+C (and q on the "terminal too small" screen) quit at once but keep the game: unsaved moves are saved
/// first, and the player is told where after the terminal is restored.
#[test]
fn quitting_at_once_saves_unsaved_moves_first() {
    for how in ["ctrl-c", "too-small"] {
        let mut h = fixed();
        let path = h.save_dir().join("sudoku.json");
        let before = std::fs::read_to_string(&path).unwrap();
        h.keys("7");
        match how {
            "ctrl-c" => h.keys("<C-c>"),
            _ => {
                h.resize(60, 20);
                h.keys("q");
            }
        }
        assert!(h.app.should_quit(), "{how}");
        let after = std::fs::read_to_string(&path).unwrap();
        assert_ne!(before, after, "{how}: the move was saved");
        let json: serde_json::Value = serde_json::from_str(&after).unwrap();
        let values = json["state"]["board"]["values"]
            .as_str()
            .unwrap_or_default();
        assert_eq!(
            values.chars().nth(40),
            Some('7'),
            "{how}: r5c5 holds the 7 typed"
        );
        let note = h.app.exit_note().unwrap_or_default().to_string();
        assert!(
            note.starts_with("Your game was saved to "),
            "{how}: {note:?}"
        );
    }
    // Nothing unsaved: nothing written, no note.
    let mut h = fixed();
    h.keys("<C-c>");
    assert!(h.app.should_quit());
    assert_eq!(h.app.exit_note(), None);
}

/// At 80x24 a cell is 5 columns wide: its pencil marks are listed four to a row, so its last column stays
/// blank and the marks of two neighbouring cells never run together.
#[test]
fn pencil_marks_of_neighbours_stay_apart_at_80x24() {
    let mut h = fixed();
    // r5c5 and r5c6 are empty in the fixed puzzle; the cursor starts on r5c5.
    h.keys("p12345678<Right>12345679");
    fn text(h: &Harness, row: u16, col: u16, dy: u16) -> String {
        let (x, y) = cell_xy(row, col);
        (x - 2..x + 3)
            .map(|x| h.buffer()[(x, y + dy)].symbol().to_string())
            .collect()
    }
    assert_eq!(text(&h, 4, 4, 0), "1234 ");
    assert_eq!(text(&h, 4, 4, 1), "5678 ");
    assert_eq!(text(&h, 4, 5, 0), "1234 ");
    assert_eq!(text(&h, 4, 5, 1), "5679 ");
    // All nine marks.
    h.keys("8");
    assert_eq!(text(&h, 4, 5, 0), "1234 ");
    assert_eq!(text(&h, 4, 5, 1), "5-9  ");
    // Three marks.
    h.keys("<Left>2468");
    assert_eq!(text(&h, 4, 4, 0), "1357 ");
    assert_eq!(text(&h, 4, 4, 1), "     ");
}

/// A long game in the terminal saves and loads: 10,000 pencil-mark presses, then `s`, give a small compact
/// file (the web page could carry it too) that loads with its undo history.
#[test]
fn ten_thousand_marks_save_and_load() {
    let mut h = fixed();
    h.keys("p");
    let mut keys = String::new();
    for i in 0..10_000 {
        keys.push(char::from(b'1' + (i % 9) as u8));
        if i % 9 == 8 {
            keys.push_str(if i % 2 == 0 { "<Right>" } else { "<Down>" });
        }
    }
    h.keys(&keys);
    h.keys("s");
    assert!(
        h.shows("Saved to <TMP>/saves/sudoku.json"),
        "{}",
        h.screen()
    );
    let path = h.save_dir().join("sudoku.json");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.trim_end().contains('\n'), "written compact");
    assert!(
        text.len() < boardlab::serve::BODY_LIMIT,
        "{} bytes",
        text.len()
    );
    let (cfg, dir) = config();
    let mut back = Harness::with(App::load(cfg, &path).unwrap(), dir);
    let before = back.screen();
    back.keys("u");
    assert!(back.shows("Undone"), "{}", back.screen());
    back.keys("r");
    assert!(back.shows("Redone"), "{}", back.screen());
    let strip = |s: &str| s.lines().skip(1).take(22).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&back.screen()), strip(&before));
}
