//! The examples of the README and of the guides (`docs/guide/*.md`) run as written: every `$ boardlab ...` line of
//! a `console` or `text` block is run, and
//! what follows it in the block must match the output (stdout, then stderr). In the expected text a line that
//! is only `…` (or `...`) stands for any number of lines, and `…` within a line for any text (timings,
//! machine-dependent figures). Examples that cannot run here are skipped by rule: interactive ones (`mouse play`), and ones that
//! write or read files the README only imagines (`> file`, `puzzles.txt`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The examples of the README, in order.
fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (i, line) in readme.lines().enumerate() {
        if let Some(lang) = line.strip_prefix("```") {
            if in_block {
                out.extend(current.take());
                in_block = false;
            } else {
                in_block = matches!(lang.trim(), "console" | "text");
            }
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some(Example {
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(ex) = current.as_mut() {
            ex.expected.push(line.to_string());
        }
    }
    out
}

/// Split a command line as a POSIX shell would for the simple forms the README uses: words, '...' and "...".
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut any = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

/// Whether `actual` lines match `expected` lines with the `…` wildcards.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "…" || e.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, actual[0]) && matches(rest, &actual[1..])
        }
    }
}

fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split('…').collect();
    if parts.len() == 1 {
        return expected.trim_end() == actual.trim_end();
    }
    let actual = actual.trim_end();
    let Some(mut rest) = actual.strip_prefix(parts[0]) else {
        return false;
    };
    let last = parts[parts.len() - 1].trim_end();
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Examples too slow for the default test run on a loaded 2-core machine (a whole English enumeration with
/// its finishable table: about 1.5 s in a release build, over a minute in the test profile under load). They
/// run in the `#[ignore]`d test below, which `.ci/run` runs.
const SLOW: &[&str] = &["boardlab peg count --finish d4"];

#[test]
fn readme_examples_match_the_program() {
    run_examples(false);
}

#[test]
#[ignore = "a whole enumeration; .ci/run runs it with --ignored"]
fn readme_slow_examples_match_the_program() {
    run_examples(true);
}

/// The documents whose examples run: the README, then every guide in `docs/guide/`, by name.
fn documents(root: &std::path::Path) -> Vec<String> {
    let mut guides: Vec<String> = std::fs::read_dir(root.join("docs/guide"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/guide/{name}"))
        .collect();
    guides.sort();
    assert!(guides.len() >= 5, "the guides are missing: {guides:?}");
    let mut docs = vec!["README.md".to_string()];
    docs.extend(guides);
    docs
}

fn run_examples(slow: bool) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in documents(&root) {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        for ex in examples(&text) {
            if let Some(outcome) = run_example(&root, &ex, slow) {
                ran += 1;
                if let Err(msg) = outcome {
                    failures.push(format!("{doc} line {}: {msg}", ex.line));
                }
            }
        }
    }
    assert!(
        ran >= if slow { 1 } else { 25 },
        "only {ran} examples of the README and the guides ran"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Run one example; `None` when it is skipped (by rule, or not of this run's speed), else whether it matched.
fn run_example(root: &std::path::Path, ex: &Example, slow: bool) -> Option<Result<(), String>> {
    // `echo 'TEXT' | boardlab ...` feeds TEXT on stdin.
    let (stdin, command) = match ex.command.split_once(" | ") {
        Some((echo, rest)) if echo.starts_with("echo ") => {
            let w = words(echo);
            (Some(format!("{}\n", w[1..].join(" "))), rest.to_string())
        }
        _ => (None, ex.command.clone()),
    };
    if SLOW.contains(&command.as_str()) != slow {
        return None;
    }
    let w = words(&command);
    if w.first().map(String::as_str) != Some("boardlab")
        || command.contains('>')
        || w.iter().any(|a| a.ends_with(".txt"))
        || w.get(1..3) == Some(&["mouse".to_string(), "play".to_string()])
    {
        return None;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(&w[1..])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = &stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let actual: Vec<&str> = text.lines().collect();
    if matches(&ex.expected, &actual) {
        Some(Ok(()))
    } else {
        Some(Err(format!(
            "$ {}\n--- expected\n{}\n--- got\n{}",
            ex.command,
            ex.expected.join("\n"),
            text
        )))
    }
}

#[test]
fn the_matcher_itself() {
    let e = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&e("a\n…\nd"), &["a", "b", "c", "d"]));
    assert!(matches(&e("a\n…"), &["a"]));
    assert!(matches(&e("a\n...\nd"), &["a", "d"]));
    assert!(!matches(&e("a\nb"), &["a", "c"]));
    assert!(line_matches(
        "took … ms on … threads",
        "took 12.5 ms on 2 threads"
    ));
    assert!(!line_matches("took … ms", "took 12 s"));
    assert!(line_matches("..34......9.87", "..34......9.87"));
    assert_eq!(
        words("boardlab mouse show \"mouse=D4 cats=A5\" --x"),
        ["boardlab", "mouse", "show", "mouse=D4 cats=A5", "--x"]
    );
}
