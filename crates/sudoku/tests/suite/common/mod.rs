//! Helpers shared by the integration tests: data files, a slow reference solver.
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test

use std::path::PathBuf;

/// `../shared/sudoku-data` beside the repository, if present.
pub fn data_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sudoku-data");
    if d.is_dir() { Some(d) } else { None }
}

/// A notice on stderr that the test harness does not swallow (it captures only `print!`/`eprint!` of passing
/// tests): a skipped check must be seen.
pub fn notice(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "notice: {message}");
}

/// The puzzles of a data file of `../shared` (comment lines skipped), at most `limit`; `None` (with a visible
/// notice) when the data is absent. Only `#[ignore]`d tests use it: `.ci/run` runs them with `--ignored` where
/// `../shared` exists; every test that runs by default has data of its own in `tests/data`.
pub fn puzzles(rel: &str, limit: usize) -> Option<Vec<[u8; 81]>> {
    let Some(dir) = data_dir() else {
        notice(&format!(
            "../shared/sudoku-data is absent: {rel} not checked"
        ));
        return None;
    };
    Some(lines_of(&dir.join(rel), limit))
}

/// The puzzles of a data file of the repository (`tests/data`), at most `limit`.
pub fn repo_puzzles(name: &str, limit: usize) -> Vec<[u8; 81]> {
    lines_of(&repo_data_dir().join(name), limit)
}

/// `tests/data` of this crate: small sets made for the repository (how, in each file's header).
pub fn repo_data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn lines_of(path: &std::path::Path, limit: usize) -> Vec<[u8; 81]> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(limit)
        .map(|l| parse_line(&l[..81]))
        .collect()
}

/// An 81-character line to digits (anything but 1-9 is empty).
pub fn parse_line(line: &str) -> [u8; 81] {
    let mut v = [0u8; 81];
    for (x, ch) in v.iter_mut().zip(line.bytes()) {
        *x = if (b'1'..=b'9').contains(&ch) {
            ch - b'0'
        } else {
            0
        };
    }
    v
}

/// Digits to an 81-character line.
pub fn to_line(v: &[u8; 81]) -> String {
    v.iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// A deliberately simple backtracking counter (the independent reference for the tests): counts solutions up to
/// `limit`, keeping the first one found.
pub fn reference_count(v: &[u8; 81], limit: usize) -> (usize, Option<[u8; 81]>) {
    fn ok(g: &[u8; 81], i: usize, d: u8) -> bool {
        let (r, c) = (i / 9, i % 9);
        for k in 0..9 {
            if g[r * 9 + k] == d || g[k * 9 + c] == d {
                return false;
            }
        }
        let (br, bc) = (r / 3 * 3, c / 3 * 3);
        for rr in br..br + 3 {
            for cc in bc..bc + 3 {
                if g[rr * 9 + cc] == d {
                    return false;
                }
            }
        }
        true
    }
    fn rec(g: &mut [u8; 81], limit: usize, count: &mut usize, first: &mut Option<[u8; 81]>) {
        // Most constrained empty cell.
        let mut best = None;
        let mut best_n = 10;
        for i in 0..81 {
            if g[i] == 0 {
                let n = (1..=9).filter(|&d| ok(g, i, d)).count();
                if n < best_n {
                    best_n = n;
                    best = Some(i);
                }
            }
        }
        let Some(i) = best else {
            *count += 1;
            if first.is_none() {
                *first = Some(*g);
            }
            return;
        };
        for d in 1..=9 {
            if ok(g, i, d) {
                g[i] = d;
                rec(g, limit, count, first);
                g[i] = 0;
                if *count >= limit {
                    return;
                }
            }
        }
    }
    let mut g = *v;
    for i in 0..81 {
        if g[i] != 0 {
            let d = g[i];
            g[i] = 0;
            if !ok(&g, i, d) {
                return (0, None);
            }
            g[i] = d;
        }
    }
    let mut count = 0;
    let mut first = None;
    rec(&mut g, limit, &mut count, &mut first);
    (count, first)
}

/// Whether `sol` is a complete valid grid agreeing with the clues of `puzzle`.
pub fn is_solution_of(puzzle: &[u8; 81], sol: &[u8; 81]) -> bool {
    for i in 0..81 {
        if sol[i] == 0 || (puzzle[i] != 0 && puzzle[i] != sol[i]) {
            return false;
        }
    }
    for h in 0..27 {
        let mut seen = 0u16;
        for j in 0..9 {
            let i = match h {
                0..=8 => h * 9 + j,
                9..=17 => j * 9 + (h - 9),
                _ => {
                    let b = h - 18;
                    (b / 3) * 27 + (b % 3) * 3 + (j / 3) * 9 + j % 3
                }
            };
            seen |= 1 << sol[i];
        }
        if seen != 0x3fe {
            return false;
        }
    }
    true
}
