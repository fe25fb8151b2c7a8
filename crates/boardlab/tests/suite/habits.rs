//! Habits of the whole workspace that a compiler does not check by itself: crates without unsafe code forbid it,
//! and the front ends write to stdout only through the closed-pipe-safe path (`outln!`, `out!`, or a writer
//! whose error is passed up), never with `print!`/`println!`, which panic when the reader has gone.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The code of a source file without its comments (line comments, and doc comments, which may quote code).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn uses_unsafe(code: &str) -> bool {
    [
        "unsafe {",
        "unsafe{",
        "unsafe fn",
        "unsafe impl",
        "unsafe extern",
    ]
    .iter()
    .any(|w| code.contains(w))
}

#[test]
fn crates_without_unsafe_code_forbid_it() {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    crates.sort();
    assert!(crates.len() >= 7, "{crates:?}");
    let mut checked = 0;
    for krate in &crates {
        let src = krate.join("src");
        // Each crate root (the library, and a binary whose own file is not the library) decides for the
        // modules below it; the binary's `main.rs` is counted apart from the library's modules.
        let lib = src.join("lib.rs");
        let main = src.join("main.rs");
        let lib_unsafe = sources(&src)
            .iter()
            .filter(|p| **p != main)
            .any(|p| uses_unsafe(&code(&std::fs::read_to_string(p).unwrap())));
        for (root_file, has_unsafe) in [
            (&lib, lib_unsafe),
            (
                &main,
                main.is_file() && uses_unsafe(&code(&std::fs::read_to_string(&main).unwrap())),
            ),
        ] {
            if !root_file.is_file() || has_unsafe {
                continue;
            }
            let text = std::fs::read_to_string(root_file).unwrap();
            // A binary next to a library only declares its own items: forbid there too.
            assert!(
                text.contains("#![forbid(unsafe_code)]"),
                "{} has no unsafe code and should say #![forbid(unsafe_code)]",
                root_file.display()
            );
            checked += 1;
        }
    }
    // play at least (peg-cluster calls statvfs, the engines have SIMD kernels, boardlab's library calls signal,
    // kill and getrlimit).
    assert!(checked >= 1, "only {checked} crate roots checked");
}

#[test]
fn front_ends_write_stdout_through_the_pipe_safe_path() {
    let src = root().join("crates/boardlab/src");
    let mut found = Vec::new();
    for file in sources(&src) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in code(&text).lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("print!(")
                || l.starts_with("println!(")
                || line.contains(" print!(")
                || line.contains(" println!(")
            {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "stdout written with print!/println!, which panic on a closed pipe; use outln!/out! and pass the \
         error up:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_unsafe_block_says_why_it_is_sound() {
    let mut found = Vec::new();
    let mut blocks = 0;
    for file in sources(&root().join("crates")) {
        if !file.components().any(|c| c.as_os_str() == "src") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            // A file's unit tests (`#[cfg(test)] mod ...`) sit at its end: they are not production code.
            if line.trim_start().starts_with("#[cfg(test)]")
                && lines
                    .get(i + 1)
                    .is_some_and(|next| next.trim_start().starts_with("mod "))
            {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            if !(code.contains("unsafe {") || code.contains("unsafe impl")) {
                continue;
            }
            blocks += 1;
            // The comment stands on the lines just above (or on the line itself).
            let above = &lines[i.saturating_sub(8)..=i];
            if !above.iter().any(|l| l.contains("SAFETY")) {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        blocks >= 10,
        "only {blocks} unsafe blocks found: the scan is broken"
    );
    assert!(
        found.is_empty(),
        "unsafe blocks without a `// SAFETY:` comment just above:\n{}",
        found.join("\n")
    );
}
