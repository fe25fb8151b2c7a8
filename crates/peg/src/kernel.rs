//! The hot inner kernel shared by the fast enumeration and the solver: images of a position under a symmetry
//! group, legal moves, and normal forms of successors.
//!
//! A symmetry is a permutation of bits, so it is linear under XOR: `g(p ^ m) = g(p) ^ g(m)`. The kernel computes
//! the images of a position once, and the images of every successor `p ^ m` as `images(p)[i] ^ images(m)[i]`
//! with the move masks' images precomputed. The normal form is the smallest image.
//!
//! Legal moves: the moves are split into *directions* (in each, a hole starts at most one move), so that the
//! legal moves of a direction are a mask over holes: a peg on the hole, a peg on its `over` neighbour, its
//! `to` neighbour empty, where the neighbours' bits are gathered from the position in one instruction.
//!
//! Two implementations: a portable one (byte lookup tables, scalar loops) and, on x86-64 CPUs with AVX-512
//! (F, BW, DQ, CD, VL, VBMI2, BITALG, VPOPCNTDQ), the [`avx512`] one: each image, and each direction's
//! neighbour bits, with a single bit-shuffle instruction; the normal forms of eight successors at a time; CPUs
//! with AVX2 but not those use the [`avx2`] one. All give identical results (tested here, and against the slow
//! reference in `tests/fast_vs_reference.rs`).

use crate::board::{Board, Symmetry};

/// Words of a legal-move bit set (a board has at most 6 * 64 = 384 jumps).
pub(crate) const MOVE_WORDS: usize = 6;

/// Lanes: the group is padded to 8 elements (repeating the identity); groups of more than 8 use two rows.
pub(crate) const LANES: usize = 8;

/// Precomputed tables for one board and one symmetry group.
#[derive(Debug, Clone)]
pub(crate) struct Kernel {
    /// Number of holes of the board.
    pub holes: usize,
    /// Whether the moves are jumps taken back ([`Kernel::new_reverse`]).
    pub reverse: bool,
    /// Number of real group elements (1..=12).
    pub group_size: usize,
    /// Number of 8-lane rows (1, or 2 for groups of more than 8 elements).
    pub rows: usize,
    /// Bytes of a position that can hold pegs.
    nbytes: usize,
    /// `tables[row*8+lane][byte][value]`: the image of `value << 8*byte`.
    tables: Vec<[[u64; 256]; 8]>,
    /// Per lane: the bit-shuffle control (for each target bit, the source bit it comes from).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub shuffle: Vec<[u8; 64]>,
    /// Per move: the holes that must hold pegs (`from` and `over`; `to` for a reverse kernel).
    pub need: Vec<u64>,
    /// Per move: the holes that must be empty (`to`; `from` and `over` for a reverse kernel).
    pub to: Vec<u64>,
    /// Per move: the images of its mask, `rows*8` lanes.
    pub move_images: Vec<[u64; LANES]>,
    /// The same in *direction order* (direction by direction, and in each by increasing `from` hole), for
    /// kernels of at most eight directions and 256 moves (empty otherwise): in that order the legal moves of a
    /// position are the set bits of one mask ([`avx2::move_ids_dir`]).
    pub dir_images: Vec<[u64; LANES]>,
    /// Where each direction's moves start in direction order.
    pub dir_base: [u32; 8],
    /// Groups of eight moves in direction order (none when [`Kernel::dir_images`] is empty).
    pub dir_groups: usize,
    /// The moves split into *directions*: in each, a hole starts at most one move (the k-th move from a hole
    /// is in direction k), so the legal moves of a direction are a bit mask over holes, found with two
    /// gathers of the position's bits.
    pub dirs: Vec<Direction>,
    /// `group_size / fixed` for `fixed` symmetries fixing a position: the class size, without a division.
    pub class_sizes: [u8; 2 * LANES + 1],
    /// Chunks of four bits of a position (the first index of the nibble tables).
    pub nchunks: usize,
    /// `nib_images[(row * nchunks + c) * 16 + v]`: the images, in the eight lanes of row `row`, of the
    /// position `v << 4c` (so that the images of a position are the OR of one line per chunk).
    pub nib_images: Vec<Line>,
    /// Groups of four directions.
    pub dgroups: usize,
    /// `nib_dirs[(g * nchunks + c) * 16 + v]`: in lanes `0..4` the `over` bits and in lanes `4..8` the `to`
    /// bits of directions `4g..4g + 4` (as in [`Direction::over`] and [`Direction::to`]), gathered from the
    /// position `v << 4c`.
    pub nib_dirs: Vec<Line>,
    /// Per group of four directions: the holes a move of each starts from.
    pub dir_valid: Vec<[u64; 4]>,
    /// For groups of at most eight symmetries and at most four directions (the square lattice): the lines of
    /// [`Kernel::nib_images`] and [`Kernel::nib_dirs`] side by side, so that one pass over the chunks of a
    /// position gathers both.
    pub nib_both: Vec<[Line; 2]>,
    /// A pagoda test that successors must pass (see [`Prune`]); none by default.
    pub prune: Option<Prune>,
}

/// Tests every successor must pass to be kept: for each, the sum of the weights of its pegs at least the
/// test's limit. With the weights of a pagoda function (no jump increases the weight of the pegs) and the
/// limit the finish's weight, a test drops positions that cannot reach the finish; with a pagoda's weights
/// negated and the limit the start's weight negated, positions that cannot be reached from the start. The
/// tests are made on normal forms, so each must be sound on every position of a class: either its weights
/// are the same on every hole of an orbit of the kernel's group, or its images under the group are tests
/// too (then a class fails one of them exactly when one of its positions fails the first).
#[derive(Debug, Clone)]
pub(crate) struct Prune {
    /// `bytes[b][v][t]`: the weight under test `t` of the pegs of the position `v << 8b` (0 past the tests).
    bytes: Vec<[Lanes; 256]>,
    /// Per move and test: the weight of a position less the weight of its successor by the move (0 past the
    /// tests).
    pub delta: Vec<Lanes>,
    /// Per test, its limit; past the tests, a limit so low that every position passes.
    limits: Lanes,
    /// The tests as masks of the legal moves, for kernels of at most eight directions whose moves' `delta`
    /// span at most [`MASK_SPAN`] values in every test (`None` otherwise).
    pub masks: Option<Masks>,
}

/// The tests of a [`Prune`] as masks of the legal moves: per test `(lo, first, len)`, where row
/// `rows[first + i][d]` (`i < len`) holds the holes the moves of direction `d` start from whose `delta` is
/// below `lo + i` (so for a position of slack `s`, row `s - lo + 1`, clamped to the test's rows, keeps exactly
/// the moves that pass the test).
#[derive(Debug, Clone)]
pub(crate) struct Masks {
    pub tests: Vec<(i32, usize, usize)>,
    pub rows: Vec<[u64; 8]>,
}

/// Most tests one [`Prune`] applies.
pub(crate) const MAX_TESTS: usize = 8;

