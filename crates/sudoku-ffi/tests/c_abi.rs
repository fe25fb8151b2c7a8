//! The C interface as C sees it: `tests/c/ffi_check.c` is compiled (with the `cc` crate's choice of compiler)
//! against `include/boardlab_sudoku.h` and the static library cargo built, run, and its answers compared with
//! the independent reference solver. Skips with a notice where no C compiler works.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sudoku::Grid;
use sudoku::solver::reference;

/// The static library cargo built for this test run: beside the test binary (in `deps/`) or one level up.
fn static_lib() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    [deps, deps.parent()?]
        .iter()
        .map(|d| d.join("libboardlab_sudoku.a"))
        .find(|p| p.is_file())
}

/// Compiles and links the C check program; `None` (with a notice) where that cannot be done here.
fn build_c_program() -> Option<PathBuf> {
    let Some(lib) = static_lib() else {
        eprintln!(
            "NOTICE: libboardlab_sudoku.a not found beside the test binary; skipping the C test"
        );
        return None;
    };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = env!("SUDOKU_FFI_TARGET");
    let compiler = cc::Build::new()
        .target(target)
        .host(env!("SUDOKU_FFI_HOST"))
        .opt_level(1)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .try_get_compiler();
    let compiler = match compiler {
        Ok(c) => c,
        Err(e) => {
            eprintln!("NOTICE: no C compiler ({e}); skipping the C test");
            return None;
        }
    };
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sudoku_ffi_check");
    let mut cmd = compiler.to_command();
    cmd.arg("-std=c99")
        .arg("-Wall")
        .arg("-Wextra")
        .arg("-Werror")
        .arg("-I")
        .arg(manifest.join("include"))
        .arg(manifest.join("tests/c/ffi_check.c"))
        .arg(&lib)
        .arg("-o")
        .arg(&out);
    // What a Rust static library needs from the system libraries on the usual targets.
    if target.contains("linux") {
        cmd.args(["-lpthread", "-ldl", "-lm", "-lgcc_s", "-lc"]);
    } else if target.contains("apple") {
        cmd.args(["-lSystem", "-lc", "-lm"]);
    }
    match cmd.output() {
        Ok(o) if o.status.success() => Some(out),
        Ok(o) => panic!(
            "the C check program does not build against the header and library:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            eprintln!("NOTICE: cannot run the C compiler ({e}); skipping the C test");
            None
        }
    }
}

/// Puzzles for the stdin part: a few made here (unique, several solutions, none, a bad byte), and Norvig's
/// top 95 when the shared data is beside the repository.
fn puzzles() -> Vec<String> {
    let mut out = vec![
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .to_string(),
        // Only two rows given: many solutions.
        format!("123456789456789123{}", ".".repeat(63)),
        // A 1 twice in column 1.
        format!("1........1{}", ".".repeat(71)),
        // A bad byte at index 3.
        format!("123?{}", ".".repeat(77)),
    ];
    let top95 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sudoku-data/norvig_top95.txt");
    match std::fs::read_to_string(&top95) {
        Ok(text) => out.extend(text.lines().filter(|l| l.len() >= 81).map(str::to_string)),
        Err(_) => eprintln!(
            "NOTICE: {} is absent; the C test uses its own puzzles only",
            top95.display()
        ),
    }
    out
}

#[test]
fn c_program_agrees_with_the_reference_solver() {
    let Some(program) = build_c_program() else {
        return;
    };
    let puzzles = puzzles();
    let mut child = Command::new(&program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the C check program");
    {
        let mut stdin = child.stdin.take().unwrap();
        for p in &puzzles {
            writeln!(stdin, "{p}").unwrap();
        }
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "the C checks failed:\n{stdout}");
    assert!(stdout.contains("all C checks passed"), "{stdout}");

    let answers: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("line: "))
        .collect();
    assert_eq!(answers.len(), puzzles.len(), "{stdout}");
    for (p, answer) in puzzles.iter().zip(&answers) {
        let bytes = &p.as_bytes()[..81];
        if bytes.iter().any(|&b| !(b.is_ascii_digit() || b == b'.')) {
            assert_eq!(*answer, "invalid at 3", "{p}");
            continue;
        }
        let digits: Vec<u8> = bytes
            .iter()
            .map(|&b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let grid = Grid::from_digits_allow_conflicts(digits.try_into().unwrap()).unwrap();
        let (count, first) = reference::count_solutions_with_first(&grid, 2);
        let (n, sol) = answer.split_once(' ').unwrap();
        assert_eq!(n.parse::<u64>().unwrap(), count, "{p}");
        match first {
            None => assert_eq!(sol, "-".repeat(81), "{p}"),
            Some(_) => {
                let s: Grid = sol.parse().unwrap();
                assert_eq!(s.check_solution_of(&grid), Ok(()), "{p}");
            }
        }
    }
}
