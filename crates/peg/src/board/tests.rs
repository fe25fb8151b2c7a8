use super::error::LayoutError;
use super::layout::{Board, builtin_names, column_letters, parse_column_letters};
use super::symmetry::Lattice;
use crate::position::{Move, Position};

#[test]
fn builtin_boards_have_expected_holes_moves_and_symmetries() {
    let expect = [
        ("english", 33, 76, 8, "d4"),
        ("french", 37, 92, 8, "d4"),
        ("triangle", 15, 36, 6, "1"),
        ("diamond", 41, 100, 8, "e5"),
        ("wiegleb", 45, 108, 8, "e5"),
    ];
    for (name, holes, moves, syms, vac) in expect {
        let b = Board::builtin(name).unwrap();
        assert_eq!(b.holes(), holes, "{name}");
        assert_eq!(b.moves().len(), moves, "{name}");
        assert_eq!(b.symmetries().len(), syms, "{name}");
        assert_eq!(b.hole_name(b.default_vacancy()), vac, "{name}");
    }
}

#[test]
fn symmetries_form_a_group_and_preserve_moves() {
    for name in builtin_names() {
        let b = Board::builtin(name).unwrap();
        let syms = b.symmetries();
        assert!(syms[0].is_identity());
        for s in syms {
            assert!(syms.contains(&s.inverse()));
            for t in syms {
                assert!(syms.contains(&s.compose(t)));
            }
            for m in b.moves() {
                let img = Move::new(
                    s.map_hole(m.from()),
                    s.map_hole(m.over()),
                    s.map_hole(m.to()),
                );
                assert!(b.moves().contains(&img), "{name}");
            }
        }
    }
}

#[test]
fn position_class_is_invariant_and_separates_the_english_finishes() {
    let b = Board::english();
    let mut pos = b.default_start();
    let c = b.position_class(pos);
    // Play the first legal move repeatedly: the class never changes.
    while let Some(&m) = b.legal_moves(pos).first() {
        pos = pos.apply(m);
        assert_eq!(b.position_class(pos), c);
    }
    // From the centre vacancy, one peg can finish only on d4, d1, a4, g4, d7 (the rule of three).
    let ok: Vec<&str> = (0..b.holes())
        .filter(|&h| b.position_class(Position::EMPTY.with_peg(h)) == c)
        .map(|h| b.hole_name(h))
        .collect();
    assert_eq!(ok, ["d1", "a4", "d4", "g4", "d7"]);
}

#[test]
fn hole_names_round_trip() {
    let b = Board::english();
    assert_eq!(b.hole_name(0), "c1");
    assert_eq!(b.parse_hole("D4").unwrap(), b.default_vacancy());
    assert!(b.parse_hole("a1").is_err());
    assert!(b.parse_hole("h4").is_err());
    assert!(b.parse_hole("d0").is_err());
    assert!(b.parse_hole("4d").is_err());
    for h in 0..b.holes() {
        assert_eq!(b.parse_hole(b.hole_name(h)).unwrap(), h);
    }
    let t = Board::builtin("triangle").unwrap();
    assert_eq!(t.parse_hole("15").unwrap(), 14);
    assert!(t.parse_hole("16").is_err());
    assert!(t.parse_hole("0").is_err());
    assert_eq!(column_letters(26), "aa");
    assert_eq!(parse_column_letters("aa"), Some(26));
    for c in 0..100 {
        assert_eq!(parse_column_letters(&column_letters(c)), Some(c));
    }
}

#[test]
fn moves_parse_and_format() {
    let b = Board::english();
    let m = b.parse_move("d2-d4").unwrap();
    assert_eq!(b.hole_name(m.over()), "d3");
    assert_eq!(b.format_move(m), "d2-d4");
    assert!(b.parse_move("d2d4").is_err());
    assert!(b.parse_move("d2-d5").is_err());
    assert!(b.parse_move("d2-z4").is_err());
    let t = Board::builtin("triangle").unwrap();
    let m = t.parse_move("4-1").unwrap();
    assert_eq!(t.hole_name(m.over()), "2");
    let m = t.parse_move("6-1").unwrap();
    assert_eq!(t.hole_name(m.over()), "3");
    let m = t.parse_move("4-6").unwrap();
    assert_eq!(t.hole_name(m.over()), "5");
}

#[test]
fn layout_errors_name_line_and_column() {
    assert_eq!(
        Board::from_layout("", Lattice::Square, "x").unwrap_err(),
        LayoutError::Empty
    );
    assert_eq!(
        Board::from_layout("  \n\n", Lattice::Square, "x").unwrap_err(),
        LayoutError::Empty
    );
    assert_eq!(
        Board::from_layout("_ _\n", Lattice::Square, "x").unwrap_err(),
        LayoutError::NoHoles
    );
    assert_eq!(
        Board::from_layout("ooo\noxo\n", Lattice::Square, "x").unwrap_err(),
        LayoutError::UnknownChar {
            ch: 'x',
            line: 2,
            column: 2
        }
    );
    let big = "oooooooo\n".repeat(8) + "o\n";
    assert_eq!(
        Board::from_layout(&big, Lattice::Square, "x").unwrap_err(),
        LayoutError::TooManyHoles {
            count: 65,
            line: 9,
            column: 1
        }
    );
    assert!(Board::from_layout(&"oooooooo\n".repeat(8), Lattice::Square, "x").is_ok());
    assert_eq!(
        Board::from_layout(" o\noo\n", Lattice::Triangular, "x").unwrap_err(),
        LayoutError::OffLattice { line: 2, column: 2 }
    );
}

#[test]
fn layout_round_trips() {
    for name in builtin_names() {
        let b = Board::builtin(name).unwrap();
        let text = b.layout_string(b.default_start());
        let (b2, pos) = Board::from_layout(&text, b.lattice(), name).unwrap();
        assert_eq!(pos, b.default_start());
        assert_eq!(b2.moves(), b.moves());
    }
}

#[test]
fn rectangle_has_four_symmetries_and_no_centre_hole() {
    let (b, _) = Board::from_layout("oooo\noooo\noooo\n", Lattice::Square, "r").unwrap();
    assert_eq!(b.symmetries().len(), 4);
    assert_eq!(b.default_vacancy(), 0);
    let (h, _) = Board::from_layout(
        "  o o\n o o o\no o o o\n o o o\n  o o\n",
        Lattice::Triangular,
        "h",
    )
    .unwrap();
    assert_eq!(h.holes(), 14);
    assert!(h.symmetries().len() >= 4);
    let (hex, _) = Board::from_layout(" o o\no o o\n o o\n", Lattice::Triangular, "hex").unwrap();
    assert_eq!(hex.symmetries().len(), 12);
    assert_eq!(hex.hole_name(hex.default_vacancy()), "4");
}
