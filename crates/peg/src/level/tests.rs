use super::keys::{Layout, Mixer, Rec, TableKey};
use super::part::{Frozen, Part};
use super::pool::Pool;
use super::table::Table;
use crate::bytes::read_u64;

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[test]
fn mixer_is_a_bijection() {
    for bits in [1u32, 2, 5, 15, 32, 33, 37, 41, 45, 63, 64] {
        let m = Mixer::new(bits);
        let mask = u64::MAX >> (64 - bits);
        let mut x = 0x1234_5678u64;
        for _ in 0..2000 {
            let v = xorshift(&mut x) & mask;
            let h = m.mix(v);
            assert!(h <= mask);
            assert_eq!(m.unmix(h), v, "bits {bits}");
        }
        if bits <= 15 {
            let mut seen = vec![false; 1 << bits];
            for v in 0..1u64 << bits {
                let h = m.mix(v) as usize;
                assert!(!seen[h]);
                seen[h] = true;
            }
        }
        assert_eq!(m.mix(0), 0);
    }
}

#[test]
fn read_masks_widths() {
    let data = [0xffu8; 24];
    for w in 0..=8u32 {
        let want = if w == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * w)) - 1
        };
        assert_eq!(read_u64(&data, 3, w), want);
    }
}

/// Records into tables (each key form, through merge path `path`, see [`Table::add_recs_by`]), frozen,
/// read back and searched, against a plain map.
fn freeze_round_trip<K: TableKey>(bits: u32, path: u32) {
    let mask = u64::MAX >> (64 - bits);
    let min_pbits = if K::fits(64) {
        0
    } else {
        bits.saturating_sub(31)
    };
    let layout = Layout::for_size(bits, 50_000, 4000, min_pbits);
    assert!(layout.parts() >= 8);
    assert!(K::fits(layout.shift));
    let pool: Pool<K, u64> = Pool::new();
    let mut tables: Vec<Table<K, u64>> = (0..layout.parts())
        .map(|_| Table::new(layout, 1000, &pool))
        .collect();
    let mut want = std::collections::BTreeMap::new();
    let mut x = 99u64;
    let mut recs: Vec<Vec<Rec<K>>> = vec![Vec::new(); layout.parts()];
    let mut srcs: Vec<[u64; 2]> = Vec::new();
    for i in 0..60_000u64 {
        let h = (xorshift(&mut x) % 40_000 + 1) * (mask / 40_001);
        let c = [i, i % 7 + (i << 40)];
        recs[layout.part(h)].push(Rec {
            key: K::store(h, &layout),
            src: srcs.len() as u32,
        });
        srcs.push(c);
        let e = want.entry(h).or_insert((0u64, 0u64));
        e.0 += c[0];
        e.1 += c[1];
    }
    for (t, r) in tables.iter_mut().zip(&recs) {
        t.add_recs_by(path, r, &srcs).unwrap();
    }
    let parts: Vec<Part<u64>> = tables
        .into_iter()
        .enumerate()
        .map(|(q, t)| t.freeze(q, &layout, &pool))
        .collect();
    let level = Frozen { layout, parts };
    let got: Vec<(u64, (u64, u64))> = level.iter().map(|(h, f, n)| (h, (f, n))).collect();
    let want: Vec<(u64, (u64, u64))> = want.into_iter().collect();
    assert_eq!(got, want);
    for &(h, _) in want.iter().step_by(13) {
        assert!(level.contains(h));
        assert_eq!(
            level.contains(h + 1),
            want.binary_search_by_key(&(h + 1), |e| e.0).is_ok()
        );
    }
}

#[test]
fn tables_freeze_sorted_and_levels_read_back() {
    for path in 0..3 {
        for bits in [20u32, 33, 45] {
            freeze_round_trip::<u32>(bits, path);
        }
        for bits in [20u32, 33, 64] {
            freeze_round_trip::<u64>(bits, path);
        }
    }
}

/// Keys crowded around a few home slots, so that most windows are full: each merge path looks on to the
/// windows after a full one (or falls back to the slow path at the end of the arrays), and the frozen
/// table holds the same keys and sums as a plain map.
#[test]
fn crowded_windows_are_searched_on() {
    for path in 0..3 {
        crowded::<u32>(path);
        crowded::<u64>(path);
    }
}

/// One key width and merge path of [`crowded_windows_are_searched_on`].
fn crowded<K: TableKey>(path: u32) {
    // Four partitions of 2^31 keys: the first one is filled.
    let layout = Layout::for_size(33, 0, 4000, 2);
    let pool: Pool<K, u64> = Pool::new();
    let mut tables: Vec<Table<K, u64>> = (0..layout.parts())
        .map(|_| Table::new(layout, 1000, &pool))
        .collect();
    let span = 1u64 << layout.shift;
    let mut want = std::collections::BTreeMap::new();
    let mut recs: Vec<Rec<K>> = Vec::new();
    let mut srcs: Vec<[u64; 2]> = Vec::new();
    let mut x = 5u64;
    // Runs of 200 consecutive keys (each within a few home slots; two of them overlap), one at the very
    // end of the partition, each key several times.
    for i in 0..2400u64 {
        let run = xorshift(&mut x) % 4;
        let start = [span / 7, span / 2, span / 2 + 150, span - 200][run as usize];
        let h = start + xorshift(&mut x) % 200;
        recs.push(Rec {
            key: K::store(h, &layout),
            src: srcs.len() as u32,
        });
        srcs.push([i + 1, 1]);
        let e = want.entry(h).or_insert((0u64, 0u64));
        e.0 += i + 1;
        e.1 += 1;
    }
    tables[0].add_recs_by(path, &recs, &srcs).unwrap();
    let parts = tables
        .into_iter()
        .enumerate()
        .map(|(q, t)| t.freeze(q, &layout, &pool))
        .collect();
    let got: Vec<(u64, (u64, u64))> = Frozen { layout, parts }
        .iter()
        .map(|(h, f, n)| (h, (f, n)))
        .collect();
    let want: Vec<(u64, (u64, u64))> = want.into_iter().collect();
    assert_eq!(
        got,
        want,
        "path {path}, {} bytes a key",
        std::mem::size_of::<K>()
    );
}

/// A key's home slot is the 128-bit product of its fraction and the capacity, and below the capacity for
/// any key, valid or not (the AVX-512 merge reads its window unchecked).
#[test]
fn home_slots_are_below_the_capacity() {
    let mut x = 7u64;
    for shift in [1u32, 9, 20, 25, 31] {
        let lsh = 64 - shift;
        for cap in [16usize, 1000, 24_989, 1 << 20] {
            let mut keys: Vec<u32> = vec![0, 1, u32::MAX, (1u64 << shift) as u32];
            keys.extend((0..200).map(|_| xorshift(&mut x) as u32));
            for k in keys {
                let h = k.home(lsh, cap);
                assert!(h < cap, "key {k}, shift {shift}, cap {cap}: home {h}");
                if k >= 1 && u64::from(k) - 1 < 1u64 << shift {
                    let want = (u128::from(k.frac(lsh)) * cap as u128) >> 64;
                    assert_eq!(h as u128, want);
                }
            }
            for _ in 0..200 {
                let k = xorshift(&mut x);
                assert!(k.home(lsh, cap) < cap);
            }
        }
    }
}

#[test]
fn table_overflow_is_reported() {
    let layout = Layout::for_size(33, 10, 100, 2);
    let mut t: Table<u32, u16> = Table::new(layout, 4, &Pool::new());
    let k = 77u32;
    assert!(t.add(k, [40_000, 1]).is_some());
    assert!(t.add(k, [40_000, 1]).is_none());
}
