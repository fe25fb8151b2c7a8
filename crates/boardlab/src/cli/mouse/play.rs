//! `boardlab mouse play`: a line-based game against the engine, on any board size.
//!
//! The board is printed with coordinates, the position's hash and lock before each of your moves. Type a
//! move (`E1-F2` or `e1f2`) or a command: `help`, `moves`, `undo`, `new`, `swap`, `hint`, `board`, `quit`.
//! Bad input prints why and asks again. End of input quits.
//!
//! The game is a [`play::MouseSession`], as in the terminal interface and the web page: the same engine, the
//! same undo, the same hint (from the exact solution on boards up to 10x10, from a search beyond), the same
//! words for how a game ended. This module only reads lines and prints.

use std::io::{BufRead, Write};

use anyhow::anyhow;
use mousecats::{BoardPosition, Level, Rule, Score, SearchResult, Side, SizedPosition};
use play::mouse::{MouseError, MouseOptions, MouseSession};

use super::{
    PlayArgs, check_level_for, commas, parse_level, parse_time, value_phrase, winner_phrase,
};

const HELP: &str = "\
Moves: type the square the piece leaves and the square it goes to, as E1-F2 or e1f2.
Commands:
  help    this text
  moves   list your legal moves
  undo    take back your last move (and the engine's reply)
  new     start the game again
  swap    change sides with the engine
  hint    the best move from the exact solution, and who wins
  board   print the board again
  quit    leave";

/// The longest line read at the prompt; a move or command is a few characters.
const MAX_LINE: usize = 1024;

fn print_board<P: BoardPosition>(out: &mut dyn Write, pos: &P) -> std::io::Result<()> {
    let diagram = pos.diagram();
    for line in diagram.lines().filter(|l| !l.starts_with("turn=")) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "{} to move   hash {:016x}   lock {:08x}",
        pos.turn(),
        pos.zobrist_hash(),
        pos.zobrist_lock()
    )
}

fn describe<M>(r: &SearchResult<M>, mover: Side) -> String {
    let score = match r.score {
        Score::Win(n) => format!("{} in {n}", winner_phrase(mover)),
        Score::Loss(n) => format!("{} in {n}", winner_phrase(mover.opponent())),
        Score::Eval(v) => format!("score {v:+}"),
    };
    if r.perfect {
        format!("perfect play, {score}")
    } else {
        format!("depth {}, {score}, {} nodes", r.depth, commas(r.nodes))
    }
}

/// Play one session, reading commands from `input` and writing the dialogue to `out`.
pub fn run_session(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let start = args.start.parse()?;
    let human: Side = args.side.parse().map_err(|e| anyhow!("--as: {e}"))?;
    let level = parse_level(&args.level)?;
    check_level_for(level, start.size)?;
    let time = args.time.as_deref().map(parse_time).transpose()?;
    let mut env = play::Env::blocking();
    env.mouse_time_limit = time;
    let opts = MouseOptions {
        player: human,
        level: level.number(),
        size: start.size,
        mouse_start: start.position.mouse(),
        first: start.position.turn(),
        rule: start.rule,
    };
    let session = MouseSession::new(opts, &env).map_err(|e| anyhow!("{e}"))?;
    Dialogue {
        s: session,
        env,
        level,
        rule: start.rule,
        out,
    }
    .run(input)
}

/// A game at the prompt.
struct Dialogue<'a> {
    s: MouseSession,
    env: play::Env,
    level: Level,
    rule: Rule,
    out: &'a mut dyn Write,
}

