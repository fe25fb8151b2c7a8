//! The command reference (`docs/cli.md`) and the man pages (`docs/man/`) are generated from the clap definition
//! of the binary (`boardlab::args::Cli`); these tests fail when the committed copies are not what the program
//! says today. To regenerate them after changing a command, a flag or its help:
//!
//! ```sh
//! BOARDLAB_REGENERATE_DOCS=1 cargo test -p boardlab --test suite cli_reference
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use boardlab::args::Cli;
use clap::CommandFactory;

const REGENERATE: &str = "BOARDLAB_REGENERATE_DOCS";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn regenerate() -> bool {
    std::env::var_os(REGENERATE).is_some_and(|v| !v.is_empty() && v != "0")
}

fn stale(what: &str) -> String {
    format!(
        "{what} is not what the program says today; regenerate it with \
         `{REGENERATE}=1 cargo test -p boardlab --test suite cli_reference` and commit the result"
    )
}

/// The whole command reference in Markdown, every subcommand with its arguments and flags.
fn markdown() -> String {
    let options = clap_markdown::MarkdownOptions::new()
        .title("The boardlab command line".to_string())
        .show_footer(false);
    let body = clap_markdown::help_markdown_command_custom(&Cli::command(), &options);
    format!(
        "<!-- Generated from the program by crates/boardlab/tests/suite/cli_reference.rs; do not edit by hand. \
         Regenerate with `{REGENERATE}=1 cargo test -p boardlab --test suite cli_reference`. -->\n\n{}\n",
        body.trim_end()
    )
}

/// Every man page, by file name: `boardlab.1`, `boardlab-mouse.1`, `boardlab-mouse-solve.1`, ...
fn man_pages() -> BTreeMap<String, Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    clap_mangen::generate_to(Cli::command(), dir.path()).unwrap();
    read_dir(dir.path())
}

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".1"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_command_reference_is_current() {
    let path = root().join("docs/cli.md");
    let want = markdown();
    if regenerate() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "{}", stale("docs/cli.md"));
}

#[test]
fn the_man_pages_are_current() {
    let dir = root().join("docs/man");
    let want = man_pages();
    if regenerate() {
        for old in read_dir(&dir).keys() {
            std::fs::remove_file(dir.join(old)).unwrap();
        }
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in &want {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        return;
    }
    let have = read_dir(&dir);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&have),
        names(&want),
        "{}",
        stale("the set of pages in docs/man/")
    );
    for (name, bytes) in &want {
        assert!(
            have[name] == *bytes,
            "{}",
            stale(&format!("docs/man/{name}"))
        );
    }
}

#[test]
fn the_reference_covers_every_subcommand() {
    // Not a copy of the generator: a check that what it wrote names every command the program has.
    let text = markdown();
    fn walk(cmd: &clap::Command, path: &str, text: &str, pages: &BTreeMap<String, Vec<u8>>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let full = format!("{path} {}", sub.get_name());
            assert!(
                text.contains(&format!("`{full}`")),
                "docs/cli.md lacks `{full}`"
            );
            let page = format!("{}.1", full.replace(' ', "-"));
            assert!(pages.contains_key(&page), "no man page {page}");
            walk(sub, &full, text, pages);
        }
    }
    let cmd = Cli::command();
    let pages = man_pages();
    assert!(pages.contains_key("boardlab.1"));
    walk(&cmd, "boardlab", &text, &pages);
    for game in ["mouse solve", "peg count", "sudoku generate", "serve"] {
        assert!(text.contains(&format!("`boardlab {game}`")), "{game}");
    }
}
