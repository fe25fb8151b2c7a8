use super::*;
use crate::board::Board;
use crate::position::Position;

#[test]
fn portable_images_match_symmetry_apply() {
    for name in crate::board::builtin_names() {
        let b = Board::builtin(name).unwrap();
        let k = Kernel::new(&b, b.symmetries());
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pos = Position::from_bits(x & b.full().bits());
            let imgs = k.images_portable(pos.bits(), 0);
            for (lane, g) in b.symmetries().iter().enumerate() {
                assert_eq!(imgs[lane], g.apply(pos).bits());
            }
            assert_eq!(k.normalize(pos.bits()).0, b.normalize(pos).bits());
        }
    }
}

#[test]
fn class_sizes_sum_counts_the_distinct_images() {
    for name in crate::board::builtin_names() {
        let b = Board::builtin(name).unwrap();
        let k = Kernel::new(&b, b.symmetries());
        let keys = samples(&b);
        let want: u64 = keys
            .iter()
            .map(|&x| distinct_images(&b, x).len() as u64)
            .sum();
        assert_eq!(k.class_sizes_sum(&keys), want, "{name}");
        let one_by_one: u64 = keys.iter().map(|&x| k.class_size(x)).sum();
        assert_eq!(one_by_one, want, "{name}");
    }
}

/// The distinct images of `x` under the board's symmetries, applied one by one, in increasing order.
fn distinct_images(b: &Board, x: u64) -> Vec<u64> {
    let mut imgs: Vec<u64> = b
        .symmetries()
        .iter()
        .map(|g| g.apply(Position::from_bits(x)).bits())
        .collect();
    imgs.sort_unstable();
    imgs.dedup();
    imgs
}

/// The smallest and largest images and the class size, from every kernel this CPU has, are those of the
/// images found by applying the symmetries one by one.
#[test]
fn summaries_match_the_images() {
    for name in crate::board::builtin_names() {
        let b = Board::builtin(name).unwrap();
        let k = Kernel::new(&b, b.symmetries());
        for x in samples(&b) {
            let imgs = distinct_images(&b, x);
            let (lo, hi, size) = (imgs[0], imgs[imgs.len() - 1], imgs.len() as u64);
            assert_eq!(k.normalize(x), (lo, size), "{name} {x:#x}");
            assert_eq!(k.max_image(x), hi, "{name} {x:#x}");
            assert_eq!(k.max_image_and_size(x), (hi, size), "{name} {x:#x}");
            #[cfg(target_arch = "x86_64")]
            {
                if k.avx2_ok() {
                    let fixed = b.symmetries().len() as u64 / size;
                    // SAFETY: the CPU has the features (checked by `avx2_ok`).
                    let (l, h, f) = unsafe { avx2::summary(&k, x) };
                    assert_eq!((l, h, u64::from(f)), (lo, hi, fixed), "{name} {x:#x}");
                }
                if has_avx512() {
                    // SAFETY: the CPU has the features (checked by `has_avx512`).
                    assert_eq!(unsafe { avx512::max_image(&k, x) }, hi, "{name} {x:#x}");
                }
            }
        }
    }
}

/// The forward and backward kernels of every built-in board that the AVX2 walks use, with the board's
/// name; `None` (and a notice naming `test`) on a CPU without AVX2.
#[cfg(target_arch = "x86_64")]
fn avx2_kernels(test: &str) -> Option<Vec<(&'static str, Board, Kernel)>> {
    if !has_avx2() {
        eprintln!("no AVX2 on this CPU: {test} skipped");
        return None;
    }
    let mut out = Vec::new();
    for name in crate::board::builtin_names() {
        let b = Board::builtin(name).unwrap();
        for k in both_ways(&b) {
            if k.avx2_ok() && k.dgroups <= 2 {
                out.push((name, b.clone(), k));
            }
        }
    }
    Some(out)
}

