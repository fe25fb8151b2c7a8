//! The full-screen terminal interface (ratatui + crossterm): a title screen, the three games, help, undo and
//! redo, save and resume.
//!
//! [`App`] is the whole interface as a plain value: [`App::handle_event`] feeds it a terminal event,
//! [`App::render`] draws it into any ratatui frame, so tests drive it through ratatui's `TestBackend` without a
//! terminal. [`run`] puts a real terminal into raw mode and the alternate screen, runs the event loop, and
//! restores the terminal on the way out, also when the program panics.

use std::io::{self, IsTerminal, Stdout, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Once;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use crossterm::cursor::{Hide, Show};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use play::GameKind;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub mod app;
pub mod chrome;
pub mod games;
pub mod job;
pub mod mouse;
pub mod peg;
pub mod save;
pub mod screen;
pub mod sudoku;
pub mod theme;
pub mod title;
pub mod ui;

pub use app::App;
pub use screen::Config;

/// Arguments of `boardlab play`.
#[derive(Debug, Default, Args)]
pub struct PlayArgs {
    /// The game to open; the title screen when absent.
    #[arg(value_parser = game_parser())]
    pub game: Option<GameKind>,

    /// Resume the game saved in FILE (`s` in a game saves; this file is then saved to again).
    #[arg(long, value_name = "FILE", conflicts_with = "game")]
    pub load: Option<PathBuf>,

    /// Play your own sudoku: the puzzle as an 81-character line (`.` or `0` for an empty cell) or a file
    /// holding one (a line or a block of 9 lines). It is checked as `boardlab sudoku hint` checks a grid.
    #[arg(long, value_name = "PUZZLE|FILE", conflicts_with = "load")]
    pub puzzle: Option<String>,

    /// Seed for generated puzzles, to replay the same ones.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// The most a puzzle file may hold: a grid is at most a few hundred bytes, with comments.
const PUZZLE_MAX_BYTES: u64 = 64 << 10;

/// The puzzle of `--puzzle`: an existing file's text, else the argument itself, checked as a playable puzzle.
fn own_puzzle(arg: &str) -> anyhow::Result<play::sudoku::Puzzle> {
    let path = std::path::Path::new(arg);
    let (text, label) = if path.exists() {
        let text = crate::files::read_file(path, "a puzzle", PUZZLE_MAX_BYTES)?;
        let name = path
            .file_name()
            .map_or_else(|| arg.to_string(), |n| n.to_string_lossy().into_owned());
        (text, format!("Your puzzle from {name}"))
    } else {
        (arg.to_string(), "Your puzzle".to_string())
    };
    play::sudoku::Puzzle::from_text(&text, label).map_err(|e| anyhow::anyhow!("--puzzle: {e}"))
}

/// The parser of a game's name: `mouse`, `peg` or `sudoku` (listed by `--help`).
fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    PossibleValuesParser::new(GameKind::ALL.map(GameKind::key))
        .try_map(|name| name.parse::<GameKind>())
}

/// Open the terminal interface and run it until the player quits.
pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let cfg = Config::from_env(args.seed);
    // Read a save before touching the terminal, so a bad file is reported as a plain error line.
    let mut app = match (&args.load, args.game) {
        _ if args.puzzle.is_some() => {
            if args.game.is_some_and(|g| g != GameKind::Sudoku) {
                anyhow::bail!(
                    "--puzzle is a sudoku puzzle: `boardlab play sudoku --puzzle PUZZLE|FILE`"
                );
            }
            let arg = args.puzzle.as_deref().unwrap_or_default();
            App::own_sudoku(cfg, own_puzzle(arg)?)
        }
        (Some(path), _) => App::load(cfg, path)?,
        (None, Some(game)) => App::new_game(cfg, game),
        (None, None) => App::new(cfg, GameKind::Mouse),
    };
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        anyhow::bail!(
            "the game interface needs a terminal (stdin and stdout are not both terminals); \
             the tools are `boardlab mouse|peg|sudoku …`, see `boardlab --help`"
        );
    }
    app.panic_key = std::env::var_os("BOARDLAB_TEST_PANIC_KEY").is_some();
    let mut terminal = TerminalGuard::enter()?;
    let result = app.run(&mut terminal.terminal);
    drop(terminal);
    result?;
    if let Some(note) = app.exit_note() {
        // A closed standard error must not turn a clean exit into a panic.
        let _ = writeln!(io::stderr(), "{note}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The terminal in raw mode on the alternate screen; dropping it restores the terminal.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        enable_raw_mode()?;
        let setup = (|| {
            execute!(io::stdout(), EnterAlternateScreen, Hide)?;
            let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
            terminal.clear()?;
            Ok(terminal)
        })();
        match setup {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(e) => {
                restore_terminal();
                Err(e)
            }
        }
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Leave raw mode and the alternate screen, show the cursor. Safe to call more than once.
fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, Show);
}

/// On a panic, restore the terminal before the panic message is printed, so the message is readable and the
/// shell is usable. A panic on a background job thread leaves the screen alone: the job reports it.
fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(job::THREAD_NAME) {
                // A background computation failed: the screen stays up and reports it (see `job`).
                job::record_panic(info.to_string());
                return;
            }
            restore_terminal();
            previous(info);
        }));
    });
}
