//! Peg solitaire layouts and hole names: any text is a board or a clear error (no panic); every hole's printed
//! name reads back to that hole and every printed move to that move; on small boards, the fast enumeration
//! agrees with the plain reference one (every count, with and without a finish hole and a level limit).
#![no_main]

use libfuzzer_sys::fuzz_target;
use peg::enumerate::{self, Options};
use peg::{Board, Finish, Lattice, Problem, reference};

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    let lattice = if control & 1 == 0 {
        Lattice::Square
    } else {
        Lattice::Triangular
    };
    let text = String::from_utf8_lossy(rest);
    // The layout may also be followed by names to look up, after a line holding only "--".
    let (layout, names) = text.split_once("\n--\n").unwrap_or((&text, ""));
    let Ok((board, start)) = Board::from_layout(layout, lattice, "fuzz") else {
        return;
    };
    for name in names.split_whitespace() {
        let _ = board.parse_hole(name);
        let _ = board.parse_move(name);
    }
    for h in 0..board.holes() {
        assert_eq!(board.parse_hole(board.hole_name(h)).ok(), Some(h), "{}", board.hole_name(h));
    }
    for &m in board.moves() {
        assert_eq!(board.parse_move(&board.format_move(m)).ok(), Some(m));
    }
    let _ = board.render(start);
    if board.holes() > 16 {
        return;
    }
    let finish = match control >> 1 & 3 {
        0 => Finish::Anywhere,
        _ => Finish::Hole(usize::from(control >> 3) % board.holes()),
    };
    let max_levels = (control & 0x80 != 0).then_some(usize::from(control >> 3 & 7) + 1);
    let start = if start.pegs() == 0 { board.full() } else { start };
    let Ok(problem) = Problem::new(board, start, finish) else {
        return;
    };
    let slow = reference::count(&problem, max_levels).expect("small boards do not overflow");
    let opts = Options {
        max_levels,
        ..Options::default()
    };
    let fast = enumerate::count(&problem, &opts).expect("small boards fit in memory");
    assert_eq!(fast, slow, "finish {finish:?}, max_levels {max_levels:?}");
});
