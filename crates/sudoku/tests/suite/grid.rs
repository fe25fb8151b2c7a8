//! The grid: formats, round trips, errors with line and column, and the rule checks.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use sudoku::{
    Cell, Grid, GridError, ParseError, ParseErrorKind, PuzzleReader, SolutionError, Unit,
};

const NORVIG_HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const NORVIG_HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

fn err(text: &str) -> ParseError {
    match Grid::parse(text) {
        Ok(g) => panic!("expected an error for {text:?}, got {g:?}"),
        Err(e) => e,
    }
}

#[test]
fn line_format_with_every_blank() {
    let g = Grid::parse(NORVIG_HARD).unwrap();
    assert_eq!(g.filled(), 17);
    assert_eq!(g.to_line(), NORVIG_HARD);
    assert_eq!(g.get(Cell::new(0, 0)), 4);
    assert_eq!(g.get(Cell::new(0, 6)), 8);
    assert_eq!(g.get(Cell::new(0, 1)), 0);
    for blank in ['0', '_', '-', '*'] {
        let text = NORVIG_HARD.replace('.', &blank.to_string());
        assert_eq!(Grid::parse(&text).unwrap(), g, "blank {blank:?}");
    }
    // Mixed blanks, surrounding whitespace, CRLF, a trailing note, comments and blank lines.
    let mixed: String = NORVIG_HARD
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if c == '.' {
                ['.', '0', '_', '-', '*'][i % 5]
            } else {
                c
            }
        })
        .collect();
    let text = format!("# a comment\n\n   {mixed}   ED=9.9/1.2/1.2\r\n# another\n\n");
    assert_eq!(Grid::parse(&text).unwrap(), g);
    // Spaces and bars between the 81 cells of one line.
    let spaced: String = NORVIG_HARD
        .chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let sep = if i % 9 == 8 { " | " } else { " " };
            [c.to_string(), sep.to_string()]
        })
        .collect();
    assert_eq!(Grid::parse(&spaced).unwrap(), g);
    assert_eq!(NORVIG_HARD.parse::<Grid>().unwrap(), g);
}

#[test]
fn block_formats() {
    let g = Grid::parse(NORVIG_HARD).unwrap();
    // Our own block output.
    let block = g.to_block();
    assert_eq!(block.lines().count(), 11);
    assert_eq!(block.lines().next(), Some("4 . . | . . . | 8 . 5"));
    assert_eq!(block.lines().nth(3), Some("------+-------+------"));
    assert_eq!(Grid::parse(&block).unwrap(), g);
    assert_eq!(format!("{g:#}"), block);
    assert_eq!(format!("{g}"), NORVIG_HARD);
    // Bare 9 lines of 9, zeros for blanks.
    let bare: String = NORVIG_HARD
        .replace('.', "0")
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    assert_eq!(Grid::parse(&bare).unwrap(), g);
    // Boxed style with outer borders, blank lines between bands and a comment inside.
    let boxed = "\
+-------+-------+-------+
| 4 . . | . . . | 8 . 5 |
| . 3 . | . . . | . . . |
| . . . | 7 . . | . . . |
+-------+-------+-------+

| . 2 . | . . . | . 6 . |
| . . . | . 8 . | 4 . . |
# halfway
| . . . | . 1 . | . . . |
+=======+=======+=======+
| . . . | 6 . 3 | . 7 . |
| 5 . . | 2 . . | . . . |
| 1 . 4 | . . . | . . . |
+-------+-------+-------+
";
    assert_eq!(Grid::parse(boxed).unwrap(), g);
    // Dashes as blanks inside a block: a row of exactly nine dashes is a row, not a separator.
    let dashed = "\
4--|---|8-5
-3-|---|---
---|7--|---
---+---+---
-2-|---|-6-
---|-8-|4--
---|-1-|---
-----------
---|6-3|-7-
5--|2--|---
1-4|---|---
";
    assert_eq!(Grid::parse(dashed).unwrap(), g);
    let empty_rows = "---------\n".repeat(9);
    assert_eq!(Grid::parse(&empty_rows).unwrap(), Grid::EMPTY);
}

#[test]
fn unknown_character_names_line_and_column() {
    let mut text = NORVIG_HARD.to_string();
    text.replace_range(10..11, "x");
    let e = err(&format!("# header\n{text}\n"));
    assert_eq!((e.line, e.column), (2, 11));
    assert_eq!(e.kind, ParseErrorKind::UnknownCharacter('x'));
    assert!(
        e.to_string()
            .starts_with("line 2, column 11: unknown character 'x'"),
        "{e}"
    );
    // Columns count characters, not bytes.
    let e =
        err("é4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....");
    assert_eq!((e.line, e.column), (1, 1));
    let e = err("4 . . | . . . | 8 . 5\n. 3 . | . é . | . . .\n");
    assert_eq!((e.line, e.column), (2, 11));
    assert_eq!(e.kind, ParseErrorKind::UnknownCharacter('é'));
}

