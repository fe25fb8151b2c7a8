//! Mouse & Cats text: positions (one-line notation and diagrams), moves, squares, sides and rules must never
//! panic; a parsed position prints and reads back to itself; and along any game played from it (moves chosen
//! by the input, each text-parsed), the incrementally updated hash and lock equal a full recompute.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mousecats::{Move, Position, Rule, Side, SizedMove, SizedPosition, Square};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = text.parse::<Move>();
    let _ = text.parse::<Square>();
    let _ = text.parse::<Side>();
    let _ = text.parse::<Rule>();
    for word in text.split_whitespace() {
        let _ = word.parse::<Move>();
    }
    sized(&text, data);
    let Ok(pos) = text.parse::<Position>() else {
        return;
    };
    assert_eq!(pos.to_string().parse::<Position>().ok(), Some(pos), "{pos}");
    assert_eq!(pos.diagram().parse::<Position>().ok(), Some(pos), "{pos}");
    let mut p = pos;
    for (i, &b) in data.iter().enumerate().take(64) {
        assert_eq!(p.zobrist_hash(), p.compute_hash(), "hash after {i} moves from {pos}");
        assert_eq!(p.zobrist_lock(), p.compute_lock(), "lock after {i} moves from {pos}");
        let rule = if b & 0x80 == 0 { Rule::FarRow } else { Rule::Escape };
        let moves = p.legal_moves(rule);
        if moves.is_empty() {
            break;
        }
        let mv = moves.iter().nth(usize::from(b) % moves.len()).copied();
        let Some(mv) = mv else { break };
        // Through the text form, as a player types it.
        let typed: Move = mv.to_string().parse().expect("a printed move reads back");
        assert_eq!(typed, mv);
        let compact: Move = mv.to_compact().parse().expect("a compact move reads back");
        assert_eq!(compact, mv);
        p = p.play(typed, rule).expect("a legal move plays");
    }
});

/// The same on every board size: a position of any size (`size=N …` or a diagram of N rows) reads back, and
/// along a game its incremental hash and lock equal a full recompute.
fn sized(text: &str, data: &[u8]) {
    let _ = text.parse::<SizedMove>();
    let Ok(pos) = text.parse::<SizedPosition>() else {
        return;
    };
    assert_eq!(pos.to_string().parse::<SizedPosition>().ok(), Some(pos), "{pos}");
    assert_eq!(pos.diagram().parse::<SizedPosition>().ok(), Some(pos), "{pos}");
    let mut p = pos;
    for (i, &b) in data.iter().enumerate().take(64) {
        assert_eq!(p.zobrist_hash(), p.compute_hash(), "hash after {i} moves from {pos}");
        assert_eq!(p.zobrist_lock(), p.compute_lock(), "lock after {i} moves from {pos}");
        let rule = match b >> 6 {
            0 | 1 => Rule::FarRow,
            2 => Rule::Escape,
            _ => Rule::Region,
        };
        let moves: Vec<SizedMove> = p.legal_moves(rule).iter().copied().collect();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(b) % moves.len()];
        let typed: SizedMove = mv.to_string().parse().expect("a printed move reads back");
        assert_eq!(typed, mv);
        p = p.play(typed, rule).expect("a legal move plays");
    }
}
