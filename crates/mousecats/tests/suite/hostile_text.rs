//! Text a user (or a fuzzer) may type: multi-byte characters, very long words. None of it may panic, and no
//! error message may quote more than a short excerpt of it.

use mousecats::{Move, Position, Side, Square};

#[test]
fn move_text_with_multibyte_characters_is_an_error_not_a_panic() {
    // Each of these has 4 bytes (or 4 bytes once the dash is dropped) with a character straddling byte 2.
    for text in ["😀", "€1", "1€", "e€1", "€-1", "é1f2", "e1-€", "a€", "ÿÿ"] {
        let e = text.parse::<Move>().expect_err(text).to_string();
        assert!(e.contains("bad move"), "{text}: {e}");
    }
    // Multi-byte text in the other parsers too.
    for text in ["€1", "e€", "😀😀"] {
        assert!(text.parse::<Square>().is_err(), "{text}");
        assert!(text.parse::<Side>().is_err(), "{text}");
        assert!(
            format!("mouse={text} cats=B8,D8,F8,H8")
                .parse::<Position>()
                .is_err()
        );
    }
    assert_eq!(
        "e1-f2".parse::<Move>().expect("a good move"),
        Move::new(Square::E1, "F2".parse().expect("F2"))
    );
}

#[test]
fn errors_quote_only_a_short_excerpt() {
    let long = "x".repeat(100_000);
    let cases = [
        long.parse::<Move>().map(|_| ()).map_err(|e| e.to_string()),
        long.parse::<Position>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
        format!("mouse=E1 cats=B8,D8,F8,H8 turn={long}")
            .parse::<Position>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
        format!("mouse=E1 {long}=1")
            .parse::<Position>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
        format!("mouse={long} cats=B8,D8,F8,H8")
            .parse::<Position>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
        long.parse::<Square>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
        long.parse::<mousecats::Rule>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
    ];
    for c in cases {
        let e = c.expect_err("100,000 x's are not valid");
        assert!(e.len() < 200, "{} bytes: {}", e.len(), &e[..200]);
        assert!(e.contains("100000 characters"), "{e}");
    }
    // A short word is quoted whole.
    let e = "zz".parse::<Square>().expect_err("zz").to_string();
    assert!(e.contains("'zz'"), "{e}");
}