#[test]
fn wrong_length_names_line_and_column() {
    let e = err(&NORVIG_HARD[..80]);
    assert_eq!(e.kind, ParseErrorKind::WrongLength { found: 80 });
    assert_eq!((e.line, e.column), (1, 81));
    let e = err(&format!("{NORVIG_HARD}7"));
    assert_eq!(e.kind, ParseErrorKind::WrongLength { found: 82 });
    assert_eq!((e.line, e.column), (1, 82));
    let e = err("\n\n1234567891");
    assert_eq!(e.kind, ParseErrorKind::WrongLength { found: 10 });
    assert_eq!((e.line, e.column), (3, 10));
    let e = err("12345");
    assert_eq!((e.line, e.column), (1, 6));
    assert_eq!(
        e.to_string(),
        "line 1, column 6: 5 cells on the line; a puzzle line has 81, a row of a 9-line block has 9"
    );
}

#[test]
fn repeated_clues_name_both_cells() {
    // Row: r1c1 and r1c9.
    let mut cells = [b'.'; 81];
    cells[0] = b'7';
    cells[8] = b'7';
    let e = err(std::str::from_utf8(&cells).unwrap());
    assert_eq!((e.line, e.column), (1, 9));
    assert_eq!(
        e.to_string(),
        "line 1, column 9: 7 at r1c9 repeats the 7 at r1c1 in row 1"
    );
    // Column: r2c3 and r8c3.
    let mut cells = [b'.'; 81];
    cells[9 + 2] = b'3';
    cells[63 + 2] = b'3';
    let e = err(std::str::from_utf8(&cells).unwrap());
    let ParseErrorKind::Conflict(c) = e.kind else {
        panic!("{e}")
    };
    assert_eq!(
        (c.first, c.second, c.unit, c.digit),
        (Cell::new(1, 2), Cell::new(7, 2), Unit::Column(2), 3)
    );
    assert_eq!(e.column, 66);
    // Box: r4c4 and r6c6 (box 5), in block format: line and column of the second cell.
    let block = "\
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
------+-------+------
. . . | 9 . . | . . .
. . . | . . . | . . .
. . . | . . 9 | . . .
------+-------+------
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
";
    let e = err(block);
    assert_eq!((e.line, e.column), (7, 13));
    assert_eq!(
        e.to_string(),
        "line 7, column 13: 9 at r6c6 repeats the 9 at r4c4 in box 5"
    );
}

#[test]
fn empty_incomplete_and_extra_input() {
    for text in ["", "\n\n", "# only a comment\n", "------+-------+------\n"] {
        let e = err(text);
        assert_eq!(e.kind, ParseErrorKind::NoPuzzle, "{text:?}");
        assert_eq!(e.column, 1);
    }
    assert!(err("").to_string().contains("no puzzle"));
    let e = err("# c\n4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n");
    assert_eq!(
        e.kind,
        ParseErrorKind::IncompleteBlock {
            rows: 2,
            started: 2
        }
    );
    assert_eq!(e.line, 4);
    let e = err(&format!("{NORVIG_HARD}\n\n{NORVIG_HARD}\n"));
    assert_eq!(e.kind, ParseErrorKind::ExtraPuzzle);
    assert_eq!(e.line, 3);
}

#[test]
fn reader_streams_and_recovers() {
    let text = format!(
        "{NORVIG_HARD}\n\
         4 . . | . . . | 8 . 5\n\
         . 3 . | . x . | . . .\n\
         . . . | 7 . . | . . .\n\
         . 2 . | . . . | . 6 .\n\
         . . . | . 8 . | 4 . .\n\
         . . . | . 1 . | . . .\n\
         . . . | 6 . 3 | . 7 .\n\
         5 . . | 2 . . | . . .\n\
         1 . 4 | . . . | . . .\n\
         {NORVIG_HARD}\n\
         4 . . | . . . | 8 . 5\n\
         . 3 . | . . . | . . .\n\
         {NORVIG_HARD}\n\
         1234\n\
         4 . . | . . . | 8 . 5\n"
    );
    let mut reader = PuzzleReader::new();
    let mut got = Vec::new();
    for line in text.lines() {
        for r in reader.read_line(line) {
            got.push(r.map(|p| p.line).map_err(|e| (e.line, e.column, e.kind)));
        }
    }
    if let Some(e) = reader.finish() {
        got.push(Err((e.line, e.column, e.kind)));
    }
    assert_eq!(
        got,
        vec![
            Ok(1),
            // The bad row is reported once; the rest of its block is skipped.
            Err((3, 11, ParseErrorKind::UnknownCharacter('x'))),
            Ok(11),
            // A one-line puzzle interrupting a block: the block's error, then the puzzle.
            Err((
                14,
                1,
                ParseErrorKind::IncompleteBlock {
                    rows: 2,
                    started: 12
                }
            )),
            Ok(14),
            Err((15, 5, ParseErrorKind::WrongLength { found: 4 })),
            Err((
                17,
                1,
                ParseErrorKind::IncompleteBlock {
                    rows: 1,
                    started: 16
                }
            )),
        ]
    );
    assert_eq!(reader.lines_read(), 16);
}

