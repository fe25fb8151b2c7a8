//! Smoke test of the real binary in a real pseudo-terminal: `boardlab` runs inside a detached tmux session,
//! keys are sent with `tmux send-keys`, and the screen is read back with `tmux capture-pane`.
//!
//! tmux is installed by `.ci/run`; where it is missing the tests print a notice and skip.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A private tmux server (its own socket) running one session; killed on drop.
struct Tmux {
    socket: String,
    _dir: tempfile::TempDir,
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

fn have_tmux() -> bool {
    match Command::new("tmux").arg("-V").output() {
        Ok(out) if out.status.success() => true,
        _ => {
            eprintln!("NOTICE: tmux is not installed; skipping the pseudo-terminal smoke test");
            false
        }
    }
}

impl Tmux {
    /// Start `boardlab ARGS` in a 100x30 pane; the shell around it prints its exit code when it ends.
    fn start(args: &str) -> Tmux {
        Tmux::start_with("", args)
    }

    /// As [`Tmux::start`], with extra `NAME=value` environment settings.
    fn start_with(env: &str, args: &str) -> Tmux {
        let dir = tempfile::tempdir().unwrap();
        let socket = format!(
            "boardlab-smoke-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let bin = env!("CARGO_BIN_EXE_boardlab");
        let data = dir.path().join("data");
        let script = format!(
            "env -u NO_COLOR {env} XDG_DATA_HOME='{}' '{}' {args}; echo \"boardlab exited with $?\"; echo \"tty mode: $(stty -a | grep -o -- '-*icanon')\"; sleep 600",
            data.display(),
            bin
        );
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "100",
                "-y",
                "30",
            ])
            .args(["-s", "smoke", "sh", "-c", &script])
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session failed");
        Tmux { socket, _dir: dir }
    }

    fn data_dir(&self) -> &Path {
        self._dir.path()
    }