/// One value per test of a [`Prune`].
pub(crate) type Lanes = [i16; MAX_TESTS];

/// The widest span of moves' weight changes [`Prune::masks`] is made for.
const MASK_SPAN: i64 = 64;

/// The largest weight of a hole a test may have (so that no sum over a position, nor the change of weight of
/// a jump, overflows 16 bits).
pub(crate) const MAX_WEIGHT: i64 = 128;

impl Prune {
    /// Per test, how much weight a successor may lose and still be kept (negative: none is kept): the weight
    /// of the pegs of `pos` less the test's limit.
    #[inline(always)]
    pub fn slacks(&self, pos: u64) -> Lanes {
        let mut s = self.limits.map(|l| -l);
        for (b, t) in self.bytes.iter().enumerate() {
            let w = &t[(pos >> (8 * b)) as usize & 255];
            for (x, y) in s.iter_mut().zip(w) {
                *x += y;
            }
        }
        s
    }

    /// Whether the successor by move `j` of a position of slacks `slacks` passes every test.
    #[inline(always)]
    pub fn keeps(&self, slacks: &Lanes, j: usize) -> bool {
        self.delta[j]
            .iter()
            .zip(slacks)
            .fold(true, |k, (d, s)| k & (d <= s))
    }
}

/// Eight `u64` in one cache line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Line(pub [u64; 8]);

/// One direction of moves (see [`Kernel::dirs`]).
#[derive(Debug, Clone)]
pub(crate) struct Direction {
    /// Bit-shuffle control: bit `h` of the result is the `over` hole's bit of the move from `h`.
    pub over: [u8; 64],
    /// Bit-shuffle control: bit `h` of the result is the `to` hole's bit of the move from `h`.
    pub to: [u8; 64],
    /// The holes a move of this direction starts from.
    pub valid: u64,
    /// The index of the move from hole `h`.
    pub ids: [u32; 64],
    /// The same as bytes (when the board has at most 256 jumps; see [`Kernel::byte_moves`]).
    pub ids8: [u8; 64],
    /// The index of the move from hole `h` in direction order ([`Kernel::dir_images`]; zero when that table is
    /// empty).
    pub dids8: [u8; 64],
}

/// A move index in a list of legal moves: a byte on boards with at most 256 jumps, else a `u32`.
pub(crate) trait MoveId: Copy + Default + Send + Sync + 'static {
    /// The index.
    fn index(self) -> usize;
    /// The list as bytes, when the indices are bytes.
    fn bytes(list: &mut [Self]) -> Option<&mut [u8]>;
    /// The list as `u32`, when the indices are `u32`.
    fn words(list: &mut [Self]) -> Option<&mut [u32]>;
}

impl MoveId for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
    #[inline(always)]
    fn bytes(list: &mut [u8]) -> Option<&mut [u8]> {
        Some(list)
    }
    #[inline(always)]
    fn words(_: &mut [u8]) -> Option<&mut [u32]> {
        None
    }
}

impl MoveId for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn bytes(_: &mut [u32]) -> Option<&mut [u8]> {
        None
    }
    #[inline(always)]
    fn words(list: &mut [u32]) -> Option<&mut [u32]> {
        Some(list)
    }
}

impl Kernel {
    /// Tables for `board` and the group `group` (whose first element is the identity).
    pub fn new(board: &Board, group: &[Symmetry]) -> Kernel {
        Kernel::with_direction(board, group, false)
    }

    /// Tables for jumps taken back: a peg on `to` and `from`, `over` empty; taking it back XORs the same mask.
    pub fn new_reverse(board: &Board, group: &[Symmetry]) -> Kernel {
        Kernel::with_direction(board, group, true)
    }

    fn with_direction(board: &Board, group: &[Symmetry], reverse: bool) -> Kernel {
        let n = board.holes();
        let group_size = group.len().max(1);
        let rows = group_size.div_ceil(LANES);
        let lanes = rows * LANES;
        let mut perms: Vec<Symmetry> = group.to_vec();
        if perms.is_empty() {
            perms.push(Symmetry::identity(n));
        }
        while perms.len() < lanes {
            perms.push(perms[0].clone());
        }
        let nbytes = n.div_ceil(8);
        let mut tables = Vec::with_capacity(lanes);
        let mut shuffle = Vec::with_capacity(lanes);
        for g in &perms {
            let mut t = [[0u64; 256]; 8];
            for (byte, row) in t.iter_mut().enumerate() {
                for (value, slot) in row.iter_mut().enumerate() {
                    let mut img = 0u64;
                    for bit in 0..8 {
                        let h = byte * 8 + bit;
                        if value >> bit & 1 == 1 && h < n {
                            img |= 1u64 << g.map_hole(h);
                        }
                    }
                    *slot = img;
                }
            }
            tables.push(t);
            // Target bit g(h) comes from source bit h; bits that are not holes read bit 63, which is zero
            // unless the board has 64 holes (and then every bit is a hole).
            let mut c = [63u8; 64];
            for h in 0..n {
                c[g.map_hole(h)] = h as u8;
            }
            shuffle.push(c);
        }
        let mut need = Vec::new();
        let mut to = Vec::new();
        let mut move_images = Vec::new();
        for m in board.moves() {
            let (a, b) = (1u64 << m.from() | 1u64 << m.over(), 1u64 << m.to());
            let (n, t) = if reverse { (b, a) } else { (a, b) };
            // Legal when every bit of `n` is a peg and every bit of `t` is empty.
            need.push(n);
            to.push(t);
            for row in 0..rows {
                let mut imgs = [0u64; LANES];
                for (lane, img) in imgs.iter_mut().enumerate() {
                    let g = &perms[row * LANES + lane];
                    *img = 1u64 << g.map_hole(m.from())
                        | 1u64 << g.map_hole(m.over())
                        | 1u64 << g.map_hole(m.to());
                }
                move_images.push(imgs);
            }
        }
        let mut dirs: Vec<Direction> = Vec::new();
        for (j, m) in board.moves().iter().enumerate() {
            let d = match dirs.iter().position(|d| d.valid >> m.from() & 1 == 0) {
                Some(d) => d,
                None => {
                    // Unused entries read bit 63: zero unless every bit is a hole, and masked by `valid`.
                    dirs.push(Direction {
                        over: [63; 64],
                        to: [63; 64],
                        valid: 0,
                        ids: [0; 64],
                        ids8: [0; 64],
                        dids8: [0; 64],
                    });
                    dirs.len() - 1
                }
            };
            let dir = &mut dirs[d];
            dir.over[m.from()] = m.over() as u8;
            dir.to[m.from()] = m.to() as u8;
            dir.valid |= 1 << m.from();
            dir.ids[m.from()] = j as u32;
            dir.ids8[m.from()] = j as u8;
        }
        let mut dir_images = Vec::new();
        let mut dir_base = [0u32; 8];
        if dirs.len() <= 8 && board.moves().len() <= 256 {
            for (d, dir) in dirs.iter_mut().enumerate() {
                dir_base[d] = (dir_images.len() / rows) as u32;
                for x in (0..64).filter(|&x| dir.valid >> x & 1 == 1) {
                    let j = dir.ids[x] as usize;
                    // At most 256 moves: the index fits in a byte.
                    dir.dids8[x] = (dir_images.len() / rows) as u8;
                    dir_images.extend_from_slice(&move_images[j * rows..(j + 1) * rows]);
                }
            }
        }
        let mut class_sizes = [0u8; 2 * LANES + 1];
        for (fixed, c) in class_sizes.iter_mut().enumerate() {
            *c = (group_size / fixed.max(1)) as u8;
        }
        let nchunks = n.div_ceil(4);
        let mut nib_images = vec![Line::default(); rows * nchunks * 16];
        for row in 0..rows {
            for c in 0..nchunks {
                for v in 0..16usize {
                    let line = &mut nib_images[(row * nchunks + c) * 16 + v];
                    for (lane, img) in line.0.iter_mut().enumerate() {
                        let g = &perms[row * LANES + lane];
                        for b in (0..4).filter(|b| v >> b & 1 == 1) {
                            let h = 4 * c + b;
                            if h < n {
                                *img |= 1u64 << g.map_hole(h);
                            }
                        }
                    }
                }
            }
        }
        let dgroups = dirs.len().div_ceil(4);
        let mut nib_dirs = vec![Line::default(); dgroups * nchunks * 16];
        let mut dir_valid = vec![[0u64; 4]; dgroups];
        for (d, dir) in dirs.iter().enumerate() {
            let (g, lane) = (d / 4, d % 4);
            dir_valid[g][lane] = dir.valid;
            for x in (0..n).filter(|&x| dir.valid >> x & 1 == 1) {
                for (hole, off) in [(dir.over[x] as usize, 0), (dir.to[x] as usize, 4)] {
                    let c = hole / 4;
                    for v in (0..16usize).filter(|v| v >> (hole % 4) & 1 == 1) {
                        nib_dirs[(g * nchunks + c) * 16 + v].0[off + lane] |= 1u64 << x;
                    }
                }
            }
        }
        let nib_both = if rows == 1 && dgroups == 1 {
            nib_images
                .iter()
                .zip(&nib_dirs)
                .map(|(&a, &b)| [a, b])
                .collect()
        } else {
            Vec::new()
        };
        Kernel {
            prune: None,
            nib_both,
            nchunks,
            nib_images,
            dgroups,
            nib_dirs,
            dir_valid,
            holes: n,
            reverse,
            dirs,
            class_sizes,
            group_size,
            rows,
            nbytes,
            tables,
            shuffle,
            need,
            to,
            move_images,
            dir_groups: (dir_images.len() / rows).div_ceil(8),
            dir_images,
            dir_base,
        }
    }

