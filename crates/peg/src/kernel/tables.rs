//! The precomputed tables of a kernel: one board and one symmetry group (images of holes and moves, the
//! directions of moves, pruning tests), and how they are built.

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
    pub(super) nbytes: usize,
    /// `tables[row*8+lane][byte][value]`: the image of `value << 8*byte`.
    pub(super) tables: Vec<[[u64; 256]; 8]>,
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

    /// Whether move indices fit in a byte (the board has at most 256 jumps).
    pub fn byte_moves(&self) -> bool {
        self.need.len() <= 256
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
}
