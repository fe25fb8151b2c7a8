//! `boardlab mouse analyse`.

use crate::outln;
use std::process::ExitCode;

use mousecats::search::check_depth;
use mousecats::solve::MAX_TABLE_SIZE;
use mousecats::{BoardPosition, Engine, EngineConfig, Rule, SearchResult, Solution, TableConfig};

use super::{
    AnalyseArgs, check_level_for, commas, millis, parse_int, parse_level, parse_time,
    position_and_rule, value_phrase, winner_phrase, with_position,
};
use crate::answers::mouse::{Analysis, ScoreInfo, TableInfo, mouse_score_text, moves_text};
use crate::output::Output;

pub fn run(a: &AnalyseArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let (pos, rule) = position_and_rule(Some(&a.position), a.size.as_deref(), &a.rule)?;
    with_position!(pos, |p| analyse(&p, rule, a, out))
}

fn analyse<P: BoardPosition>(
    pos: &P,
    rule: Rule,
    a: &AnalyseArgs,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    // --time counts from here: allocating the tables (and solving a bigger board) are part of it.
    let started = std::time::Instant::now();
    let size = pos.board_size();
    if a.level.is_some() && a.depth.is_some() {
        anyhow::bail!("give --level or --depth, not both");
    }
    if a.no_tables && a.verify {
        anyhow::bail!("--verify checks the tables, so it cannot go with --no-tables");
    }
    let level = a.level.as_deref().map(parse_level).transpose()?;
    if let Some(l) = level {
        check_level_for(l, size)?;
    }
    let depth = match &a.depth {
        Some(d) => Some(check_depth(parse_int("--depth", d, 1, 64)?)?),
        None => None,
    };
    let time = a.time.as_deref().map(parse_time).transpose()?;
    let tables = if a.no_tables {
        None
    } else {
        Some(TableConfig {
            index_bits: parse_int("--tt-bits", &a.tt_bits, 8, 28)? as u8,
            lock_bits: parse_int("--lock-bits", &a.lock_bits, 0, 32)? as u8,
            verify: a.verify,
        })
    };
    if let Some(c) = &tables {
        let need = c.memory_bytes() as u64;
        let limit = a
            .max_memory
            .unwrap_or_else(crate::cli::peg::default_memory_limit);
        if need > limit {
            anyhow::bail!(
                "--tt-bits {}{} needs {} for the two tables, more than the {} allowed; use fewer bits or raise \
                 --max-memory (default: 80% of the memory available)",
                c.index_bits,
                if c.verify { " --verify" } else { "" },
                peg::count::fmt_bytes(need),
                peg::count::fmt_bytes(limit)
            );
        }
    }
    let mut engine: Engine<P> = Engine::new(EngineConfig { rule, tables })?;
    let wants_exact = !a.no_exact && size <= MAX_TABLE_SIZE;
    if wants_exact && size > mousecats::BoardSize::EIGHT {
        let spinner = out.spinner(&format!("solving the {size} board for the exact value"));
        let solution = Solution::cached_size(size, rule).map_err(|e| anyhow::anyhow!("{e}"))?;
        engine.set_solution(solution);
        spinner.finish_and_clear();
    }
    // What is left of the time limit once the tables stand (at least a millisecond: a search always answers).
    let time = time.map(|t| {
        t.saturating_sub(started.elapsed())
            .max(std::time::Duration::from_millis(1))
    });
    let result: SearchResult<P::Move> = match (level, depth) {
        (Some(l), _) => engine.think(pos, l, time),
        (None, Some(d)) => engine.search(pos, d, time),
        (None, None) => engine.search(pos, 12, time),
    };
    let exact = if wants_exact {
        engine
            .solution_for(size)
            .map(|solution| (solution.value(pos), solution.value_keeping_moves(pos)))
    } else {
        None
    };
    let stats = engine
        .tables()
        .map(|t| TableInfo::new(t, &result.table_stats));
    let over = pos.outcome(rule);
    let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();

    if out.json {
        out.print_json(&Analysis::new(
            pos,
            rule,
            level,
            &result,
            if a.stats { stats } else { None },
            exact,
        ))?;
        return Ok(ExitCode::SUCCESS);
    }

    outln!("{}", pos.diagram())?;
    outln!("{pos}")?;
    outln!(
        "hash {:016x}  lock {:08x}  ({rule} rule)",
        pos.zobrist_hash(),
        pos.zobrist_lock()
    )?;
    if let Some(w) = over {
        outln!("game over: {}", winner_phrase(w))?;
        if let Some((v, _)) = &exact {
            outln!("exact: {}", value_phrase(*v, pos.turn()))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !result.iterations.is_empty() {
        outln!("depth  score (mouse)        nodes        time  principal variation")?;
        for it in &result.iterations {
            let pv: Vec<String> = it.pv.iter().map(ToString::to_string).collect();
            outln!(
                "{:>5}  {:<14} {:>11} {:>11}  {}",
                it.depth,
                mouse_score_text(it.score, pos.turn()),
                commas(it.nodes),
                millis(it.elapsed),
                pv.join(" ")
            )?;
        }
    }
    if result.perfect {
        outln!("search: perfect play from the exact table (level 10)")?;
    } else {
        outln!(
            "search: depth {}{}{}, {} nodes in {} ({:.1} M nodes/s)",
            result.depth,
            level.map_or(String::new(), |l| format!(" (level {})", l.number())),
            if result.stopped {
                ", stopped by the time limit"
            } else {
                ""
            },
            commas(result.nodes),
            millis(result.elapsed),
            result.nodes_per_second() / 1e6
        )?;
    }
    if let Some(m) = result.best_move {
        outln!("best move: {m}")?;
    }
    outln!(
        "score: {} (mouse's view: {})",
        ScoreInfo::new(result.score, pos.turn()).text,
        mouse_score_text(result.score, pos.turn())
    )?;
    outln!("principal variation: {}", pv.join(" "))?;
    match &exact {
        Some((v, keep)) => outln!(
            "exact: {}; value-keeping moves: {}",
            value_phrase(*v, pos.turn()),
            moves_text(keep).join(" ")
        )?,
        None if a.no_exact => outln!("exact: not worked out (--no-exact)")?,
        None => outln!(
            "exact: not known here (whole tables are kept up to 10x10; `boardlab mouse solve --size {}` gives the start's value)",
            size.n()
        )?,
    }
    if a.stats {
        match stats {
            Some(s) => {
                outln!(
                    "tables: 2 x 2^{} entries, {}-bit lock{}, {} bytes, {} of {} entries used",
                    s.index_bits,
                    s.lock_bits,
                    if s.verify { ", verify mode" } else { "" },
                    commas(s.bytes as u128),
                    commas(s.used_entries as u128),
                    commas(s.entries as u128)
                )?;
                outln!(
                    "  probes {}, hits {}, empty {}, lock mismatches (collisions detected) {}",
                    commas(s.probes),
                    commas(s.hits),
                    commas(s.empty),
                    commas(s.lock_mismatches)
                )?;
                outln!(
                    "  stores {}, overwrites of another position (collisions) {}, false hits {}",
                    commas(s.stores),
                    commas(s.collisions),
                    s.false_hits
                        .map_or("not counted (use --verify)".to_string(), commas)
                )?;
            }
            None => outln!("tables: none")?,
        }
    }
    Ok(ExitCode::SUCCESS)
}