    /// The images of `key` in lanes of row `row`, portable version.
    #[inline(always)]
    pub fn images_portable(&self, key: u64, row: usize) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        for (lane, o) in out.iter_mut().enumerate() {
            let t = &self.tables[row * LANES + lane];
            let mut img = 0u64;
            for (b, tb) in t.iter().enumerate().take(self.nbytes) {
                img |= tb[(key >> (8 * b)) as usize & 255];
            }
            *o = img;
        }
        out
    }

    /// The legal moves of `key` as a bit set over move indices, portable version.
    #[inline(always)]
    pub fn legal_portable(&self, key: u64) -> [u64; MOVE_WORDS] {
        let mut out = [0u64; MOVE_WORDS];
        for (w, o) in out.iter_mut().enumerate() {
            let lo = w * 64;
            if lo >= self.need.len() {
                break;
            }
            let hi = (lo + 64).min(self.need.len());
            let mut bits = 0u64;
            for (j, (&need, &to)) in self.need[lo..hi].iter().zip(&self.to[lo..hi]).enumerate() {
                bits |= u64::from(key & need == need && key & to == 0) << j;
            }
            *o = bits;
        }
        out
    }

    /// Whether move indices fit in a byte (the board has at most 256 jumps).
    pub fn byte_moves(&self) -> bool {
        self.need.len() <= 256
    }

    /// The normal form (smallest image) of `pos` and its class size.
    pub fn normalize(&self, pos: u64) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            let (min, _, fixed) = unsafe { avx2::summary(self, pos) };
            return (min, u64::from(self.class_sizes[fixed as usize]));
        }
        let im = self.images(pos);
        let lanes = &im[..self.rows * LANES];
        let best = lanes.iter().copied().min().unwrap_or(pos);
        let fixed = lanes[..self.group_size]
            .iter()
            .filter(|&&img| img == pos)
            .count();
        (best, (self.group_size / fixed.max(1)) as u64)
    }

    /// The largest image of `pos` and its class size (one computation of the images for both).
    pub fn max_image_and_size(&self, pos: u64) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            let (_, max, fixed) = unsafe { avx2::summary(self, pos) };
            return (max, u64::from(self.class_sizes[fixed as usize]));
        }
        (self.max_image(pos), self.class_size(pos))
    }

    /// Number of distinct images of `pos`: group size over the number of symmetries fixing it.
    pub fn class_size(&self, pos: u64) -> u64 {
        self.normalize(pos).1
    }

    /// The sum of [`Kernel::class_size`] over `keys`: how many positions their classes hold.
    pub fn class_sizes_sum(&self, keys: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            return unsafe { avx2::class_sizes_sum(self, keys) };
        }
        keys.iter().map(|&x| self.class_size(x)).sum()
    }
}

