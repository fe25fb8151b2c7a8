//! The fast engine against the slow reference: whole small boards, early levels of the big ones, every counter
//! width (so the u64 -> u128 spill is exercised), the portable and the vector kernels, and random layouts.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::enumerate::{self, CounterWidth, Options};
use peg::{Board, Finish, Lattice, Position, Problem, reference};
use proptest::prelude::*;

fn fast(p: &Problem, levels: Option<usize>, width: CounterWidth, portable: bool) -> peg::Count {
    let opts = Options {
        max_levels: levels,
        counter_width: width,
        portable,
        ..Options::default()
    };
    enumerate::count(p, &opts).unwrap()
}

/// The kernels this CPU can run: the portable one, and the AVX-512 one where the CPU has its features (said once
/// on stderr, past the test harness's capture, when it has not; and a failure where .ci/run found the features
/// listed in /proc/cpuinfo, so that a machine with AVX-512 never passes without testing its kernel).
fn kernels() -> Vec<bool> {
    static NOTICE: std::sync::Once = std::sync::Once::new();
    if peg::has_avx512_kernel() {
        return vec![false, true];
    }
    assert!(
        std::env::var_os("BOARDLAB_EXPECT_AVX512").is_none(),
        "BOARDLAB_EXPECT_AVX512 is set (the CPU lists the kernel's features) but the AVX-512 kernel cannot run"
    );
    NOTICE.call_once(|| {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"notice: fast_vs_reference: no AVX-512 on this CPU; only the portable kernel is compared\n",
        );
    });
    vec![true]
}

fn check(p: &Problem, levels: Option<usize>) {
    let slow = reference::count(p, levels).unwrap();
    for width in [CounterWidth::U64, CounterWidth::U16, CounterWidth::U128] {
        for portable in kernels() {
            let got = fast(p, levels, width, portable);
            assert_eq!(
                got,
                slow,
                "{} width {width:?} portable {portable}",
                p.board().name()
            );
        }
    }
}

#[test]
fn triangle_every_start_and_finish() {
    let b = Board::builtin("triangle").unwrap();
    for v in 0..b.holes() {
        let p = Problem::new(b.clone(), b.full().without_peg(v), Finish::Anywhere).unwrap();
        check(&p, None);
        let p = p.with_finish(Finish::Hole(v));
        check(&p, None);
    }
}

/// Every vacancy with every finish hole: the finish side is an enumeration of its own (finish apart from the
/// vacancy, or with fewer symmetries), the start's complement (finish on the vacancy), or impossible by the
/// position class.
#[test]
fn triangle_every_start_with_every_finish() {
    let b = Board::builtin("triangle").unwrap();
    for v in 0..b.holes() {
        for f in 0..b.holes() {
            let p = Problem::new(b.clone(), b.full().without_peg(v), Finish::Hole(f)).unwrap();
            let slow = reference::count(&p, None).unwrap();
            let got = fast(&p, None, CounterWidth::U64, false);
            assert_eq!(got, slow, "vacancy {v} finish {f}");
        }
    }
    // A start with two vacancies and fewer symmetries than the finish.
    let p = Problem::new(
        b.clone(),
        b.full().without_peg(0).without_peg(14),
        Finish::Hole(4),
    )
    .unwrap();
    check(&p, None);
}

#[test]
fn english_early_levels() {
    check(&Problem::standard(Board::english()), Some(9));
    let p = Problem::from_names(Board::english(), &["c1"], Some("f4")).unwrap();
    check(&p, Some(8));
}

#[test]
fn big_boards_early_levels() {
    for name in ["french", "diamond", "wiegleb"] {
        check(&Problem::standard(Board::builtin(name).unwrap()), Some(7));
    }
}

#[test]
fn hexagonal_board_with_twelve_symmetries() {
    let (b, _) = Board::from_layout(
        "  o o o\n o o o o\no o o o o\n o o o o\n  o o o\n",
        Lattice::Triangular,
        "hex19",
    )
    .unwrap();
    assert_eq!(b.symmetries().len(), 12);
    let p = Problem::standard(b);
    check(&p, Some(9));
}

fn layout_strategy() -> impl Strategy<Value = (String, Lattice, u64)> {
    (
        3usize..=6,
        3usize..=6,
        any::<u64>(),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(w, h, holes, pegs, tri)| {
            let mut s = String::new();
            let mut bit = 0;
            for y in 0..h {
                for x in 0..w {
                    let on = holes >> ((y * w + x) % 64) & 1 == 1 || (x + y) % 3 == 0;
                    let c = if on {
                        if pegs >> (bit % 64) & 1 == 1 || bit % 5 == 0 {
                            'o'
                        } else {
                            '.'
                        }
                    } else {
                        ' '
                    };
                    bit += 1;
                    if tri {
                        if x == 0 {
                            s.push_str(&" ".repeat(h - y));
                        }
                        s.push(c);
                        s.push(' ');
                    } else {
                        s.push(c);
                    }
                }
                s.push('\n');
            }
            (
                s,
                if tri {
                    Lattice::Triangular
                } else {
                    Lattice::Square
                },
                pegs,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_layouts_agree((text, lattice, seed) in layout_strategy()) {
        let Ok((board, pegs)) = Board::from_layout(&text, lattice, "random") else { return Ok(()) };
        if pegs.pegs() == 0 || board.holes() > 24 {
            return Ok(());
        }
        let finish = if seed % 3 == 0 { Finish::Anywhere } else { Finish::Hole((seed as usize / 3) % board.holes()) };
        let p = Problem::new(board, pegs, finish).unwrap();
        check(&p, None);
        let _ = Position::EMPTY;
    }
}
