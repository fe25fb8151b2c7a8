//! Sessions name what the player can do next as data (`play::NextAction`), never as a key: each front end
//! renders it its own way. This test reads every string literal in `play`'s source and fails on a sentence that
//! names a key ("n: new game", "u takes moves back", "p for digits", "a check (k)").

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly on purpose

use std::fs;
use std::path::{Path, PathBuf};

/// Verbs that follow a key in an instruction ("h shows a solution", "b restarts").
const VERBS: [&str; 14] = [
    "shows", "takes", "restarts", "starts", "brings", "plays", "fills", "refills", "toggles",
    "opens", "quits", "saves", "undoes", "leaves",
];

fn key_like(w: &str) -> bool {
    w.len() == 1
        && w.chars()
            .all(|c| c.is_ascii_lowercase() || c == '?' || c == '.')
}

/// The first place in `text` that names a key, if any.
fn names_a_key(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let core = w.trim_start_matches('(');
        let next = words.get(i + 1).copied().unwrap_or("");
        let bare = core.trim_end_matches([',', ';', '.']);
        if w.starts_with('(')
            && bare.ends_with(')')
            && key_like(bare.trim_start_matches('(').trim_end_matches(')'))
        {
            return Some(format!("\"{w}\""));
        }
        if let Some(k) = core.strip_suffix(':')
            && key_like(k)
            && k != "."
        {
            return Some(format!("\"{w} {next}\""));
        }
        if key_like(core) && ((next == "for" && core != "a") || VERBS.contains(&next)) {
            return Some(format!("\"{w} {next}\""));
        }
    }
    None
}

/// The string literals of a Rust source, with their line numbers (comments skipped).
fn literals(source: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = source.char_indices().peekable();
    let mut line = 1;
    while let Some((_, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            '/' if chars.peek().is_some_and(|&(_, n)| n == '/') => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '\'' => {
                // A char literal ('"', '\'') or a lifetime: skip a quoted character.
                let rest: String = chars.clone().take(3).map(|(_, c)| c).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            '"' => {
                let start = line;
                let mut lit = String::new();
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some((_, n)) = chars.next() {
                                if n == '\n' {
                                    line += 1;
                                    // A continued line: the indentation is not part of the text.
                                    while chars.peek().is_some_and(|&(_, c)| c == ' ') {
                                        chars.next();
                                    }
                                } else {
                                    lit.push(n);
                                }
                            }
                        }
                        '"' => break,
                        '\n' => {
                            line += 1;
                            lit.push(' ');
                        }
                        c => lit.push(c),
                    }
                }
                out.push((start, lit));
            }
            _ => {}
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_message_of_play_names_a_key() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 20, "only {} files", files.len());
    let mut bad = Vec::new();
    let mut seen = 0;
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        for (line, lit) in literals(&text) {
            seen += 1;
            if let Some(what) = names_a_key(&lit) {
                bad.push(format!("{}:{line}: {what} in {lit:?}", f.display()));
            }
        }
    }
    assert!(seen > 300, "only {seen} string literals read");
    assert!(
        bad.is_empty(),
        "messages that name keys:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_finds_keys_in_every_form_the_old_messages_had() {
    for text in [
        "Game over: the mouse is trapped. The cats win! n: new game, u: undo.",
        "The game is over: n starts a new one, u takes moves back",
        "The puzzle is solved. n for a new one, q for the title screen.",
        "Fill the grid; ? shows the rules.",
        "A solution from here in 3 jumps: next d2-d4. . plays it, a plays them all.",
        "Back at the start (u brings the jumps back)",
        "Pencil mode: digits now toggle pencil marks (p for digits)",
        "when a check (k) finds an entry",
        "leave out the digit that belongs there; a refills every cell's marks.",
        "positions; h shows a solution from here.",
    ] {
        assert!(names_a_key(text).is_some(), "missed: {text}");
    }
    for text in [
        "Game over: the mouse is trapped. The cats win!",
        "A solution from here in 3 jumps: next d2-d4.",
        "a check finds an entry the solution does not have there",
        "Hint: E1-F2 (a 10-ply search: the cats win in 12 plies).",
        "there is no cell 81: cells are numbered 0 to 80, row by row",
        "the field \"a\" is missing",
    ] {
        assert_eq!(names_a_key(text), None, "{text}");
    }
    let lits = literals("let a = '\"'; // \"not\"\nlet s = \"one \\\n    two\";\n");
    assert_eq!(lits, vec![(2, "one two".to_string())]);
}