/// Whether this CPU has the AVX-512 features the fast kernel uses.
pub(crate) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("avx512bitalg")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has the AVX2 (and BMI1, BMI2, POPCNT) features the [`avx2`] kernel uses.
pub(crate) fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static HAS: OnceLock<bool> = OnceLock::new();
        *HAS.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl Kernel {
    /// Keep only the successors that pass every test of `tests`, given as (hole weights, limit): those
    /// whose pegs weigh at least the limit (see [`Prune`]). No test when `tests` is empty.
    ///
    /// # Panics
    /// When there are more than [`MAX_TESTS`] tests, or a weight is above [`MAX_WEIGHT`] in size (the pagoda
    /// search gives neither).
    pub fn set_prune(&mut self, board: &Board, tests: &[(Vec<i64>, i64)]) {
        assert!(tests.len() <= MAX_TESTS, "{} pagoda tests", tests.len());
        if tests.is_empty() {
            self.prune = None;
            return;
        }
        let lane = |x: i64| {
            assert!(x.abs() <= MAX_WEIGHT * 64, "pagoda weight {x}");
            x as i16
        };
        for (w, _) in tests {
            assert!(w.iter().all(|x| x.abs() <= MAX_WEIGHT), "pagoda weights");
        }
        let n = board.holes();
        let bytes = (0..n.div_ceil(8))
            .map(|b| {
                let mut t = [[0i16; MAX_TESTS]; 256];
                for (v, slot) in t.iter_mut().enumerate() {
                    for (x, (weights, _)) in slot.iter_mut().zip(tests) {
                        *x = lane(
                            (0..8)
                                .filter(|bit| v >> bit & 1 == 1 && 8 * b + bit < n)
                                .map(|bit| weights[8 * b + bit])
                                .sum(),
                        );
                    }
                }
                t
            })
            .collect();
        let delta: Vec<Lanes> = board
            .moves()
            .iter()
            .map(|m| {
                let mut d = [0i16; MAX_TESTS];
                for (x, (weights, _)) in d.iter_mut().zip(tests) {
                    let jumped = weights[m.from()] + weights[m.over()] - weights[m.to()];
                    *x = lane(if self.reverse { -jumped } else { jumped });
                }
                d
            })
            .collect();
        // Past the tests: a limit below any weight, so that the slack is far above any change of weight.
        let mut limits = [i16::MIN / 2; MAX_TESTS];
        for (l, (_, limit)) in limits.iter_mut().zip(tests) {
            *l = lane(*limit);
        }
        let masks = (0..tests.len())
            .map(|t| {
                let d: Vec<i64> = delta.iter().map(|d| i64::from(d[t])).collect();
                self.prune_masks(board, &d)
            })
            .collect::<Option<Vec<_>>>()
            .map(|per_test| {
                let mut m = Masks {
                    tests: Vec::new(),
                    rows: Vec::new(),
                };
                for (lo, rows) in per_test {
                    m.tests.push((lo as i32, m.rows.len(), rows.len()));
                    m.rows.extend(rows);
                }
                m
            });
        self.prune = Some(Prune {
            bytes,
            delta,
            limits,
            masks,
        });
    }

    /// One test's masks (see [`Prune::masks`]) for the weight changes `delta` of `board`'s moves.
    fn prune_masks(&self, board: &Board, delta: &[i64]) -> Option<(i64, Vec<[u64; 8]>)> {
        let lo = delta.iter().copied().min()?;
        let hi = delta.iter().copied().max()?;
        if self.dirs.len() > 8 || hi - lo >= MASK_SPAN {
            return None;
        }
        // Entry `i` keeps the moves of delta at most `lo + i - 1`: none in entry 0, all in the last.
        let table = (0..=hi - lo + 1)
            .map(|i| {
                let mut m = [0u64; 8];
                for (d, dir) in self.dirs.iter().enumerate() {
                    for (j, mv) in board.moves().iter().enumerate() {
                        let from = mv.from();
                        if dir.valid >> from & 1 == 1
                            && dir.ids[from] as usize == j
                            && delta[j] < lo + i
                        {
                            m[d] |= 1 << from;
                        }
                    }
                }
                m
            })
            .collect();
        Some((lo, table))
    }

    /// The legal moves of `key` by direction (as [`avx2::images_legal`] gives them) less those whose
    /// successors fail the pruning test, when the test has [`Prune::masks`]; `false` (and `legal` unchanged)
    /// when it has none.
    #[inline(always)]
    pub fn prune_legal(&self, key: u64, legal: &mut [u64; 8]) -> bool {
        let Some((p, masks)) = self
            .prune
            .as_ref()
            .and_then(|p| Some((p, p.masks.as_ref()?)))
        else {
            return false;
        };
        let slacks = p.slacks(key);
        for (&s, &(lo, first, len)) in slacks.iter().zip(&masks.tests) {
            let i = (i32::from(s) - lo + 1).clamp(0, len as i32 - 1) as usize;
            if let Some(m) = masks.rows.get(first + i) {
                for d in 0..8 {
                    legal[d] &= m[d];
                }
            }
        }
        true
    }

    /// Whether the moves that [`Kernel::prune_legal`] left (`masked`: it applied the pruning test) can be listed
    /// in direction order ([`Kernel::dir_images`]): the test is applied or there is none, and the table exists.
    #[inline(always)]
    pub fn dir_order(&self, masked: bool) -> bool {
        (masked || self.prune.is_none()) && !self.dir_images.is_empty()
    }

    /// Drop from `moves` (the legal moves of `key`) those whose successors fail the pruning test; the number
    /// left.
    #[inline(always)]
    pub fn prune_moves<M: MoveId>(&self, key: u64, moves: &mut [M], n: usize) -> usize {
        let Some(p) = &self.prune else {
            return n;
        };
        let slacks = p.slacks(key);
        let mut kept = 0;
        for i in 0..n {
            let j = moves[i];
            moves[kept] = j;
            kept += usize::from(p.keeps(&slacks, j.index()));
        }
        kept
    }

    /// Whether the [`avx2`] kernel can be used for this board: the CPU has the features, positions are below
    /// 2^63 (the vector minimum compares signed), and move indices fit in a byte.
    pub fn avx2_ok(&self) -> bool {
        self.holes < 64 && self.byte_moves() && has_avx2()
    }

    /// The images of `key` (in the group's lanes, `rows * 8` of them; the lanes past the group repeat the
    /// identity), with the vector kernel where the CPU has it.
    #[inline]
    pub fn images(&self, key: u64) -> [u64; 2 * LANES] {
        let mut out = [0u64; 2 * LANES];
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            unsafe { avx2::images_to(self, key, &mut out) };
            return out;
        }
        for row in 0..self.rows {
            out[row * LANES..row * LANES + LANES].copy_from_slice(&self.images_portable(key, row));
        }
        out
    }

    /// The largest image of `key` under the group.
    pub fn max_image(&self, key: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            return unsafe { avx2::max_image(self, key) };
        }
        self.images(key)[..self.rows * LANES]
            .iter()
            .copied()
            .max()
            .unwrap_or(key)
    }

    /// The normal form of the successor of a position by move `j`, from the position's images (portable).
    #[inline(always)]
    pub fn min_successor(&self, imgs: &[[u64; LANES]; 2], j: usize) -> u64 {
        let mut best = u64::MAX;
        for (row, im) in imgs.iter().enumerate().take(self.rows) {
            let m = &self.move_images[j * self.rows + row];
            for (a, b) in im.iter().zip(m) {
                best = best.min(a ^ b);
            }
        }
        best
    }
}