impl Dialogue<'_> {
    /// Print the engine's move if it made one after the first `before` moves: the move played last, with its
    /// search.
    fn engine_moved(&mut self, before: usize) -> std::io::Result<()> {
        let moves = self.s.moves();
        if moves.len() <= before {
            return Ok(());
        }
        let engine = self.s.options().engine_side();
        let Some(&mv) = moves.last() else {
            return Ok(());
        };
        // The engine plays once after each action: the last move is its own when the side that made it is its.
        let mover = if (moves.len() - 1).is_multiple_of(2) {
            self.s.options().first
        } else {
            self.s.options().first.opponent()
        };
        if mover != engine {
            return Ok(());
        }
        let who = match engine {
            Side::Mouse => "The mouse plays",
            Side::Cats => "The cats play",
        };
        let how = self
            .s
            .last_search()
            .map(|r| format!(" ({})", describe(r, engine)))
            .unwrap_or_default();
        writeln!(self.out, "{who} {mv}{how}.")
    }

    fn run(mut self, input: &mut dyn BufRead) -> anyhow::Result<()> {
        let size = self.s.size();
        let human = self.s.options().player;
        let strength = match self.level.depth() {
            Some(d) => format!("level {}, a {d}-ply search", self.level.number()),
            None => "level 10, perfect play".to_string(),
        };
        let board = if size == mousecats::BoardSize::EIGHT {
            String::new()
        } else {
            format!(" on {size}")
        };
        writeln!(
            self.out,
            "Mouse & Cats{board} ({} rule). You play the {human}; the engine plays the {} at {strength}.",
            self.rule,
            human.opponent()
        )?;
        writeln!(
            self.out,
            "Type a move such as E1-F2, or help for the commands."
        )?;
        // The engine may have moved first.
        self.engine_moved(0)?;

        let mut fresh = true; // print the board (and any result) before the next prompt
        loop {
            let pos = *self.s.position();
            let human = self.s.options().player;
            if fresh {
                print_board(self.out, &pos)?;
                if let Some(w) = self.s.winner() {
                    // How the game ended is told as the terminal and the web page tell it.
                    writeln!(
                        self.out,
                        "Game over: {} after {} ({}). Type new, undo, swap or quit.",
                        winner_phrase(w),
                        super::plies(self.s.moves().len() as u32),
                        play::mouse::how_won(&pos, self.rule, w)
                    )?;
                }
            }
            fresh = false;
            write!(self.out, "{human}> ")?;
            self.out.flush()?;
            let Some((line, cut)) = crate::files::read_line_capped(input, MAX_LINE)? else {
                writeln!(self.out)?;
                writeln!(self.out, "Bye.")?;
                return Ok(());
            };
            if cut {
                writeln!(
                    self.out,
                    "That line is longer than {MAX_LINE} characters. Type a move such as E1-F2, or help."
                )?;
                continue;
            }
            let cmd = line.trim();
            let before = self.s.moves().len();
            match cmd.to_ascii_lowercase().as_str() {
                "" => {}
                "help" | "h" | "?" => writeln!(self.out, "{HELP}")?,
                "quit" | "q" | "exit" => {
                    writeln!(self.out, "Bye.")?;
                    return Ok(());
                }
                "board" | "b" => fresh = true,
                "moves" | "m" => {
                    if self.s.is_over() {
                        writeln!(self.out, "No moves: the game is over.")?;
                    } else {
                        let list: Vec<String> = self
                            .s
                            .legal_moves()
                            .iter()
                            .map(ToString::to_string)
                            .collect();
                        writeln!(self.out, "Your moves: {}", list.join(" "))?;
                    }
                }
                "undo" | "u" => {
                    let old = self.s.moves().to_vec();
                    if let Err(e) = self.s.undo() {
                        writeln!(self.out, "{e}")?;
                    }
                    let now = self.s.moves();
                    if now.len() < old.len() && old.starts_with(now) {
                        let taken: Vec<String> =
                            old[now.len()..].iter().map(ToString::to_string).collect();
                        writeln!(self.out, "Took back {}.", taken.join(" "))?;
                        fresh = true;
                    } else {
                        writeln!(self.out, "Nothing to undo: you have not moved yet.")?;
                    }
                }
                "new" | "n" => {
                    self.s.new_game();
                    writeln!(self.out, "New game. You play the {human}.")?;
                    self.engine_moved(0)?;
                    fresh = true;
                }
                "swap" | "s" => {
                    self.s.swap_sides();
                    let human = self.s.options().player;
                    writeln!(
                        self.out,
                        "You now play the {human}; the engine plays the {}.",
                        human.opponent()
                    )?;
                    self.engine_moved(before)?;
                    fresh = true;
                }
                "hint" => self.hint(&pos)?,
                _ => match MouseSession::parse_move(cmd) {
                    Ok(mv) => match self.s.play(mv) {
                        Ok(_) => {
                            self.engine_moved(before + 1)?;
                            fresh = true;
                        }
                        Err(MouseError::Over) => {
                            writeln!(self.out, "The game is over: type new, undo, swap or quit.")?
                        }
                        Err(e) => writeln!(self.out, "Illegal move: {e}. Try again.")?,
                    },
                    Err(_) => writeln!(
                        self.out,
                        "Unknown command or move '{}'. Moves look like E1-F2 or e1f2; type help for the commands.",
                        crate::cli::short(cmd)
                    )?,
                },
            }
        }
    }

    /// The hint: on a board with an exact table the session's advice (the terminal's and the web page's hint)
    /// with every move that keeps the value; beyond, the session's search, which says no exact value is there.
    fn hint(&mut self, pos: &SizedPosition) -> anyhow::Result<()> {
        if self.s.is_over() {
            writeln!(self.out, "No hint: the game is over.")?;
            return Ok(());
        }
        if !self.s.exact() {
            let m = self.s.hint();
            writeln!(self.out, "{}", m.text)?;
            return Ok(());
        }
        let solution = self
            .env
            .mouse_solutions
            .get_or_solve_for(self.s.size(), self.rule)?;
        match play::mouse::advice(&solution, pos) {
            Some(advice) => {
                let keep: Vec<String> = advice.keeping.iter().map(ToString::to_string).collect();
                writeln!(
                    self.out,
                    "Hint: {} ({} with perfect play; moves that keep this: {}).",
                    advice.best,
                    value_phrase(advice.value, pos.turn()),
                    keep.join(" ")
                )?;
            }
            None => writeln!(self.out, "No hint: the game is over.")?,
        }
        Ok(())
    }
}