#[test]
fn cells_units_and_checks() {
    assert_eq!(Cell::new(3, 1).to_string(), "r4c2");
    assert_eq!(Cell::from_index(80).to_string(), "r9c9");
    assert_eq!(Cell::new(4, 7).box_index(), 5);
    assert!(Cell::new(0, 0).sees(Cell::new(2, 2)));
    assert!(!Cell::new(0, 0).sees(Cell::new(3, 3)));
    assert!(!Cell::new(0, 0).sees(Cell::new(0, 0)));
    assert_eq!(Unit::all().count(), 27);
    assert_eq!(Unit::Box(8).to_string(), "box 9");
    for unit in Unit::all() {
        let cells = unit.cells();
        for a in cells {
            for b in cells {
                assert_eq!(a.sees(b), a != b, "{unit}: {a} {b}");
            }
        }
    }
    // Every cell has exactly 20 peers.
    for a in Cell::all() {
        assert_eq!(Cell::all().filter(|&b| a.sees(b)).count(), 20);
    }

    let puzzle = Grid::parse(NORVIG_HARD).unwrap();
    let solution = Grid::parse(NORVIG_HARD_SOLUTION).unwrap();
    assert!(solution.is_solved());
    assert_eq!(solution.check_solution_of(&puzzle), Ok(()));
    assert!(!puzzle.is_solved());
    assert_eq!(
        puzzle.check_solution_of(&puzzle),
        Err(SolutionError::Empty(Cell::new(0, 1)))
    );
    // Swapping two digits everywhere keeps the rules but breaks the clues.
    let swapped: String = NORVIG_HARD_SOLUTION
        .chars()
        .map(|c| match c {
            '4' => '7',
            '7' => '4',
            c => c,
        })
        .collect();
    let swapped = Grid::parse(&swapped).unwrap();
    assert!(swapped.is_solved());
    assert_eq!(
        swapped.check_solution_of(&puzzle),
        Err(SolutionError::ClueChanged {
            cell: Cell::new(0, 0),
            clue: 4,
            found: 7
        })
    );
    // Swapping two cells of a row keeps the clues (if neither is a clue) but breaks the columns.
    let mut broken = solution;
    let (a, b) = (Cell::new(0, 1), Cell::new(0, 2));
    let (va, vb) = (broken.get(a), broken.get(b));
    broken.set(a, vb);
    broken.set(b, va);
    assert!(matches!(
        broken.check_solution_of(&puzzle),
        Err(SolutionError::Conflict(_))
    ));

    let mut digits = *solution.digits();
    digits[5] = 10;
    assert!(matches!(
        Grid::from_digits(digits),
        Err(GridError::BadValue { value: 10, .. })
    ));
    digits[5] = digits[6];
    assert!(matches!(
        Grid::from_digits(digits),
        Err(GridError::Conflict(_))
    ));
    assert!(Grid::from_digits_allow_conflicts(digits).is_ok());
}

/// A grid from a seed: digits placed where they do not repeat, about `fill` percent of the cells.
fn random_grid(seed: u64, fill: u64) -> Grid {
    let mut x = seed;
    let mut next = move || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut g = Grid::EMPTY;
    for cell in Cell::all() {
        if next() % 100 < fill {
            let d = (next() % 9 + 1) as u8;
            g.set(cell, d);
            if g.first_conflict().is_some() {
                g.set(cell, 0);
            }
        }
    }
    g
}

proptest! {
    #[test]
    fn printing_round_trips(seed in any::<u64>(), fill in 0u64..100) {
        let g = random_grid(seed, fill);
        prop_assert_eq!(Grid::parse(&g.to_line()).unwrap(), g);
        prop_assert_eq!(Grid::parse(&g.to_block()).unwrap(), g);
        prop_assert_eq!(g.to_line().parse::<Grid>().unwrap(), g);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[ -~\\n\\r\\t|é]{0,200}") {
        match Grid::parse(&text) {
            Ok(g) => prop_assert!(g.first_conflict().is_none()),
            Err(e) => {
                prop_assert!(e.line >= 1 && e.column >= 1);
                prop_assert!(e.line <= text.lines().count().max(1) + 1);
            }
        }
    }

    #[test]
    fn cell_soup_never_panics(text in "[1-9.|+\\- \\n#]{0,400}") {
        let mut reader = PuzzleReader::new();
        for line in text.lines() {
            for r in reader.read_line(line) {
                if let Err(e) = r {
                    prop_assert!(e.line >= 1 && e.column >= 1);
                }
            }
        }
        let _ = reader.finish();
    }
}
