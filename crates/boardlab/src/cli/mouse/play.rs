//! `boardlab mouse play`: a line-based game against the engine.
//!
//! The board is printed with coordinates, the position's hash and lock before each of your moves. Type a
//! move (`E1-F2` or `e1f2`) or a command: `help`, `moves`, `undo`, `new`, `swap`, `hint`, `board`, `quit`.
//! Bad input prints why and asks again. End of input quits.

use std::io::{BufRead, Write};

use anyhow::anyhow;
use mousecats::{
    BoardPosition, Engine, EngineConfig, Game, Level, Rule, Score, SearchResult, Side, TableConfig,
};

use super::{
    AnyPosition, PlayArgs, check_level_for, commas, parse_level, parse_time, value_phrase,
    winner_phrase, with_position,
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
    let setup = Setup {
        human,
        level,
        time,
        rule: start.rule,
    };
    with_position!(AnyPosition::new(start.position), |p| session(
        p, &setup, input, out
    ))
}

/// The settings of a session.
struct Setup {
    human: Side,
    level: Level,
    time: Option<std::time::Duration>,
    rule: Rule,
}

fn session<P: BoardPosition>(
    start: P,
    setup: &Setup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let (rule, level, time) = (setup.rule, setup.level, setup.time);
    let mut human = setup.human;
    let mut engine: Engine<P> = Engine::new(EngineConfig {
        rule,
        tables: Some(TableConfig::default()),
    })?;
    let mut game = Game::new(start, rule);
    let size = start.board_size();
    let strength = match level.depth() {
        Some(d) => format!("level {}, a {d}-ply search", level.number()),
        None => "level 10, perfect play".to_string(),
    };
    let board = if size == mousecats::BoardSize::EIGHT {
        String::new()
    } else {
        format!(" on {size}")
    };
    writeln!(
        out,
        "Mouse & Cats{board} ({rule} rule). You play the {human}; the engine plays the {} at {strength}.",
        human.opponent()
    )?;
    writeln!(out, "Type a move such as E1-F2, or help for the commands.")?;

    let mut fresh = true; // print the board (and any result) before the next prompt
    loop {
        let pos = *game.position();
        match game.winner() {
            Some(w) => {
                if fresh {
                    print_board(out, &pos)?;
                    // How the game ended is told as the terminal and the web page tell it.
                    writeln!(
                        out,
                        "Game over: {} after {} ({}). Type new, undo, swap or quit.",
                        winner_phrase(w),
                        super::plies(game.moves().len() as u32),
                        play::mouse::how_won(&pos, rule, w)
                    )?;
                }
            }
            None if pos.turn() != human => {
                let r = engine.think(&pos, level, time);
                let Some(mv) = r.best_move else {
                    // Not reachable: the game is not over, so there is a legal move.
                    return Err(anyhow!("the engine found no move in {pos}"));
                };
                game.play(mv)?;
                let who = match pos.turn() {
                    Side::Mouse => "The mouse plays",
                    Side::Cats => "The cats play",
                };
                writeln!(out, "{who} {mv} ({}).", describe(&r, pos.turn()))?;
                fresh = true;
                continue;
            }
            None => {
                if fresh {
                    print_board(out, &pos)?;
                }
            }
        }
        fresh = false;
        write!(out, "{human}> ")?;
        out.flush()?;
        let Some((line, cut)) = crate::files::read_line_capped(input, MAX_LINE)? else {
            writeln!(out)?;
            writeln!(out, "Bye.")?;
            return Ok(());
        };
        if cut {
            writeln!(
                out,
                "That line is longer than {MAX_LINE} characters. Type a move such as E1-F2, or help."
            )?;
            continue;
        }
        let cmd = line.trim();
        match cmd.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "h" | "?" => writeln!(out, "{HELP}")?,
            "quit" | "q" | "exit" => {
                writeln!(out, "Bye.")?;
                return Ok(());
            }
            "board" | "b" => fresh = true,
            "moves" | "m" => {
                let moves = game.legal_moves();
                if game.is_over() {
                    writeln!(out, "No moves: the game is over.")?;
                } else {
                    let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
                    writeln!(out, "Your moves: {}", list.join(" "))?;
                }
            }
            "undo" | "u" => {
                let n = game.positions().len();
                let mine = game.positions()[..n - 1]
                    .iter()
                    .filter(|p| p.turn() == human)
                    .count();
                if mine == 0 {
                    writeln!(out, "Nothing to undo: you have not moved yet.")?;
                } else {
                    let mut taken = Vec::new();
                    while let Some(mv) = game.undo() {
                        taken.push(mv.to_string());
                        if game.position().turn() == human {
                            break;
                        }
                    }
                    taken.reverse();
                    writeln!(out, "Took back {}.", taken.join(" "))?;
                    fresh = true;
                }
            }
            "new" | "n" => {
                game.restart();
                engine.clear_tables();
                writeln!(out, "New game. You play the {human}.")?;
                fresh = true;
            }
            "swap" | "s" => {
                human = human.opponent();
                writeln!(
                    out,
                    "You now play the {human}; the engine plays the {}.",
                    human.opponent()
                )?;
                fresh = true;
            }
            "hint" => {
                if game.is_over() {
                    writeln!(out, "No hint: the game is over.")?;
                } else {
                    match engine.solution_for(size) {
                        // The terminal's and the web page's hint: the same move from the same advice.
                        Some(solution) => match play::mouse::advice(&solution, &pos) {
                            Some(advice) => {
                                let keep: Vec<String> =
                                    advice.keeping.iter().map(ToString::to_string).collect();
                                writeln!(
                                    out,
                                    "Hint: {} ({} with perfect play; moves that keep this: {}).",
                                    advice.best,
                                    value_phrase(advice.value, pos.turn()),
                                    keep.join(" ")
                                )?;
                            }
                            None => writeln!(out, "No hint: the game is over.")?,
                        },
                        None => {
                            let depth = level.depth().unwrap_or(18);
                            let r = engine.search(&pos, depth, time);
                            writeln!(
                                out,
                                "Hint: {} (a {depth}-ply search: {}; the exact table is kept only up to 10x10).",
                                r.best_move.map_or("-".to_string(), |m| m.to_string()),
                                describe(&r, pos.turn())
                            )?;
                        }
                    }
                }
            }
            _ => match cmd.parse::<P::Move>() {
                Ok(mv) => match game.play(mv) {
                    Ok(()) => fresh = true,
                    Err(e) => writeln!(out, "Illegal move: {e}. Try again.")?,
                },
                Err(_) => writeln!(
                    out,
                    "Unknown command or move '{}'. Moves look like E1-F2 or e1f2; type help for the commands.",
                    crate::cli::short(cmd)
                )?,
            },
        }
    }
}
