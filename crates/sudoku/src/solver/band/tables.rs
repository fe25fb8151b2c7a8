//! The constant tables of the band representation: permutations of minirows, row and column masks, clue
//! shadows, and the small bit helpers over a band-digit word.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// Replicates a 9-bit column set over the three rows of a band.
pub(super) const COLS_TO_BAND: u32 = 1 | (1 << 9) | (1 << 18);

/// The six permutations of three rows onto three boxes, as 9-bit minirow sets (bit `3r + k`).
pub(super) const PERMS: [u16; 6] = {
    let sigma: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u16; 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            out[p] |= 1 << (3 * r + sigma[p][r]);
            r += 1;
        }
        p += 1;
    }
    out
};

/// For a 9-bit set of occupied minirows (or minicolumns), the union of the permutations inside it.
pub(super) static PERM_ALLOWED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut p = 0;
        while p < 6 {
            if occ as u16 & PERMS[p] == PERMS[p] {
                t[occ] |= PERMS[p];
            }
            p += 1;
        }
        occ += 1;
    }
    t
};

/// For a 9-bit set of occupied minirows (or minicolumns), the minirows every permutation inside it uses.
pub(super) static PERM_FORCED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut acc = 0x1FFu16;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            if occ as u16 & PERMS[p] == PERMS[p] {
                acc &= PERMS[p];
                any = true;
            }
            p += 1;
        }
        t[occ] = if any { acc } else { 0 };
        occ += 1;
    }
    t
};

/// For minirow `m` (bit `3r + k`), the other minirows of its row and box.
pub(super) static MINIROW_RIVALS: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut m = 0;
    while m < 9 {
        let (r, k) = (m / 3, m % 3);
        t[m] = ((0b111 << (3 * r)) | (0b1001001 << k)) & !(1 << m);
        m += 1;
    }
    t
};

/// [`PERM_ALLOWED`] expanded to cells: bit `3r + k` becomes the three cells of minirow `(r, k)`.
pub(super) static PERM_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let a = PERM_ALLOWED[occ] as u32;
        let mut m = 0;
        let mut i = 0;
        while i < 9 {
            if a & (1 << i) != 0 {
                let (r, k) = (i / 3, i % 3);
                m |= 7 << (9 * r + 3 * k);
            }
            i += 1;
        }
        t[occ] = m;
        occ += 1;
    }
    t
};

/// For a 9-bit row, its occupied boxes (3 bits).
pub(super) static ROW_BOXES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if v & (7 << (3 * k)) != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// For each cell of a band, the cells of its row and box (itself included).
pub(super) static ROW_BOX: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut c = 0;
    while c < 27 {
        let (r, col) = (c / 9, c % 9);
        t[c] = (0x1FF << (9 * r)) | ((7 << (3 * (col / 3))) * COLS_TO_BAND);
        c += 1;
    }
    t
};

/// For a set of minirows (bit `3r + k`, those of a digit's clues in a band): the cells of their rows and
/// boxes (low 27 bits), and in the top four bits how many minirows there are when no two share a row or a box,
/// else 15 (the clues of a digit, one a minirow, are fine when their count is this).
pub(super) static CLUE_SHADOW: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cells = 0u32;
        let (mut rows, mut boxes, mut n) = (0u32, 0u32, 0u32);
        let mut ok = true;
        let mut i = 0;
        while i < 9 {
            if m & (1 << i) != 0 {
                let (r, k) = (i / 3, i % 3);
                ok &= rows & (1 << r) == 0 && boxes & (1 << k) == 0;
                rows |= 1 << r;
                boxes |= 1 << k;
                n += 1;
                cells |= (0x1FF << (9 * r)) | ((7 << (3 * k)) * COLS_TO_BAND);
            }
            i += 1;
        }
        t[m] = cells | if ok { n } else { 15 } << 28;
        m += 1;
    }
    t
};

/// Occupied minirows of a band-digit word (bit `3r + k`).
#[inline(always)]
pub(super) fn minirows(w: u32) -> usize {
    ROW_BOXES[(w & 0x1FF) as usize] as usize
        | (ROW_BOXES[((w >> 9) & 0x1FF) as usize] as usize) << 3
        | (ROW_BOXES[(w >> 18) as usize] as usize) << 6
}

/// The cells of `w` that are alone in their row.
#[inline(always)]
pub(super) fn lone_in_row(w: u32) -> u32 {
    let mut out = 0;
    let mut r = 0;
    while r < 3 {
        let v = (w >> (9 * r)) & 0x1FF;
        if v & v.wrapping_sub(1) == 0 {
            out |= v << (9 * r);
        }
        r += 1;
    }
    out
}

/// Columns (9 bits) where `w` has a candidate.
#[inline(always)]
pub(super) fn columns(w: u32) -> u32 {
    (w | (w >> 9) | (w >> 18)) & 0x1FF
}

/// For each band-digit index `9b + d`, `(b, d)`.
pub(super) static BAND_DIGIT: [(u8, u8); 27] = {
    let mut t = [(0u8, 0u8); 27];
    let mut i = 0;
    while i < 27 {
        t[i] = ((i / 9) as u8, (i % 9) as u8);
        i += 1;
    }
    t
};

/// For each band, the other two.
pub(super) const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// For each cell of a band, the cells of its column in the band.
pub(super) static COLUMN: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut c = 0;
    while c < 27 {
        t[c] = COLS_TO_BAND << (c % 9);
        c += 1;
    }
    t
};

/// For each cell of a band, its column in the other two bands, in the layout of the words
/// [`State::pick_cell`](super::state::State::pick_cell) builds (the first other band in the low 32 bits, the
/// second above).
pub(super) static COLUMN_FAR: [u64; 27] = {
    let mut t = [0u64; 27];
    let mut c = 0;
    while c < 27 {
        let col = (COLS_TO_BAND << (c % 9)) as u64;
        t[c] = col | col << 32;
        c += 1;
    }
    t
};

/// The columns of stack `s` in the three bands, in the layout of
/// [`Isa::stack_minicols`](super::isa::Isa::stack_minicols).
pub(super) const STACK_COLS: [u32; 3] = [0x001C_0E07, 0x00E0_7038, 0x0703_81C0];