    /// Send keys in tmux's notation (`Down`, `Enter`, `Escape`, `C-c`, or literal text).
    fn send(&self, keys: &[&str]) {
        for k in keys {
            let status = Command::new("tmux")
                .args(["-L", &self.socket, "send-keys", "-t", "smoke"])
                .arg(k)
                .status()
                .unwrap();
            assert!(status.success());
            // Give the program a moment to read each key as its own event.
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    /// The visible screen as text.
    fn capture(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-t", "smoke"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wait (up to 20 s) until the screen shows `text`; the screen at that moment.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if screen.contains(text) {
                return screen;
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("timed out waiting for {text:?}; the screen shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

#[test]
fn title_screen_help_and_quit_restore_the_terminal() {
    if !have_tmux() {
        return;
    }
    let t = Tmux::start("");
    let screen = t.wait_for("Choose a game");
    assert!(screen.contains("Mouse & Cats"));
    assert!(screen.contains("Peg solitaire"));
    assert!(screen.contains("Sudoku"));
    t.send(&["?"]);
    t.wait_for("┌ Help");
    t.send(&["Escape"]);
    t.wait_for("Choose a game");
    t.send(&["q"]);
    let screen = t.wait_for("tty mode:");
    assert!(screen.contains("boardlab exited with 0"), "{screen}");
    // The alternate screen is gone: none of the interface is left on the terminal, and the terminal is back
    // in line mode.
    assert!(!screen.contains("Choose a game"), "{screen}");
    assert!(screen.contains("tty mode: icanon"), "{screen}");
    assert!(t.data_dir().exists());
}

#[test]
fn ctrl_c_quits_cleanly() {
    if !have_tmux() {
        return;
    }
    let t = Tmux::start("");
    t.wait_for("Choose a game");
    t.send(&["C-c"]);
    let screen = t.wait_for("tty mode:");
    assert!(screen.contains("boardlab exited with 0"), "{screen}");
    assert!(!screen.contains("Choose a game"), "{screen}");
    assert!(screen.contains("tty mode: icanon"), "{screen}");
}

#[test]
fn a_panic_restores_the_terminal_and_shows_the_message() {
    if !have_tmux() {
        return;
    }
    // BOARDLAB_TEST_PANIC_KEY makes F12 panic on purpose, to test the panic hook.
    let t = Tmux::start_with("BOARDLAB_TEST_PANIC_KEY=1", "");
    t.wait_for("Choose a game");
    t.send(&["F12"]);
    let screen = t.wait_for("tty mode:");
    assert!(screen.contains("boardlab exited with 101"), "{screen}");
    assert!(screen.contains("deliberate panic"), "{screen}");
    assert!(!screen.contains("Choose a game"), "{screen}");
    assert!(screen.contains("tty mode: icanon"), "{screen}");
}

#[test]
fn sudoku_in_a_real_terminal() {
    if !have_tmux() {
        return;
    }
    let t = Tmux::start("play sudoku --seed 3");
    let screen = t.wait_for("Cells left");
    assert!(screen.contains("Sudoku · medium"), "{screen}");
    // 100x30 is too low for the large grid: the 80x24 one is drawn, centred.
    assert!(screen.contains("┌──1────2────3──┬"), "{screen}");
    t.send(&["p", "1", "2"]);
    t.wait_for("Pencil mark 2 added to r5c5");
    t.send(&[":", "9 9 0", "Enter"]);
    t.wait_for("r9c9 is");
    t.send(&["Escape", "h"]);
    t.wait_for("Hint:");
    t.send(&["q"]);
    t.wait_for("Leave this game?");
    t.send(&["y"]);
    t.wait_for("Choose a game");
    t.send(&["q"]);
    let screen = t.wait_for("tty mode:");
    assert!(screen.contains("boardlab exited with 0"), "{screen}");
}

#[test]
fn mouse_and_cats_from_the_title_screen() {
    if !have_tmux() {
        return;
    }
    let t = Tmux::start("");
    t.wait_for("Choose a game");
    // Mouse & Cats is the first game: Enter starts it with the default options.
    t.send(&["Enter"]);
    let screen = t.wait_for("Turn    the mouse (you)");
    assert!(
        screen.contains("Mouse & Cats · you: mouse · level 5"),
        "{screen}"
    );
    // Pick up the mouse on E1 and put it on F2 with the cursor; the engine answers.
    t.send(&["Enter", "Up", "Right", "Enter"]);
    let screen = t.wait_for("Moves   2");
    assert!(screen.contains("The cats play"), "{screen}");
    assert!(screen.contains("Search  depth 10"), "{screen}");
    // A typed move.
    t.send(&[":", "f2g3", "Enter"]);
    t.wait_for("Moves   4");
    t.send(&["w"]);
    t.wait_for("With best play from here the cats win");
    t.send(&["q"]);
    t.wait_for("Leave this game?");
    t.send(&["y"]);
    t.wait_for("Choose a game");
    t.send(&["q"]);
    let screen = t.wait_for("tty mode:");
    assert!(screen.contains("boardlab exited with 0"), "{screen}");
}

#[test]
fn peg_solitaire_from_the_title_screen() {
    if !have_tmux() {
        return;
    }
    let t = Tmux::start("");
    t.wait_for("Choose a game");
    // 2 highlights Peg solitaire; its default options: the English board from the centre, finish anywhere.
    t.send(&["2", "Enter"]);
    let screen = t.wait_for("Pegs    32 left");
    assert!(
        screen.contains("Peg solitaire · english · start d4 · finish anywhere"),
        "{screen}"
    );
    // The cursor starts on d2: choose it, go down to d4, jump.
    t.send(&["Enter"]);
    t.wait_for("d2 chosen: it can jump to d4");
    t.send(&["Down", "Down", "Enter"]);
    t.wait_for("Moves   1 made · last d2-d4");
    // A typed jump, then an illegal one.
    t.send(&[":", "f3d3", "Enter"]);
    t.wait_for("Moves   2 made · last f3-d3");
    t.send(&["d1-d3", "Enter"]);
    t.wait_for("Not a legal jump: d1-d3");
    t.send(&["Escape"]);
    let screen = t.wait_for("✔ still possible");
    assert!(screen.contains("Pegs    30 left"), "{screen}");
    t.send(&["h"]);
    t.wait_for("A solution from here in 29 jumps");
    t.send(&["q"]);
    t.wait_for("Leave this game?");
    t.send(&["y"]);
    t.wait_for("Choose a game");
    t.send(&["q"]);
    let screen = t.wait_for("tty mode:");
    assert!(screen.contains("boardlab exited with 0"), "{screen}");
}
