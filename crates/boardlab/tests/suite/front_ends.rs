//! The front ends (the command line in `src/cli/`, the terminal interface in `src/tui/`, the web server in
//! `src/serve/`) are thin views over `play`, the engines and the shared answers: none imports another. This test
//! reads their source and fails on a path into another front end.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly on purpose

use std::fs;
use std::path::{Path, PathBuf};

const FRONT_ENDS: [&str; 3] = ["cli", "serve", "tui"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The other front ends a line of Rust names by path (`crate::serve::...`, `crate::{cli, ...}`,
/// `boardlab::tui::...`).
fn named(line: &str, others: &[&str]) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    for root in ["crate::", "boardlab::"] {
        for (i, _) in code.match_indices(root) {
            let rest = &code[i + root.len()..];
            let group = if let Some(g) = rest.strip_prefix('{') {
                g.split('}').next().unwrap_or("")
            } else {
                rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")
            };
            for other in others {
                if group
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|w| w == *other)
                {
                    found.push(format!("{root}{other}"));
                }
            }
        }
    }
    found
}

#[test]
fn no_front_end_imports_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    let mut files = 0;
    for fe in FRONT_ENDS {
        let others: Vec<&str> = FRONT_ENDS.iter().copied().filter(|o| *o != fe).collect();
        let mut list = Vec::new();
        sources(&src.join(fe), &mut list);
        assert!(!list.is_empty(), "no source under src/{fe}");
        for path in list {
            files += 1;
            let text = fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                for what in named(line, &others) {
                    bad.push(format!("{}:{}: {what}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(files > 20, "only {files} front-end files read");
    assert!(
        bad.is_empty(),
        "front ends import each other:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_sees_each_form_of_path() {
    let others = ["serve", "tui"];
    assert_eq!(
        named("use crate::serve::mouse::TableInfo;", &others),
        ["crate::serve"]
    );
    assert_eq!(named("use crate::{output, tui};", &others), ["crate::tui"]);
    assert_eq!(
        named("    crate::serve::sudoku::fresh_seed()", &others),
        ["crate::serve"]
    );
    assert!(named("use crate::answers::mouse::TableInfo;", &others).is_empty());
    assert!(named("// crate::serve is a front end", &others).is_empty());
    assert!(named("use crate::server_tools;", &others).is_empty());
}