/// The AVX-512 pieces of the expansion. Every function here needs the CPU features [`has_avx512`] checks; the
/// callers are compiled with them too, so that these are inlined.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use std::arch::x86_64::*;

    use super::{Direction, Kernel, LANES, MoveId};

    /// The images of `key` (broadcast in `kv`), one row of eight lanes per 8 symmetries, and the number of
    /// symmetries that fix it.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
    pub fn images(k: &Kernel, kv: __m512i) -> ([__m512i; 2], u32) {
        let real0 = (0xFFu16 >> (LANES - k.group_size.min(LANES))) as u8;
        let real1 = (0xFFu16 >> (LANES - k.group_size.saturating_sub(LANES).min(LANES))) as u8;
        let mut im = [_mm512_setzero_si512(); 2];
        let mut fixed = 0u32;
        for (row, imr) in im.iter_mut().enumerate().take(k.rows) {
            for (lane, c) in k.shuffle[row * LANES..row * LANES + LANES]
                .iter()
                .enumerate()
            {
                // SAFETY: reads the 64 bytes of a `[u8; 64]`.
                let c = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
                let img = _mm512_bitshuffle_epi64_mask(kv, c);
                *imr = _mm512_mask_set1_epi64(*imr, 1 << lane, img as i64);
            }
            let real = if row == 0 { real0 } else { real1 };
            fixed += (_mm512_cmpeq_epi64_mask(*imr, kv) & real).count_ones();
        }
        (im, fixed)
    }

    /// The largest image of `key` under the group.
    #[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
    pub fn max_image(k: &Kernel, key: u64) -> u64 {
        let kv = _mm512_set1_epi64(key as i64);
        let (im, _) = images(k, kv);
        // Padding lanes repeat the identity, whose image is a real one.
        let mut m = im[0];
        if k.rows == 2 {
            m = _mm512_max_epu64(m, im[1]);
        }
        _mm512_reduce_max_epu64(m)
    }

    /// The legal moves of direction `d` for `key` (broadcast in `kv`), as a bit mask over their `from` holes:
    /// the `over` and `to` neighbours' bits gathered with one bit shuffle each.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512bitalg")]
    fn dir_legal(k: &Kernel, d: &Direction, key: u64, kv: __m512i) -> u64 {
        // SAFETY: reads the 64 bytes of two `[u8; 64]`.
        let (over, to) = unsafe {
            (
                _mm512_loadu_si512(d.over.as_ptr().cast()),
                _mm512_loadu_si512(d.to.as_ptr().cast()),
            )
        };
        let ov = _mm512_bitshuffle_epi64_mask(kv, over);
        let tv = _mm512_bitshuffle_epi64_mask(kv, to);
        (if k.reverse {
            !key & !ov & tv
        } else {
            key & ov & !tv
        }) & d.valid
    }

    /// The indices of the legal moves of `key` (broadcast in `kv`), written to `moves` (which must have 16
    /// spare entries after the last move); their number.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
    pub fn legal_moves(k: &Kernel, key: u64, kv: __m512i, moves: &mut [u32]) -> usize {
        let mut n = 0usize;
        for d in &k.dirs {
            let legal = dir_legal(k, d, key, kv);
            for c in (0..4).filter(|c| d.valid >> (16 * c) & 0xFFFF != 0) {
                let m = (legal >> (16 * c)) as u16;
                let Some(out) = moves.get_mut(n..n + 16) else {
                    return n;
                };
                // SAFETY: reads 16 `u32` of `ids` (64 entries); writes the 16 `u32` of `out`.
                unsafe {
                    let ids = _mm512_loadu_si512(d.ids.as_ptr().add(16 * c).cast());
                    let packed = _mm512_maskz_compress_epi32(m, ids);
                    _mm512_storeu_si512(out.as_mut_ptr().cast(), packed);
                }
                n += m.count_ones() as usize;
            }
        }
        n
    }

    /// [`legal_moves`] as bytes, for boards with at most 256 jumps ([`Kernel::byte_moves`]): one compress
    /// instruction per direction. `moves` must have 64 spare entries after the last move.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512bitalg,popcnt")]
    pub fn legal_moves8(k: &Kernel, key: u64, kv: __m512i, moves: &mut [u8]) -> usize {
        let mut n = 0usize;
        for d in &k.dirs {
            let legal = dir_legal(k, d, key, kv);
            // SAFETY: reads the 64 bytes of a `[u8; 64]`.
            let ids = unsafe { _mm512_loadu_si512(d.ids8.as_ptr().cast()) };
            let Some(out) = moves.get_mut(n..n + 64) else {
                return n;
            };
            // SAFETY: writes the 64 bytes of `out`.
            unsafe {
                _mm512_storeu_si512(
                    out.as_mut_ptr().cast(),
                    _mm512_maskz_compress_epi8(legal, ids),
                );
            }
            n += legal.count_ones() as usize;
        }
        n
    }

    /// The legal moves of `key` (see [`legal_moves`] and [`legal_moves8`]), as move indices of type `M`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512bitalg,popcnt")]
    pub fn legal_moves_as<M: MoveId>(k: &Kernel, key: u64, kv: __m512i, moves: &mut [M]) -> usize {
        if let Some(b) = M::bytes(moves) {
            return legal_moves8(k, key, kv, b);
        }
        match M::words(moves) {
            Some(w) => legal_moves(k, key, kv, w),
            None => 0,
        }
    }

    /// The legal moves of `key` (broadcast in `kv`) as bit masks over their `from` holes, one per direction
    /// (the first eight directions; as [`super::avx2::images_legal`] gives them).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
    pub fn legal_masks(k: &Kernel, key: u64, kv: __m512i, legal: &mut [u64; 8]) {
        for (d, l) in k.dirs.iter().zip(legal.iter_mut()) {
            *l = dir_legal(k, d, key, kv);
        }
    }

    /// Whether an image of `key` (broadcast in `kv`, its images `im`) under a symmetry other than the identity
    /// differs from it in at most six holes: otherwise no two jumps from `key` lead to the same class (two
    /// successors `key ^ a`, `g(key ^ b)` are equal only if `key ^ g(key) = a ^ g(b)`, at most six holes).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub fn near_symmetric(k: &Kernel, im: &[__m512i; 2], kv: __m512i) -> bool {
        let six = _mm512_set1_epi64(6);
        // Lane 0 of the first row is the identity; lanes past the group repeat it.
        let real0 = (0xFFu16 >> (LANES - k.group_size.min(LANES))) as u8 & !1;
        let real1 = (0xFFu16 >> (LANES - k.group_size.saturating_sub(LANES).min(LANES))) as u8;
        let near = |v: __m512i, real: u8| {
            _mm512_mask_cmple_epu64_mask(real, _mm512_popcnt_epi64(_mm512_xor_si512(v, kv)), six)
        };
        let mut m = near(im[0], real0);
        if k.rows == 2 {
            m |= near(im[1], real1);
        }
        m != 0
    }

    /// The normal forms of the successors of `key` (its images `im`, its legal moves `legal` from
    /// [`legal_masks`]) that the kernel's pagoda test keeps, into `vals` eight at a time; returns how many.
    /// The moves are listed in direction order (one compress instruction per direction) when the test is
    /// applied as masks or there is none, else by index and then tested one by one, as
    /// [`super::avx2::kept_successors`] does. The kernel must have at most eight directions and 256 jumps.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512bitalg,popcnt")]
    pub fn kept_successors(
        k: &Kernel,
        key: u64,
        im: &[__m512i; 2],
        legal: &mut [u64; 8],
        moves: &mut [u8; 256 + 64],
        vals: &mut [u64; 256 + 8],
    ) -> usize {
        let masked = k.prune_legal(key, legal);
        let dir_order = k.dir_order(masked);
        let mut n = 0usize;
        for (d, &l) in k.dirs.iter().zip(legal.iter()) {
            let ids = if dir_order { &d.dids8 } else { &d.ids8 };
            // `n` is below the number of jumps, at most 256: the 64 bytes at `n & 255` are inside `moves`.
            let at = n & 255;
            // SAFETY: reads the 64 bytes of `ids`, writes 64 bytes of `moves` from `at` (see above).
            unsafe {
                let ids = _mm512_loadu_si512(ids.as_ptr().cast());
                _mm512_storeu_si512(
                    moves.as_mut_ptr().add(at).cast(),
                    _mm512_maskz_compress_epi8(l, ids),
                );
            }
            n += l.count_ones() as usize;
        }
        let n = n.min(256);
        let (table, n) = if dir_order {
            (&k.dir_images, n)
        } else if masked {
            (&k.move_images, n)
        } else {
            (&k.move_images, k.prune_moves(key, &mut moves[..], n))
        };
        let mut g = 0;
        while g < n {
            let v = successors8_in(k, table, im, &moves[g..n.min(g + LANES)]);
            // SAFETY: `g < n <= 256`: the eight values at `g` are inside `vals` (256 + 8 entries).
            unsafe { _mm512_storeu_si512(vals.as_mut_ptr().add(g).cast(), v) };
            g += LANES;
        }
        n
    }

    /// The normal forms of the successors of a class by up to eight moves, from the class's images `im`: lane
    /// `i` is the successor by `moves[i]`, the lanes past the moves hold all ones. The XOR of the images with
    /// each move's images, then a transposing reduction to the minimum of each (pairs, then quadruples, then
    /// all eight).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn successors8<M: MoveId>(k: &Kernel, im: &[__m512i; 2], moves: &[M]) -> __m512i {
        successors8_in(k, &k.move_images, im, moves)
    }

    /// [`successors8`] with the moves' images in `table` (indexed as [`Kernel::move_images`], or in direction
    /// order as [`Kernel::dir_images`]).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn successors8_in<M: MoveId>(
        k: &Kernel,
        table: &[[u64; LANES]],
        im: &[__m512i; 2],
        moves: &[M],
    ) -> __m512i {
        let rows = k.rows;
        let ones = _mm512_set1_epi64(-1);
        let mut x = [ones; LANES];
        for (xi, &j) in x.iter_mut().zip(moves) {
            let j = j.index();
            // SAFETY: `move_images` holds `[u64; 8]` arrays; this reads one (two for two rows).
            let m0 = unsafe { _mm512_loadu_si512(table[j * rows].as_ptr().cast()) };
            *xi = _mm512_xor_si512(im[0], m0);
            if rows == 2 {
                let m1 = unsafe { _mm512_loadu_si512(table[j * rows + 1].as_ptr().cast()) };
                *xi = _mm512_min_epu64(*xi, _mm512_xor_si512(im[1], m1));
            }
        }
        let mut y = [ones; 4];
        for (i, yi) in y.iter_mut().enumerate() {
            let (a, b) = (x[2 * i], x[2 * i + 1]);
            *yi = _mm512_min_epu64(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
        }
        let idx_c = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let idx_d = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        let mut z = [ones; 2];
        for (i, zi) in z.iter_mut().enumerate() {
            let (a, b) = (y[2 * i], y[2 * i + 1]);
            *zi = _mm512_min_epu64(
                _mm512_permutex2var_epi64(a, idx_c, b),
                _mm512_permutex2var_epi64(a, idx_d, b),
            );
        }
        _mm512_min_epu64(
            _mm512_shuffle_i64x2::<0x44>(z[0], z[1]),
            _mm512_shuffle_i64x2::<0xEE>(z[0], z[1]),
        )
    }
}