#[cfg(target_arch = "x86_64")]
#[test]
fn packed_move_ids_are_the_move_ids() {
    let Some(kernels) = avx2_kernels("packed_move_ids_are_the_move_ids") else {
        return;
    };
    let mut checked = 0;
    for (name, b, k) in kernels {
        for key in samples(&b) {
            let mut legal = [0u64; 8];
            let mut want = [0u8; 256];
            let mut have = [0u8; 256 + 8];
            // SAFETY: the CPU has the features (`avx2_kernels` checked).
            let (nw, nh) = unsafe {
                avx2::images_legal(&k, key, &mut legal);
                (
                    avx2::move_ids(&k, &legal, &mut want),
                    avx2::move_ids_packed(&k, &legal, &mut have),
                )
            };
            assert_eq!(have[..nh], want[..nw], "{name} {key:#x}");
            checked += nw;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// The moves listed in direction order give the same successors as the moves listed by index.
#[cfg(target_arch = "x86_64")]
#[test]
fn direction_order_gives_the_same_successors() {
    let Some(kernels) = avx2_kernels("direction_order_gives_the_same_successors") else {
        return;
    };
    let mut checked = 0;
    for (name, b, k) in kernels {
        assert_eq!(k.dir_images.len(), k.move_images.len(), "{name}");
        for key in samples(&b) {
            let mut legal = [0u64; 8];
            let mut ids = [0u8; 256];
            let mut dir_ids = [0u8; 256 + 8];
            let (mut want, mut have) = ([0u64; 256 + 4], [0u64; 256 + 4]);
            // SAFETY: the CPU has the features (`avx2_kernels` checked).
            let (nw, nh) = unsafe {
                let im = avx2::images_legal(&k, key, &mut legal);
                let nw = avx2::move_ids(&k, &legal, &mut ids);
                avx2::successors(&k, &im, &ids, nw, &mut want);
                let nh = avx2::move_ids_dir(&k, &legal, &mut dir_ids);
                avx2::successors_in(&k, &k.dir_images, &im, &dir_ids, nh, &mut have);
                (nw, nh)
            };
            assert_eq!(nh, nw, "{name} {key:#x}");
            let (mut w, mut h) = (want[..nw].to_vec(), have[..nh].to_vec());
            w.sort_unstable();
            h.sort_unstable();
            assert_eq!(h, w, "{name} {key:#x}");
            // Each direction's moves in increasing order of their `from` hole.
            let mut at = 0;
            for (d, dir) in k.dirs.iter().enumerate() {
                for x in (0..64).filter(|&x| legal[d] >> x & 1 == 1) {
                    let i = k.dir_base[d] as usize
                        + (dir.valid & ((1u64 << x) - 1)).count_ones() as usize;
                    assert_eq!(usize::from(dir_ids[at]), i, "{name} {key:#x}");
                    assert_eq!(
                        k.dir_images[i * k.rows],
                        k.move_images[dir.ids[x] as usize * k.rows],
                        "{name}"
                    );
                    at += 1;
                }
            }
            checked += nw;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn prune_masks_keep_the_moves_prune_moves_keeps() {
    let Some(kernels) = avx2_kernels("prune_masks_keep_the_moves_prune_moves_keeps") else {
        return;
    };
    let mut x = 0x0123_4567_89ab_cdefu64;
    let (mut kept, mut dropped) = (0, 0);
    for (name, b, mut k) in kernels {
        let weights = random_weights(&mut x, b.holes());
        let more: Vec<(Vec<i64>, i64)> = (0..MAX_TESTS - 1)
            .map(|i| (random_weights(&mut x, b.holes()), i as i64 * 3 - 6))
            .collect();
        for limit in [-20, 0, 5, 12] {
            // One test, then as many as a `Prune` holds: a move is kept when it passes all.
            let tests = if limit == 5 {
                std::iter::once((weights.clone(), limit))
                    .chain(more.clone())
                    .collect()
            } else {
                vec![(weights.clone(), limit)]
            };
            k.set_prune(&b, &tests);
            for key in samples(&b) {
                let mut legal = [0u64; 8];
                let mut want = [0u8; 256];
                let mut have = [0u8; 256];
                // SAFETY: the CPU has the features (`avx2_kernels` checked).
                let (nw, nh, masked) = unsafe {
                    avx2::images_legal(&k, key, &mut legal);
                    let all = avx2::move_ids(&k, &legal, &mut want);
                    let nw = k.prune_moves(key, &mut want, all);
                    dropped += all - nw;
                    let masked = k.prune_legal(key, &mut legal);
                    (nw, avx2::move_ids(&k, &legal, &mut have), masked)
                };
                assert!(masked, "{name}");
                assert_eq!(have[..nh], want[..nw], "{name} {key:#x} {limit}");
                kept += nw;
            }
        }
    }
    // The limits chosen keep some moves and drop others.
    assert!(kept > 1000 && dropped > 1000, "{kept} {dropped}");
}

/// The AVX-512 successor list of the dense walks (moves in direction order, or by index and then tested)
/// gives the successors the portable kernel gives, with no pagoda test, with one or three applied as
/// masks, and with one whose weights are too far apart for masks.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx512_kept_successors_match_portable() {
    use std::arch::x86_64::_mm512_set1_epi64;
    if !has_avx512() {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"notice: avx512_kept_successors_match_portable: this CPU lacks the AVX-512 features of the \
              kernel; skipped\n",
        );
        assert!(std::env::var_os("BOARDLAB_EXPECT_AVX512").is_none());
        return;
    }
    let mut x = 0x0123_4567_89ab_cdefu64;
    let (mut checked, mut dropped, mut unmasked) = (0, 0, 0);
    for name in crate::board::builtin_names() {
        let b = Board::builtin(name).unwrap();
        for k0 in both_ways(&b) {
            if k0.dirs.len() > 8 || !k0.byte_moves() {
                continue;
            }
            let weights = random_weights(&mut x, b.holes());
            let wide: Vec<i64> = weights.iter().map(|w| w * 20).collect();
            let mut kernels = vec![k0.clone()];
            for limit in [-20, 0, 5, 12] {
                let mut k = k0.clone();
                k.set_prune(&b, &[(weights.clone(), limit)]);
                kernels.push(k);
                // Three tests at once.
                let mut k = k0.clone();
                let tests: Vec<(Vec<i64>, i64)> = (0..3)
                    .map(|i| (random_weights(&mut x, b.holes()), limit + i))
                    .collect();
                k.set_prune(&b, &tests);
                kernels.push(k);
                let mut k = k0.clone();
                k.set_prune(&b, &[(wide.clone(), limit * 20)]);
                kernels.push(k);
            }
            for k in &kernels {
                let masks = k.prune.as_ref().is_some_and(|p| p.masks.is_some());
                for key in samples(&b) {
                    let mut imgs = [[0u64; LANES]; 2];
                    for (row, im) in imgs.iter_mut().enumerate().take(k.rows) {
                        *im = k.images_portable(key, row);
                    }
                    let slacks = k.prune.as_ref().map(|p| p.slacks(key));
                    let mut want = Vec::new();
                    for (wi, &word) in k.legal_portable(key).iter().enumerate() {
                        for bit in (0..64).filter(|bit| word >> bit & 1 == 1) {
                            let j = wi * 64 + bit;
                            match (&slacks, &k.prune) {
                                (Some(s), Some(p)) if !p.keeps(s, j) => dropped += 1,
                                _ => want.push(k.min_successor(&imgs, j)),
                            }
                        }
                    }
                    let mut legal = [0u64; 8];
                    let mut moves = [0u8; 256 + 64];
                    let mut vals = [0u64; 256 + 8];
                    // SAFETY: the CPU has the features (checked above).
                    let n = unsafe {
                        let kv = _mm512_set1_epi64(key as i64);
                        let (im, _) = avx512::images(k, kv);
                        avx512::legal_masks(k, key, kv, &mut legal);
                        avx512::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals)
                    };
                    let mut have = vals[..n].to_vec();
                    have.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(have, want, "{name} {key:#x}");
                    checked += n;
                    if k.prune.is_some() && !masks {
                        unmasked += n;
                    }
                }
            }
        }
    }
    assert!(
        checked > 10_000 && dropped > 1000 && unmasked > 1000,
        "{checked} {dropped} {unmasked}"
    );
}

/// Pruning weights for `holes` holes from the generator state `x`: any weights will do for the tests (a
/// pagoda's or not), small integers, some negative.
fn random_weights(x: &mut u64, holes: usize) -> Vec<i64> {
    (0..holes)
        .map(|_| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x % 9) as i64 - 3
        })
        .collect()
}

/// The forward and the backward kernel of `b` with all its symmetries.
fn both_ways(b: &Board) -> [Kernel; 2] {
    [
        Kernel::new(b, b.symmetries()),
        Kernel::new_reverse(b, b.symmetries()),
    ]
}

/// Positions to test with: random subsets of the holes, and the full board less one or two holes.
fn samples(b: &Board) -> Vec<u64> {
    let full = b.full().bits();
    let mut out: Vec<u64> = (0..b.holes()).map(|h| full ^ 1 << h).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..400 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push(x & full);
        out.push(x & x >> 3 & full);
    }
    out
}

