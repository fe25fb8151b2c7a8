//! The shell of the terminal interface: title screen, help, terminal size, colours, save files, the command
//! line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tui_common::{Harness, config};
use assert_cmd::Command;
use boardlab::tui::theme::Theme;
use boardlab::tui::{App, Config};
use play::GameKind;
use predicates::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

#[test]
fn title_screen() {
    let h = Harness::title();
    insta::assert_snapshot!(h.screen());
}

#[test]
fn title_navigation_wraps_and_help_opens_and_closes() {
    let mut h = Harness::title();
    assert!(h.shows("▶ Mouse & Cats"));
    h.keys("<Up>");
    assert!(h.shows("▶ Quit"), "up from the first row wraps to the last");
    h.keys("<Up>");
    assert!(h.shows("▶ Help and rules"));
    h.keys("<Enter>");
    assert!(
        h.shows("Title screen keys") || h.shows("↓ more"),
        "{}",
        h.screen()
    );
    insta::assert_snapshot!("help_from_title", h.screen());
    // More than enough pages: the scroll stops at the end.
    h.keys("<PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn>");
    insta::assert_snapshot!("help_from_title_scrolled_to_the_end", h.screen());
    h.keys("x");
    assert!(h.shows("Choose a game"), "any other key closes the help");
    h.keys("?");
    assert!(h.shows("┌ Help"));
    h.keys("<Esc>");
    assert!(h.shows("Choose a game"));
    assert!(!h.app.should_quit());
    h.keys("q");
    assert!(h.app.should_quit());
}

#[test]
fn ctrl_c_quits_from_anywhere() {
    let mut h = Harness::title();
    h.keys("?");
    h.keys("<C-c>");
    assert!(h.app.should_quit());
}

#[test]
fn a_small_terminal_says_so_and_only_q_works() {
    let mut h = Harness::title();
    h.resize(79, 24);
    insta::assert_snapshot!("too_small", h.screen());
    assert!(h.shows("Terminal too small"));
    assert!(h.shows("It is 79x24."));
    h.keys("?<Down><Enter>");
    assert!(h.shows("Terminal too small"));
    h.resize(80, 23);
    assert!(h.shows("It is 80x23."));
    h.resize(80, 24);
    assert!(h.shows("Choose a game"), "back to normal at 80x24");
    assert!(
        h.shows("▶ Mouse & Cats"),
        "keys pressed while too small did nothing:\n{}",
        h.screen()
    );
    assert!(
        !h.shows("┌ Help"),
        "keys pressed while too small did nothing:\n{}",
        h.screen()
    );
    h.resize(40, 10);
    h.keys("q");
    assert!(h.app.should_quit());
}

#[test]
fn larger_terminals_are_used() {
    let mut h = Harness::title();
    h.resize(120, 40);
    let screen = h.screen();
    assert!(screen.contains("Choose a game"));
    assert_eq!(screen.lines().count(), 40);
    assert!(screen.lines().next().unwrap().ends_with("? help  q quit"));
}

fn colours_used(theme: Theme) -> usize {
    let (mut cfg, _dir) = config();
    cfg.theme = theme;
    let mut app = App::new(cfg, GameKind::Mouse);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| app.render(f)).unwrap();
    term.backend()
        .buffer()
        .content()
        .iter()
        .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
        .count()
}

#[test]
fn monochrome_theme_draws_without_colour() {
    assert_eq!(colours_used(Theme::mono()), 0);
    assert!(colours_used(Theme::colour()) > 100);
}

#[test]
fn loading_a_foreign_or_broken_file_gives_a_message() {
    let (cfg, dir) = config();
    let cases: [(&str, &str); 5] = [
        (
            "garbage.json",
            "is not a boardlab save file: not valid JSON (line 1, column 2",
        ),
        (
            "other.json",
            "is not a boardlab save file: it has no \"format\": \"boardlab-save\" marker",
        ),
        (
            "future.json",
            "was saved in format version 99; this boardlab reads versions 1 to 4",
        ),
        ("chess.json", "it holds an unknown game \"chess\""),
        (
            "empty.json",
            "is not a boardlab save file: the file is empty",
        ),
    ];
    let contents = [
        "this is not json",
        "{\"name\": \"a package.json perhaps\"}",
        "{\"format\":\"boardlab-save\",\"version\":99,\"game\":\"peg\",\"state\":{}}",
        "{\"format\":\"boardlab-save\",\"version\":1,\"game\":\"chess\",\"state\":{}}",
        "",
    ];
    for ((name, want), text) in cases.iter().zip(contents) {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let err = App::load(cfg.clone(), &path)
            .err()
            .expect("must fail")
            .to_string();
        assert!(err.contains(want), "{name}: {err}");
        assert!(err.contains(name), "the message names the file: {err}");
    }
    let err = App::load(cfg, &dir.path().join("missing.json"))
        .err()
        .unwrap()
        .to_string();
    assert!(err.ends_with("missing.json: no such file"), "{err}");
}

#[test]
fn a_broken_default_save_is_reported_on_the_title_screen() {
    let (cfg, dir) = config();
    let save_dir = cfg.save_dir.clone();
    std::fs::create_dir_all(&save_dir).unwrap();
    std::fs::write(save_dir.join("peg.json"), "{\"format\":\"boardlab-save\"").unwrap();
    let mut h = Harness::with(App::new(cfg, GameKind::Mouse), dir);
    assert!(h.shows("Resume saved Peg solitaire"));
    h.select("Resume saved Peg solitaire");
    h.keys("<Enter>");
    assert!(
        h.shows("peg.json is not a boardlab save file: not valid JSON"),
        "{}",
        h.screen()
    );
    assert!(h.shows("Choose a game"));
    assert!(!h.app.should_quit());
}

#[test]
fn play_load_reports_a_bad_file_on_stderr_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, "[1, 2, 3]").unwrap();
    Command::cargo_bin("boardlab")
        .unwrap()
        .args(["play", "--load"])
        .arg(&path)
        .assert()
        .failure()
        .stdout("")
        .stderr(predicate::str::contains(
            "bad.json is not a boardlab save file: the JSON is not an object",
        ));
}

#[test]
fn play_without_a_terminal_explains_instead_of_drawing() {
    Command::cargo_bin("boardlab")
        .unwrap()
        .args(["play", "peg"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("needs a terminal"));
    Command::cargo_bin("boardlab")
        .unwrap()
        .assert()
        .failure()
        .stderr(predicate::str::contains("needs a terminal"));
}

#[test]
fn play_rejects_an_unknown_game() {
    Command::cargo_bin("boardlab")
        .unwrap()
        .args(["play", "chess"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("invalid value 'chess'"));
}

#[allow(dead_code)]
fn unused(_: Config) {}
