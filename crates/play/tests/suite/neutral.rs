//! The rule of this crate: no terminal, web, thread-pool, progress-bar or command-line code. Its dependencies are
//! the engine crates and serde, serde_json and thiserror only, and no source file names a forbidden crate or
//! starts a thread (background work goes to the caller's runner).

use std::path::{Path, PathBuf};

/// The only dependencies allowed.
const ALLOWED: &[&str] = &[
    "mousecats",
    "peg",
    "sudoku",
    "serde",
    "serde_json",
    "thiserror",
];

/// Names that must not appear in the code (comments aside).
const FORBIDDEN: &[&str] = &[
    "ratatui",
    "crossterm",
    "axum",
    "tokio",
    "hyper",
    "tower",
    "indicatif",
    "clap",
    "rayon",
    "thread::spawn",
    "thread::Builder",
    "std::thread",
];

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names of the `[dependencies]` (and target-specific dependencies) of a Cargo.toml.
fn dependencies(toml: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_deps = false;
    for line in toml.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            let section = line.trim_matches(['[', ']']);
            in_deps = section == "dependencies"
                || section.ends_with(".dependencies") && !section.ends_with("dev-dependencies")
                || section == "build-dependencies";
            // A dependency written as its own table: [dependencies.name]
            if let Some(name) = section.strip_prefix("dependencies.") {
                names.push(name.to_string());
                in_deps = false;
            }
            continue;
        }
        if in_deps
            && !line.starts_with('#')
            && let Some((name, _)) = line.split_once('=')
        {
            // `name = ...`, `name.workspace = true`: crate names have no dots.
            let name = name.trim().trim_matches('"');
            names.push(name.split('.').next().unwrap_or(name).to_string());
        }
    }
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn only_engines_and_serde_are_dependencies() {
    let toml = std::fs::read_to_string(manifest_dir().join("Cargo.toml")).unwrap_or_default();
    let deps = dependencies(&toml);
    assert!(
        deps.iter().any(|d| d == "sudoku"),
        "the manifest was not read: {deps:?}"
    );
    for d in &deps {
        assert!(
            ALLOWED.contains(&d.as_str()),
            "crates/play may not depend on {d} (allowed: {ALLOWED:?}; see DEVELOPERS.md)"
        );
    }
}

#[test]
fn no_source_file_uses_a_front_end_crate_or_a_thread() {
    let mut files = Vec::new();
    rust_files(&manifest_dir().join("src"), &mut files);
    assert!(files.len() >= 5, "the sources were not found: {files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for bad in FORBIDDEN {
                assert!(
                    !code.contains(bad),
                    "{}:{}: `{bad}` in the play crate (no terminal, web, thread or command-line code here; see \
                     DEVELOPERS.md): {line}",
                    f.display(),
                    i + 1
                );
            }
        }
    }
}

#[test]
fn the_manifest_reader_sees_a_forbidden_dependency() {
    let toml = "[package]\nname = \"x\"\n[dependencies]\nserde = \"1\"\nratatui.workspace = true\n\
                [dev-dependencies]\nproptest = \"1\"\n[target.'cfg(unix)'.dependencies]\ntokio = \"1\"\n\
                [dependencies.clap]\nversion = \"4\"\n";
    let deps = dependencies(toml);
    assert_eq!(deps, ["serde", "ratatui", "tokio", "clap"]);
}