/// The AVX2 pieces of the expansion, for CPUs without AVX-512: the images of a position and the neighbour bits
/// of each direction as the OR of one cache line per four bits of the position ([`Kernel::nib_images`],
/// [`Kernel::nib_dirs`]), and the normal forms of eight successors at a time. Every function here needs the
/// CPU features [`has_avx2`] checks; the callers are compiled with them too, so that these are inlined.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use std::arch::x86_64::*;

    use super::{Kernel, LANES, Line};

    /// The smaller of each pair of lanes (signed: positions are below 2^63).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn min64(a: __m256i, b: __m256i) -> __m256i {
        _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b))
    }

    /// The OR of the lines `table[(group * nchunks + c) * 16 + nibble c of key]` over the chunks `c`, as two
    /// vectors of four lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn gather(table: &[Line], group: usize, nchunks: usize, key: u64) -> [__m256i; 2] {
        let mut a = _mm256_setzero_si256();
        let mut b = _mm256_setzero_si256();
        let lines = &table[group * nchunks * 16..(group + 1) * nchunks * 16];
        let base = lines.as_ptr();
        let mut x = key;
        for c in 0..nchunks {
            // SAFETY: `c * 16 + (x & 15)` is below `nchunks * 16`, inside `lines`; reads the 64 bytes of a
            // `Line`.
            unsafe {
                let p = base.add(c * 16 + (x as usize & 15)).cast::<__m256i>();
                a = _mm256_or_si256(a, _mm256_load_si256(p));
                b = _mm256_or_si256(b, _mm256_load_si256(p.add(1)));
            }
            x >>= 4;
        }
        [a, b]
    }

    /// For kernels with [`Kernel::nib_both`]: the images of `key` (lanes `0..4`, `4..8`), and the `over` and
    /// `to` bits of its four directions, in one pass over its chunks.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn images_dirs(k: &Kernel, key: u64) -> [__m256i; 4] {
        let mut v = [_mm256_setzero_si256(); 4];
        let base = k.nib_both.as_ptr();
        let mut x = key;
        for c in 0..k.nchunks {
            // SAFETY: `c * 16 + (x & 15)` is below `nchunks * 16`, the length of `nib_both`; reads the 128
            // bytes of two `Line`s.
            unsafe {
                let p = base.add(c * 16 + (x as usize & 15)).cast::<__m256i>();
                v[0] = _mm256_or_si256(v[0], _mm256_load_si256(p));
                v[1] = _mm256_or_si256(v[1], _mm256_load_si256(p.add(1)));
                v[2] = _mm256_or_si256(v[2], _mm256_load_si256(p.add(2)));
                v[3] = _mm256_or_si256(v[3], _mm256_load_si256(p.add(3)));
            }
            x >>= 4;
        }
        v
    }

    /// The legal moves of four directions as bit masks over their `from` holes, from the position broadcast
    /// in `kv` and its `over` and `to` bits.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn legal4(
        reverse: bool,
        kv: __m256i,
        over: __m256i,
        to: __m256i,
        valid: &[u64; 4],
    ) -> [u64; 4] {
        // SAFETY: reads the four `u64` of `valid`.
        let valid = unsafe { _mm256_loadu_si256(valid.as_ptr().cast()) };
        let legal = if reverse {
            _mm256_andnot_si256(kv, _mm256_andnot_si256(over, _mm256_and_si256(to, valid)))
        } else {
            _mm256_and_si256(_mm256_and_si256(kv, over), _mm256_andnot_si256(to, valid))
        };
        let mut l = [0u64; 4];
        // SAFETY: writes the four `u64` of `l`.
        unsafe { _mm256_storeu_si256(l.as_mut_ptr().cast(), legal) };
        l
    }

    /// The minimum of each of four vectors, as the four lanes of one (a transposing reduction).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn reduce4(m: &[__m256i; 4]) -> __m256i {
        let y0 = min64(
            _mm256_unpacklo_epi64(m[0], m[1]),
            _mm256_unpackhi_epi64(m[0], m[1]),
        );
        let y1 = min64(
            _mm256_unpacklo_epi64(m[2], m[3]),
            _mm256_unpackhi_epi64(m[2], m[3]),
        );
        min64(
            _mm256_permute2x128_si256::<0x20>(y0, y1),
            _mm256_permute2x128_si256::<0x31>(y0, y1),
        )
    }

    /// The `over` and `to` bits of the four directions of group `g`, for the position `key`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn dirs(k: &Kernel, g: usize, key: u64) -> [__m256i; 2] {
        gather(&k.nib_dirs, g, k.nchunks, key)
    }

    /// The images of `key`: vectors `2 * row` and `2 * row + 1` hold lanes `0..4` and `4..8` of row `row`
    /// (vectors past the rows are zero).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn images(k: &Kernel, key: u64) -> [__m256i; 4] {
        let [a, b] = gather(&k.nib_images, 0, k.nchunks, key);
        if k.rows == 1 {
            return [a, b, _mm256_setzero_si256(), _mm256_setzero_si256()];
        }
        let [c, d] = gather(&k.nib_images, 1, k.nchunks, key);
        [a, b, c, d]
    }

    /// The smallest and the largest image of `key`, and the number of symmetries that fix it.
    #[target_feature(enable = "avx2,popcnt")]
    pub fn summary(k: &Kernel, key: u64) -> (u64, u64, u32) {
        let im = images(k, key);
        let fixed = fixed(k, &im, key);
        let (mut lo, mut hi) = (min64(im[0], im[1]), max64(im[0], im[1]));
        if k.rows == 2 {
            lo = min64(lo, min64(im[2], im[3]));
            hi = max64(hi, max64(im[2], im[3]));
        }
        let mut l = [0u64; 4];
        let mut h = [0u64; 4];
        // SAFETY: writes four lanes each.
        unsafe {
            _mm256_storeu_si256(l.as_mut_ptr().cast(), lo);
            _mm256_storeu_si256(h.as_mut_ptr().cast(), hi);
        }
        (
            l[0].min(l[1]).min(l[2].min(l[3])),
            h[0].max(h[1]).max(h[2].max(h[3])),
            fixed,
        )
    }

    /// The sum over `keys` of the number of their distinct images.
    #[target_feature(enable = "avx2,popcnt")]
    pub fn class_sizes_sum(k: &Kernel, keys: &[u64]) -> u64 {
        keys.iter()
            .map(|&key| {
                let im = images(k, key);
                u64::from(k.class_sizes[fixed(k, &im, key) as usize])
            })
            .sum()
    }

    /// The largest image of `key`.
    #[target_feature(enable = "avx2")]
    pub fn max_image(k: &Kernel, key: u64) -> u64 {
        let im = images(k, key);
        let mut hi = max64(im[0], im[1]);
        if k.rows == 2 {
            hi = max64(hi, max64(im[2], im[3]));
        }
        let mut h = [0u64; 4];
        // SAFETY: writes four lanes.
        unsafe { _mm256_storeu_si256(h.as_mut_ptr().cast(), hi) };
        h[0].max(h[1]).max(h[2].max(h[3]))
    }

    /// The larger of each pair of lanes (signed: positions are below 2^63).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn max64(a: __m256i, b: __m256i) -> __m256i {
        _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b))
    }

    /// [`images`] written to `out` (lanes `0..8` row 0, `8..16` row 1).
    #[target_feature(enable = "avx2")]
    pub fn images_to(k: &Kernel, key: u64, out: &mut [u64; 2 * LANES]) {
        let im = images(k, key);
        for (i, v) in im.iter().enumerate().take(2 * k.rows) {
            // SAFETY: writes four lanes inside `out`.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(4 * i).cast(), *v) };
        }
    }

    /// The images of `key` ([`images`]) and its legal moves as bit masks over their `from` holes, one per
    /// direction, in `legal` (one pass over the chunks for both where the kernel has [`Kernel::nib_both`]).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn images_legal(k: &Kernel, key: u64, legal: &mut [u64; 8]) -> [__m256i; 4] {
        let kv = _mm256_set1_epi64x(key as i64);
        if !k.nib_both.is_empty() {
            let [a, b, over, to] = images_dirs(k, key);
            legal[..4].copy_from_slice(&legal4(k.reverse, kv, over, to, &k.dir_valid[0]));
            let top = _mm256_set1_epi64x(i64::MAX);
            return [a, b, top, top];
        }
        for (g, valid) in k.dir_valid.iter().enumerate() {
            let [over, to] = dirs(k, g, key);
            legal[4 * g..4 * g + 4].copy_from_slice(&legal4(k.reverse, kv, over, to, valid));
        }
        images(k, key)
    }

    /// The legal moves of `legal` (from [`images_legal`]) as move indices in `moves`, direction by
    /// direction; returns how many.
    #[cfg(test)]
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn move_ids(k: &Kernel, legal: &[u64; 8], moves: &mut [u8; 256]) -> usize {
        let mut n = 0usize;
        for (d, dir) in k.dirs.iter().enumerate() {
            let mut bits = legal[d];
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // `n` is below the number of jumps, at most 256 (`avx2_ok`): inside `moves`.
                moves[n & 255] = dir.ids8[x & 63];
                n += 1;
            }
        }
        n
    }

    /// For a byte `v`, the positions of its set bits in increasing order, one a byte from the lowest (the bytes
    /// past them zero): a shuffle control that packs the entries of an 8-byte group at those positions.
    static PACK: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut v = 0;
        while v < 256 {
            let (mut x, mut k) = (0u64, 0);
            let mut b = 0;
            while b < 8 {
                if v >> b & 1 == 1 {
                    x |= (b as u64) << (8 * k);
                    k += 1;
                }
                b += 1;
            }
            t[v] = x;
            v += 1;
        }
        t
    };

    /// [`move_ids`] without a branch per move: the legal moves of each direction are packed eight holes at a
    /// time (a table lookup, a byte shuffle of the move indices of those holes, an 8-byte store), so `moves`
    /// has room for the last store past the moves. The same moves in the same order.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn move_ids_packed(k: &Kernel, legal: &[u64; 8], moves: &mut [u8; 256 + 8]) -> usize {
        let mut n = 0usize;
        let groups = k.holes.div_ceil(8);
        for (d, dir) in k.dirs.iter().enumerate() {
            let bits = legal[d];
            for c in 0..groups {
                let v = (bits >> (8 * c)) as u8;
                // SAFETY: `c < groups <= 8` reads eight of the 64 entries of `ids8`; `n` is below the number of
                // jumps, at most 256 (`avx2_ok`), so the eight bytes at `n & 255` are inside `moves`.
                unsafe {
                    let ids = _mm_loadl_epi64(dir.ids8.as_ptr().add(8 * c).cast());
                    let ctl = _mm_cvtsi64_si128(PACK[usize::from(v)] as i64);
                    _mm_storel_epi64(
                        moves.as_mut_ptr().add(n & 255).cast(),
                        _mm_shuffle_epi8(ids, ctl),
                    );
                }
                n += v.count_ones() as usize;
            }
        }
        n
    }

    /// The legal moves of `legal` (from [`images_legal`]) as indices in direction order ([`Kernel::dir_images`],
    /// which must not be empty): each direction's legal holes squeezed into its run of indices (a bit
    /// extraction), then the set bits of the whole mask listed eight at a time (a table of set-bit positions
    /// plus the group's first index, an 8-byte store). So `moves` has room for the last store past the
    /// moves; the bytes past the moves are indices below the number of moves.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn move_ids_dir(k: &Kernel, legal: &[u64; 8], moves: &mut [u8; 256 + 8]) -> usize {
        let mut all = [0u64; 5];
        for (d, dir) in k.dirs.iter().enumerate().take(8) {
            let bits = _pext_u64(legal[d], dir.valid);
            let b = k.dir_base[d] as usize & 255;
            let (w, s) = (b / 64, b % 64);
            all[w] |= bits << s;
            if s > 0 {
                all[w + 1] |= bits >> (64 - s);
            }
        }
        let mut n = 0usize;
        for c in 0..k.dir_groups.min(32) {
            let v = (all[c / 8] >> (8 * (c % 8))) as u8;
            // Positions 0..8 plus `8c <= 248`: no carry from one byte into the next.
            let ids = PACK[usize::from(v)] + (8 * c as u64) * 0x0101_0101_0101_0101;
            // `n` is at most the number of moves, 256, so the eight bytes at `n & 255` are inside `moves`.
            let at = n & 255;
            moves[at..at + 8].copy_from_slice(&ids.to_le_bytes());
            n += v.count_ones() as usize;
        }
        n
    }

    /// The normal forms of the successors of the position whose images are `im` by the first `n` moves of
    /// `moves`, into `vals[..n]`, four at a time (the last group's lanes past `n` are computed from the
    /// entries after the moves, valid indices left from earlier positions or zero, and not used).
    #[cfg(test)]
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn successors(
        k: &Kernel,
        im: &[__m256i; 4],
        moves: &[u8; 256],
        n: usize,
        vals: &mut [u64; 256 + 4],
    ) {
        successors_in(k, &k.move_images, im, moves, n, vals);
    }

    /// [`successors`] with the moves' images in `table` (indexed as [`Kernel::move_images`], or in direction
    /// order as [`Kernel::dir_images`]); every index of `moves` must be below its number of moves.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn successors_in<const N: usize>(
        k: &Kernel,
        table: &[[u64; LANES]],
        im: &[__m256i; 4],
        moves: &[u8; N],
        n: usize,
        vals: &mut [u64; 256 + 4],
    ) {
        const { assert!(N >= 256) };
        let rows = k.rows;
        let load = |l: &[u64; LANES], half: usize| {
            // SAFETY: reads four of the eight `u64` of `l`.
            unsafe { _mm256_loadu_si256(l.as_ptr().add(4 * half).cast()) }
        };
        let mut g = 0usize;
        while g < n {
            let line =
                |i: usize, row: usize| &table[usize::from(moves[(g + i) & 255]) * rows + row];
            let succ = |i: usize| {
                let l = line(i, 0);
                let mut m = min64(
                    _mm256_xor_si256(im[0], load(l, 0)),
                    _mm256_xor_si256(im[1], load(l, 1)),
                );
                if rows == 2 {
                    let l = line(i, 1);
                    m = min64(
                        m,
                        min64(
                            _mm256_xor_si256(im[2], load(l, 0)),
                            _mm256_xor_si256(im[3], load(l, 1)),
                        ),
                    );
                }
                m
            };
            let batch = [succ(0), succ(1), succ(2), succ(3)];
            // SAFETY: `g < n <= 256`, so the four lanes at `g` are inside `vals` (256 + 4 entries).
            unsafe { _mm256_storeu_si256(vals.as_mut_ptr().add(g & 255).cast(), reduce4(&batch)) };
            g += 4;
        }
    }

    /// The normal forms of the successors of `key` (its images `im` and legal moves `legal` from
    /// [`images_legal`]) that the kernel's pagoda test keeps, into `vals`; returns how many. The moves are
    /// listed in direction order ([`move_ids_dir`]) when the test is applied as masks or there is none, else
    /// by index and then tested one by one. `legal` is left without the moves the masks drop.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub fn kept_successors(
        k: &Kernel,
        key: u64,
        im: &[__m256i; 4],
        legal: &mut [u64; 8],
        moves: &mut [u8; 256 + 8],
        vals: &mut [u64; 256 + 4],
    ) -> usize {
        let masked = k.prune_legal(key, legal);
        if k.dir_order(masked) {
            let n = move_ids_dir(k, legal, moves);
            successors_in(k, &k.dir_images, im, moves, n, vals);
            return n;
        }
        let mut n = move_ids_packed(k, legal, moves);
        if !masked {
            n = k.prune_moves(key, moves, n);
        }
        successors_in(k, &k.move_images, im, moves, n, vals);
        n
    }

    /// The number of symmetries of the group that fix `key`, from its images.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    pub fn fixed(k: &Kernel, im: &[__m256i; 4], key: u64) -> u32 {
        let kv = _mm256_set1_epi64x(key as i64);
        let mut mask = 0u32;
        for (i, v) in im.iter().enumerate().take(2 * k.rows) {
            let eq = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(*v, kv))) as u32;
            mask |= eq << (4 * i);
        }
        let real = (1u32 << k.group_size) - 1;
        (mask & real).count_ones()
    }

    /// Whether two distinct jumps from `key` can lead to the same class: only when some symmetry other than
    /// the identity moves at most six holes of it (two jumps change three holes each). Without such a
    /// symmetry, the successors of a class are all in distinct classes.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    pub fn near_symmetric(k: &Kernel, im: &[__m256i; 4], key: u64) -> bool {
        let mut lanes = [0u64; 2 * LANES];
        for (i, v) in im.iter().enumerate().take(2 * k.rows) {
            // SAFETY: writes four lanes inside `lanes`.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().add(4 * i).cast(), *v) };
        }
        lanes[1..k.group_size]
            .iter()
            .any(|&img| (img ^ key).count_ones() <= 6)
    }
}

#[cfg(test)]
mod tests {
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
                        let mut have8: Vec<u32> =
                            bytes[..n8].iter().map(|&j| u32::from(j)).collect();
                        have8.sort_unstable();
                        assert_eq!(have8, want, "{} {key:#x} (bytes)", b.name());
                    }
                }
            }
        }
    }
}
