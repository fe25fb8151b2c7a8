use super::layer::{Layer, Ranks, prefix_table};
use super::paths::{Indexed, Split, sum_chunk};
use crate::board::Board;
use crate::position::Position;

/// Split counters add with carries into their high halves, sum parts, and refuse to pass 2^64 without
/// high halves or 2^128 with them.
#[test]
fn split_counters_add_past_64_bits() {
    let big = u128::from(u64::MAX) - 5;
    let mut a = Split::default();
    a.reset(3, true);
    for _ in 0..1000 {
        a.add(1, 0, big, 7).unwrap();
        a.add(1, 1, 3, 7).unwrap();
    }
    a.add(2, 0, 1 << 100, 7).unwrap();
    assert_eq!(a.get(1), [1000 * big, 3000]);
    assert_eq!(a.get(2), [1 << 100, 0]);
    assert!(a.add(2, 0, u128::MAX, 7).is_err());
    let mut n = Split::default();
    n.reset(3, false);
    n.add(0, 0, big, 7).unwrap();
    assert_eq!(n.get(0), [big, 0]);
    assert!(n.add(0, 0, 10, 7).is_err(), "past 2^64 without high halves");
    assert!(n.add(1, 1, 1 << 64, 7).is_err());
    let s = Split::from(vec![[1, 2], [u128::from(u64::MAX) + 1, 4], [5, 6]]);
    assert_eq!((s.get(1), s.hi.len()), ([1 << 64, 4], 3));
    // Summing: `lo`/`hi` of a wide split plus another part.
    let (mut lo, mut hi) = (s.lo.clone(), s.hi.clone());
    let r = sum_chunk(0, &mut lo, Some(&mut hi), std::slice::from_ref(&s), 7).unwrap();
    let want = [[2u128, 4], [2 << 64, 8], [10, 12]];
    for (j, w) in want.iter().enumerate() {
        assert_eq!(u128::from(hi[j][0]) << 64 | u128::from(lo[j][0]), w[0]);
        assert_eq!(u128::from(hi[j][1]) << 64 | u128::from(lo[j][1]), w[1]);
    }
    assert_eq!(r, (2 << 64, 12 + (2 << 64), 24));
    let mut lo = vec![[u64::MAX, 0]];
    assert!(sum_chunk(0, &mut lo, None, &[Split::from(vec![[1, 0]])], 7).is_err());
}

/// A level's index gives each position of the level its place, and every other rank `none`.
#[test]
fn indexed_finds_the_positions_of_its_level() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let len = 50_000u64;
    let mut ranks: Vec<u32> = (0..3_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % len) as u32
        })
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    let mut ix = Indexed { blocks: Vec::new() };
    for round in 0..2 {
        // The second round checks that `clear` left the blocks clear.
        let level: Vec<u32> = ranks
            .iter()
            .copied()
            .skip(round)
            .step_by(round + 1)
            .collect();
        ix.fill(level.iter().copied(), len);
        for r in 0..len as u32 {
            let want = level.binary_search(&r).ok().unwrap_or(usize::MAX);
            assert_eq!(ix.index_or(r, usize::MAX), want, "{r}");
        }
        ix.clear(level.iter().copied());
    }
}

/// Every position of a layer, by brute force, in increasing order.
fn layer_positions(board: &Board, pegs: u32, state: u8) -> Vec<u64> {
    let n = board.holes() as u32;
    (0u64..1 << n)
        .filter(|&x| {
            x.count_ones() == pegs && board.position_class(Position::from_bits(x)) == state
        })
        .collect()
}

#[test]
fn ranks_number_a_layer_in_order_and_back() {
    for name in ["triangle", "english"] {
        let b = Board::builtin(name).unwrap();
        let r = Ranks::new(&b);
        let n = b.holes() as u32;
        // Small boards: every layer; the English board: a few layers of few pegs (2^33 positions in all).
        let pegs: Vec<u32> = if n <= 16 {
            (0..=n).collect()
        } else {
            vec![1, 2, 3, n - 2, n - 1]
        };
        for &p in &pegs {
            for state in 0..16u8 {
                let want: Vec<u64> = if n <= 16 || p <= 3 {
                    layer_positions_small(&b, p, state)
                } else {
                    // The complements of the layer of n - p pegs, class of the full board XOR state.
                    let c = b.position_class(b.full()) ^ state;
                    let mut v: Vec<u64> = layer_positions_small(&b, n - p, c)
                        .iter()
                        .map(|&x| b.full().bits() ^ x)
                        .collect();
                    v.sort_unstable();
                    v
                };
                let cum = prefix_table(&r, p, state).unwrap();
                let layer = Layer {
                    r: &r,
                    pegs: p,
                    state,
                    cum: &cum,
                };
                assert_eq!(
                    layer.len(),
                    want.len() as u64,
                    "{name} {p} pegs class {state}"
                );
                assert_eq!(r.layer_len(p, state), want.len() as u64);
                let ranks: Vec<u32> = want.iter().map(|&x| layer.rank(x)).collect();
                assert!(ranks.iter().enumerate().all(|(i, &x)| x as usize == i));
                let back: Vec<u64> = layer.keys(&ranks).collect();
                assert_eq!(back, want);
            }
        }
    }
}

/// The positions of a layer with few pegs (or of a small board), by brute force over subsets of holes.
fn layer_positions_small(board: &Board, pegs: u32, state: u8) -> Vec<u64> {
    let n = board.holes() as u32;
    if n <= 16 {
        return layer_positions(board, pegs, state);
    }
    let mut out = Vec::new();
    let mut pick = |x: u64| {
        if board.position_class(Position::from_bits(x)) == state {
            out.push(x);
        }
    };
    match pegs {
        0 => pick(0),
        1 => (0..n).for_each(|a| pick(1 << a)),
        2 => (0..n).for_each(|a| (0..a).for_each(|b| pick(1 << a | 1 << b))),
        3 => (0..n)
            .for_each(|a| (0..a).for_each(|b| (0..b).for_each(|c| pick(1 << a | 1 << b | 1 << c)))),
        _ => unreachable!("only layers of at most three pegs"),
    }
    out.sort_unstable();
    out
}