#[test]
fn directions_give_the_legal_moves() {
    for name in crate::board::builtin_names() {
        let b = Board::builtin(name).unwrap();
        for k in both_ways(&b) {
            for key in samples(&b) {
                let legal = k.legal_portable(key);
                for (j, mv) in b.moves().iter().enumerate() {
                    let want = if k.reverse {
                        mv.is_undoable(Position::from_bits(key))
                    } else {
                        mv.is_legal(Position::from_bits(key))
                    };
                    assert_eq!(legal[j / 64] >> (j % 64) & 1 == 1, want);
                    let d = k
                        .dirs
                        .iter()
                        .find(|d| d.valid >> mv.from() & 1 == 1 && d.ids[mv.from()] == j as u32)
                        .unwrap();
                    assert_eq!(d.over[mv.from()] as usize, mv.over());
                    assert_eq!(d.to[mv.from()] as usize, mv.to());
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn avx512_kernel_matches_portable() {
    use std::arch::x86_64::*;
    if !has_avx512() {
        // Straight to stderr (the test harness swallows eprintln! of a passing test), so that the skip is
        // seen; where .ci/run found the features in /proc/cpuinfo, a skip is a failure.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"notice: avx512_kernel_matches_portable: this CPU lacks the AVX-512 features of the kernel; \
              only the portable kernel was tested\n",
        );
        assert!(
            std::env::var_os("BOARDLAB_EXPECT_AVX512").is_none(),
            "BOARDLAB_EXPECT_AVX512 is set (the CPU lists the kernel's features) but has_avx512() is false"
        );
        return;
    }
    let (b12, _) = Board::from_layout(
        "  o o o\n o o o o\no o o o o\n o o o o\n  o o o\n",
        crate::board::Lattice::Triangular,
        "hex19",
    )
    .unwrap();
    let boards = crate::board::builtin_names()
        .map(|n| Board::builtin(n).unwrap())
        .chain([b12]);
    for b in boards {
        for k in both_ways(&b) {
            for key in samples(&b) {
                let mut imgs = [[0u64; LANES]; 2];
                for (row, im) in imgs.iter_mut().enumerate().take(k.rows) {
                    *im = k.images_portable(key, row);
                }
                let mut moves = [0u32; MOVE_WORDS * 64 + 16];
                let mut got = [[0u64; LANES]; 2];
                let mut vals = [0u64; LANES];
                // SAFETY: the CPU has the features (checked above).
                let (fixed, n) = unsafe {
                    let kv = _mm512_set1_epi64(key as i64);
                    let (im, fixed) = avx512::images(&k, kv);
                    for (row, g) in got.iter_mut().enumerate().take(k.rows) {
                        _mm512_storeu_si512(g.as_mut_ptr().cast(), im[row]);
                    }
                    let n = avx512::legal_moves(&k, key, kv, &mut moves);
                    for g in (0..n).step_by(LANES) {
                        let v = avx512::successors8(&k, &im, &moves[g..n.min(g + LANES)]);
                        _mm512_storeu_si512(vals.as_mut_ptr().cast(), v);
                        for (i, &j) in moves[g..n.min(g + LANES)].iter().enumerate() {
                            assert_eq!(vals[i], k.min_successor(&imgs, j as usize));
                        }
                        for &v in &vals[n.min(g + LANES) - g..] {
                            assert_eq!(v, u64::MAX);
                        }
                    }
                    (fixed, n)
                };
                assert_eq!(got[..k.rows], imgs[..k.rows]);
                assert_eq!(k.class_sizes[fixed as usize] as u64, k.class_size(key));
                let legal = k.legal_portable(key);
                let mut want: Vec<u32> = (0..b.moves().len() as u32)
                    .filter(|&j| legal[j as usize / 64] >> (j % 64) & 1 == 1)
                    .collect();
                let mut have = moves[..n].to_vec();
                want.sort_unstable();
                have.sort_unstable();
                assert_eq!(have, want, "{} {key:#x}", b.name());
                if k.byte_moves() {
                    let mut bytes = [0u8; MOVE_WORDS * 64 + 64];
                    // SAFETY: the CPU has the features (checked above).
                    let n8 = unsafe {
                        avx512::legal_moves8(&k, key, _mm512_set1_epi64(key as i64), &mut bytes)
                    };
                    let mut have8: Vec<u32> = bytes[..n8].iter().map(|&j| u32::from(j)).collect();
                    have8.sort_unstable();
                    assert_eq!(have8, want, "{} {key:#x} (bytes)", b.name());
                }
            }
        }
    }
}
