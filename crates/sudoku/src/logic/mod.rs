//! The logical solver: human techniques applied easiest first, each step recorded and explained.
//!
//! The solver works on a [`Candidates`] state (placed digits and pencil marks as bitsets). At each point it looks
//! for the first technique that makes progress, in the order of [`TECHNIQUES`], applies one instance of it, and
//! starts again from the top. Singles are applied in batches (all the singles of the same kind visible at once);
//! every other technique one instance at a time. A puzzle's rating is its hardest step's rating.
//!
//! # How Sudoku Explainer decides, and how this solver follows it
//!
//! The ratings are those of Sudoku Explainer ("SE"), in the serate build the sudoku community uses
//! (SukakuExplainer, default techniques). Agreeing with SE's number is not only a matter of rating each technique
//! as SE does: a puzzle's rating is the hardest step *on the path SE takes*, so the solver takes SE's path. The
//! rules that decide it:
//!
//! - **The first technique in SE's list that finds anything wins**, even when a later one would find an easier
//!   step. The list is mostly in rating order, but not everywhere: the chains of two strong links on one digit
//!   (skyscraper 4.0 to grouped links 4.3) come before the XY-Wing (4.2); unique rectangles and loops (4.5 and
//!   up) right after the XYZ-Wing, before naked quads (5.0); chains of three strong links (5.4 to 5.7) right after
//!   the hidden quad, before the WXYZ-Wing (5.5); WXYZ-Wing (5.5) and the BUG (5.6) after them, then chains of
//!   four strong links (5.8 to 6.1); VWXYZ-Wing (6.2) before aligned pair exclusion (6.2); UVWXYZ-Wing (6.6)
//!   before the cycles (6.5); and among the chains, forcing chains and cycles (6.5 to 7.x with their length) come
//!   first, then TUVWXYZ-Wing (7.5), Nishio chains (7.5 and up), multiple forcing chains (8.0 and up), dynamic
//!   chains (8.5 and up) and dynamic chains with pattern eliminations (9.0 and up). A 7.9 forcing chain is
//!   therefore taken before a 7.5 Nishio chain, an 8.6 region chain before an 8.5 dynamic one, and a 5.7 grouped
//!   chain of three strong links before a 5.5 WXYZ-Wing.
//! - **Strong-link chains are SE's own family, not the X-chains.** SE rates a chain of two, three or four strong
//!   links on one digit by the number of links (4.0, 5.4, 5.8) and their kinds (0.1 more with a box among them,
//!   0.1 more with both a row and a column, 0.3 more with a grouped link instead), not by its length in
//!   candidates; a grouped link is a house whose places fall into two groups (an empty rectangle in a box, two
//!   rows or columns of a box, or two boxes of a line). Such a chain is usually found long before the X-chain
//!   (6.6 and up) or forcing chain that covers the same eliminations, which is where most of the puzzles SE rates
//!   in the 4s to 6s are decided. Which chain SE takes, and how it reads and orders them, is in the `links`
//!   module's documentation; chains of five and six links are off in SE's defaults and here.
//! - **Within one technique, SE collects every instance and takes the easiest**; ties go to the one with the most
//!   eliminations for the strong-link family and the wings, to the lowest type for unique loops, to the shortest
//!   chain (then a fixed order of kinds) for chains, and otherwise to the first found in SE's scan order (boxes,
//!   then columns, then rows for houses; cells row by row; digits in order).
//! - **Chains are rated by length**: the base rating plus 0.1 each time the chain's count less two passes 4, 6,
//!   8, 12, 16, 24, 32, ... (each step half again or a third again as long as the last). SE counts a chain as the
//!   number of distinct candidates among its conclusion and all the causes behind it; a step made of several
//!   chains (cell, region or double forcing chains, contradictions) adds its chains' counts. For dynamic chains a
//!   conclusion's causes include the eliminations that made a cell's or a house's candidate the last one, so the
//!   count depends on the order in which implications are found, which the solver follows.
//! - **Multiple forcing chains (8.0) start only from cells with three or more candidates**, and a region's chains
//!   only from its first place, when that cell has three or more; bivalue cells are left to the simpler chains.
//! - **Uniqueness** is assumed, as SE assumes it: unique rectangles and loops and the BUG.
//!
//! Where the solver has no counterpart of an SE technique (SE's aligned triplet exclusion, 7.5, and its nested
//! forcing chains of 9.5 and up), a puzzle that needs one gets a different rating or is reported as needing
//! guessing.
//!
//! ```
//! use sudoku::logic::{self, Candidates, Options};
//!
//! let puzzle = "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.";
//! let mut values = [0u8; 81];
//! for (v, ch) in values.iter_mut().zip(puzzle.bytes()) {
//!     *v = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
//! }
//! let state = Candidates::from_values(&values).unwrap();
//! let outcome = logic::solve(state, &Options { record: true, ..Options::default() });
//! assert!(outcome.is_solved());
//! println!("rating {}", outcome.rating);
//! println!("{}", outcome.steps[0]); // e.g. "Hidden single: 5 can only go in r1c7 within box 3"
//! ```

mod basic;
mod chains;
mod dynamic;
mod exclusion;
mod links;
mod state;
mod step;
pub mod tables;
mod unique;
mod wings;

pub use state::{Candidates, Conflict};

use std::sync::atomic::AtomicBool;

use crate::stop::{Check, Stopped};
pub use step::{Candidate, ChainNode, Rating, Step, TECHNIQUES, Technique, TechniqueSet};

/// How far the solver may go, and whether it keeps its steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Stop (as stuck) when the easiest step available is rated above this.
    pub max_rating: Rating,
    /// The techniques the solver may use.
    pub techniques: TechniqueSet,
    /// Keep every step in [`Outcome::steps`].
    pub record: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_rating: Rating(u8::MAX),
            techniques: TechniqueSet::ALL,
            record: false,
        }
    }
}

/// How a logical solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every cell is filled.
    Solved,
    /// No technique (within the allowed ratings) makes progress: the rest needs guessing, or harder techniques.
    Stuck,
    /// The grid has no solution: the logic ran into a contradiction.
    Contradiction(Conflict),
}

/// The result of [`solve`].
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// The hardest technique used (by rating), if any step was taken.
    pub hardest: Option<Technique>,
    /// The highest step rating (0.0 when no step was needed).
    pub rating: Rating,
    /// Number of steps taken (each single counts as one step).
    pub step_count: usize,
    /// The steps, when [`Options::record`] was set.
    pub steps: Vec<Step>,
    /// The state reached.
    pub state: Candidates,
    /// Whether a step relied on the puzzle having one solution (a unique rectangle or loop, or a BUG): then a
    /// solved grid does not prove the puzzle unique.
    pub assumed_unique: bool,
}

impl Outcome {
    /// Whether the grid was solved.
    pub fn is_solved(&self) -> bool {
        self.status == Status::Solved
    }
}

/// Find the easiest step available among `allowed` techniques, rated at most `max`; fills `step` and returns
/// whether one was found.
pub fn find_step(s: &Candidates, step: &mut Step, max: Rating, allowed: TechniqueSet) -> bool {
    Finder::new(true).find(s, step, max, allowed)
}

/// Memo slots: one per technique (`Technique as usize`).
const SLOTS: usize = TECHNIQUES.len();

/// The step finder of one solve, along states that only lose candidates.
///
/// For each technique searched by digit, house or cell (see [`basic::Scope`]) it remembers what changed since the
/// technique last searched in vain, and looks only there; so a step after a small elimination does not search the
/// whole grid again for patterns that cannot have appeared. X-cycles and X-chains (one digit each) are remembered
/// the same way, with the length up to which they searched.
pub(crate) struct Finder {
    /// Whether steps get their explanation (the chain of a chain step); without, only their effect.
    explain: bool,
    /// The digits' places at the last call.
    last: Option<[tables::CellSet; 9]>,
    /// What changed from each call to the next (only the calls after a change).
    log: Vec<basic::Scope>,
    /// For each technique, the first entry of `log` it has not seen since it last found nothing (`usize::MAX`
    /// when it has to look everywhere).
    since: [usize; SLOTS],
    /// For X-cycles and X-chains: the chain length up to which their last search in vain looked.
    clean_upto: [usize; SLOTS],
    /// For Y-cycles: the bivalue cells at their last search in vain, and the length up to which it looked.
    y_cycles_in_vain: Option<(tables::CellSet, usize)>,
    /// Each digit's best chain of strong links of each length.
    links: links::LinksMemo,
    /// The chain searches' memory, kept from step to step.
    buffers: chains::Buffers,
    /// The chain searches' network of candidates, rebuilt in place for each state.
    net: chains::Net,
    /// The dynamic chain searches' memory.
    dynamic: dynamic::Memory,
    /// The unique loops found from each start cell.
    loops: unique::LoopMemo,
    /// The wings' almost locked sets by house.
    pub(crate) wings: wings::WingMemo,
}

impl Finder {
    /// A finder that knows nothing yet.
    pub(crate) fn new(explain: bool) -> Self {
        Self {
            explain,
            last: None,
            log: Vec::new(),
            since: [usize::MAX; SLOTS],
            clean_upto: [0; SLOTS],
            y_cycles_in_vain: None,
            links: links::LinksMemo::default(),
            buffers: chains::Buffers::default(),
            net: chains::Net::default(),
            dynamic: dynamic::Memory::default(),
            loops: unique::LoopMemo::default(),
            wings: wings::WingMemo::default(),
        }
    }

    /// Start a new solve with this finder's memory: what it knows of the last solve's states is forgotten, and
    /// the memos keyed by what they were found from (each digit's strong-link chains and Nishio result, the unique
    /// loops from each start cell, each house's almost locked sets) stay, since a state with the same key gets the
    /// same answer; only their memory is saved, and what the last puzzle happens to share with this one.
    fn restart(&mut self, explain: bool) {
        self.explain = explain;
        self.last = None;
        self.log.clear();
        self.since = [usize::MAX; SLOTS];
        self.clean_upto = [0; SLOTS];
        self.y_cycles_in_vain = None;
    }

    /// Note what changed since the last call.
    fn observe(&mut self, s: &Candidates) {
        let now: [tables::CellSet; 9] = std::array::from_fn(|d| s.positions(d as u8 + 1));
        let Some(last) = self.last.replace(now) else {
            return;
        };
        let mut digits = 0u16;
        let mut cells = 0;
        for d in 0..9 {
            let gone = last[d] ^ now[d];
            // Along a solve candidates only go.
            debug_assert_eq!(
                now[d] & !last[d],
                0,
                "a finder's states must only lose candidates"
            );
            if gone != 0 {
                digits |= 1 << d;
                cells |= gone;
            }
        }
        if digits != 0 {
            self.log.push(basic::Scope { digits, cells });
        }
    }

    /// Where technique `slot` has to look: what changed since it last found nothing.
    pub(crate) fn scope(&self, slot: usize) -> basic::Scope {
        match self.since[slot] {
            usize::MAX => basic::Scope::ALL,
            first => self
                .log
                .get(first..)
                .unwrap_or_default()
                .iter()
                .fold(basic::Scope::NONE, |a, &b| a.union(b)),
        }
    }

    /// Note that technique `slot` searched its scope and found something (then its other instances were not
    /// looked for) or nothing.
    pub(crate) fn searched(&mut self, slot: usize, found: bool) {
        self.since[slot] = if found { usize::MAX } else { self.log.len() };
    }

    /// [`find_step`], looking only where something changed for the techniques that allow it.
    pub(crate) fn find(
        &mut self,
        s: &Candidates,
        step: &mut Step,
        max: Rating,
        allowed: TechniqueSet,
    ) -> bool {
        self.observe(s);
        // A technique searched within its scope: after a search in vain its scope is empty, after a find the
        // whole grid (its other instances were not looked for).
        macro_rules! scoped {
            ($t:expr, $slot:expr, |$scope:ident| $e:expr) => {
                if $t.base_rating() > max {
                    return false;
                }
                if allowed.contains($t) {
                    let slot = $slot as usize;
                    let $scope = self.scope(slot);
                    let found = $e;
                    self.searched(slot, found);
                    if found {
                        return step.rating <= max;
                    }
                }
            };
        }
        macro_rules! tier {
            ($t:expr, $e:expr) => {
                if $t.base_rating() > max {
                    return false;
                }
                if allowed.contains($t) && $e {
                    return step.rating <= max;
                }
            };
        }
        use Technique as T;
        tier!(T::FullHouse, basic::full_houses(s, step));
        tier!(T::HiddenSingleBox, basic::hidden_singles(s, step, false));
        tier!(T::HiddenSingleLine, basic::hidden_singles(s, step, true));
        if T::DirectPointing.base_rating() > max {
            return false;
        }
        let views = basic::house_views(s);
        // Sites only for the digits the four kinds of locked candidates will look at (their scopes stay as they
        // are until each has searched).
        let locked_digits = [
            T::DirectPointing,
            T::DirectClaiming,
            T::Pointing,
            T::Claiming,
        ]
        .iter()
        .fold(0, |a, &t| a | self.scope(t as usize).digits);
        let sites = basic::LockedSites::new(&views, locked_digits);
        scoped!(T::DirectPointing, T::DirectPointing, |sc| basic::locked(
            s, &views, &sites, step, true, true, sc
        ));
        scoped!(T::DirectClaiming, T::DirectClaiming, |sc| basic::locked(
            s, &views, &sites, step, false, true, sc
        ));
        scoped!(T::DirectHiddenPair, T::DirectHiddenPair, |sc| {
            basic::hidden_subset(s, &views, step, 2, true, sc)
        });
        tier!(T::NakedSingle, basic::naked_singles(s, step));
        scoped!(T::DirectHiddenTriple, T::DirectHiddenTriple, |sc| {
            basic::hidden_subset(s, &views, step, 3, true, sc)
        });
        scoped!(T::Pointing, T::Pointing, |sc| basic::locked(
            s, &views, &sites, step, true, false, sc
        ));
        scoped!(T::Claiming, T::Claiming, |sc| basic::locked(
            s, &views, &sites, step, false, false, sc
        ));
        scoped!(T::NakedPair, T::NakedPair, |sc| basic::naked_subset(
            s, &views, step, 2, sc
        ));
        scoped!(T::XWing, T::XWing, |sc| basic::fish(s, &views, step, 2, sc));
        scoped!(T::HiddenPair, T::HiddenPair, |sc| basic::hidden_subset(
            s, &views, step, 2, false, sc
        ));
        scoped!(T::NakedTriple, T::NakedTriple, |sc| basic::naked_subset(
            s, &views, step, 3, sc
        ));
        scoped!(T::Swordfish, T::Swordfish, |sc| basic::fish(
            s, &views, step, 3, sc
        ));
        scoped!(T::HiddenTriple, T::HiddenTriple, |sc| basic::hidden_subset(
            s, &views, step, 3, false, sc
        ));
        // A chain of strong links of each length is one search (the best of its kinds), each digit's best kept while
        // its places stay.
        macro_rules! strong_links {
            ($n:expr) => {
                let kinds = links::techniques($n);
                if kinds[0].base_rating() > max {
                    return false;
                }
                if kinds.iter().any(|&t| allowed.contains(t))
                    && links::strong_links(s, step, $n, allowed, &mut self.links)
                {
                    return step.rating <= max;
                }
            };
        }
        strong_links!(2);
        scoped!(T::XYWing, T::XYWing, |sc| basic::xy_wing(s, step, sc));
        scoped!(T::XYZWing, T::XYZWing, |sc| basic::xyz_wing(s, step, sc));
        scoped!(T::UniqueRectangle, T::UniqueRectangle, |sc| {
            unique::unique_loops(s, step, sc.cells, &mut self.loops)
        });
        scoped!(T::NakedQuad, T::NakedQuad, |sc| basic::naked_subset(
            s, &views, step, 4, sc
        ));
        scoped!(T::Jellyfish, T::Jellyfish, |sc| basic::fish(
            s, &views, step, 4, sc
        ));
        scoped!(T::HiddenQuad, T::HiddenQuad, |sc| basic::hidden_subset(
            s, &views, step, 4, false, sc
        ));
        strong_links!(3);
        scoped!(T::WXYZWing, T::WXYZWing, |sc| wings::wing(
            s,
            step,
            3,
            sc.cells,
            &mut self.wings
        ));
        tier!(T::Bug, unique::bug(s, step));
        strong_links!(4);
        scoped!(T::VWXYZWing, T::VWXYZWing, |sc| wings::wing(
            s,
            step,
            4,
            sc.cells,
            &mut self.wings
        ));
        scoped!(T::AlignedPairExclusion, T::AlignedPairExclusion, |sc| {
            exclusion::aligned_pair(s, step, sc.cells)
        });
        // SE tries UVWXYZ-Wing (6.6) before the cycles (6.5 and up): a limit between the two still lets the cycles
        // be tried.
        if T::UVWXYZWing.base_rating() <= max && allowed.contains(T::UVWXYZWing) {
            let slot = T::UVWXYZWing as usize;
            let changed = self.scope(slot).cells;
            let found = wings::wing(s, step, 5, changed, &mut self.wings);
            self.searched(slot, found);
            if found {
                return step.rating <= max;
            }
        }
        chains::find(s, step, max, allowed, self)
    }
}

/// Apply a step: remove its eliminations, then place its placements. Fails if a placement is no longer possible
/// (the grid has no solution).
pub fn apply(s: &mut Candidates, step: &Step) -> Result<(), Conflict> {
    for e in &step.eliminations {
        s.eliminate(usize::from(e.cell), e.digit);
    }
    for p in &step.placements {
        let cell = usize::from(p.cell);
        let v = s.value(cell);
        if v == p.digit {
            continue;
        }
        if v != 0 || !s.has(cell, p.digit) {
            return Err(Conflict {
                cell,
                digit: p.digit,
            });
        }
        s.place(cell, p.digit);
    }
    Ok(())
}

/// Whether the techniques allowed by `opts` fill the cells of `targets` (all of them, in any order). Stops as
/// soon as they are filled: the generator uses it to test whether removed clues can be found again.
///
/// Only the outcome matters here, not the order of the steps, so singles are applied as soon as they are seen,
/// until none is left, and the other techniques (in rating order) only when the singles run out. Every technique
/// only removes candidates that cannot be the solution's, so the order does not change what can be reached.
pub(crate) fn fills(mut state: Candidates, opts: &Options, targets: tables::CellSet) -> bool {
    let mut others = opts.techniques;
    for t in [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
    ] {
        others = TechniqueSet(others.0 & !(1u64 << t as u8));
    }
    let mut step = Step::default();
    let mut finder = Finder::new(false);
    loop {
        if let Some(filled) = fill_with_singles(&mut state, opts, targets) {
            return filled;
        }
        if !finder.find(&state, &mut step, opts.max_rating, others)
            || apply(&mut state, &step).is_err()
        {
            return false;
        }
    }
}

/// The singles [`fills`] applies first: naked and hidden singles (as `opts` allows) until `targets` are filled
/// (`Some(true)`), a cell or a house runs out of candidates (`Some(false)`), or none is left (`None`, with `state`
/// where they stopped).
pub(crate) fn fill_with_singles(
    state: &mut Candidates,
    opts: &Options,
    targets: tables::CellSet,
) -> Option<bool> {
    use tables::{Cells, Digits, HOUSE, single};
    let naked = opts.techniques.contains(Technique::NakedSingle)
        && Technique::NakedSingle.base_rating() <= opts.max_rating;
    let hidden = opts.techniques.contains(Technique::HiddenSingleBox)
        && opts.techniques.contains(Technique::HiddenSingleLine);
    // After the first round only the cells and digits that changed can hold new singles.
    let mut cells = state.unsolved();
    let mut digits = 0x1ffu16;
    loop {
        let before: [tables::CellSet; 9] = std::array::from_fn(|d| state.positions(d as u8 + 1));
        if naked {
            for c in Cells(cells & state.unsolved()) {
                let m = state.candidates(c);
                if m != 0 && m & (m - 1) == 0 {
                    state.place(c, m.trailing_zeros() as u8 + 1);
                } else if m == 0 {
                    return Some(false);
                }
            }
        }
        if hidden {
            for (h, &house) in HOUSE.iter().enumerate() {
                for d in Digits(!state.placed_in(h) & digits) {
                    let m = state.positions(d) & house;
                    if single(m) {
                        let c = m.trailing_zeros() as usize;
                        if state.has(c, d) {
                            state.place(c, d);
                        }
                    } else if m == 0 {
                        return Some(false);
                    }
                }
            }
        }
        if state.unsolved() & targets == 0 {
            return Some(true);
        }
        cells = 0;
        digits = 0;
        for (d, &was) in before.iter().enumerate() {
            let gone = was ^ state.positions(d as u8 + 1);
            if gone != 0 {
                cells |= gone;
                digits |= 1 << d;
            }
        }
        if digits == 0 {
            return None;
        }
    }
}

/// Solve as far as the techniques allow, easiest first.
pub fn solve(state: Candidates, opts: &Options) -> Outcome {
    let Ok(outcome) = solve_checked(state, opts, crate::stop::Never);
    outcome
}

/// [`solve`] that looks at `stop` before every step and ends with [`Stopped`] once it is raised (no step of the
/// forum's 375 hardest puzzles took more than about 150 ms, dynamic forcing chains included).
///
/// # Errors
/// [`Stopped`] when `stop` was raised before the solve ended.
pub fn solve_until(
    state: Candidates,
    opts: &Options,
    stop: &AtomicBool,
) -> Result<Outcome, Stopped> {
    solve_checked(state, opts, stop)
}

/// [`solve`] with `check` before every step.
pub(crate) fn solve_checked<C: Check>(
    state: Candidates,
    opts: &Options,
    check: C,
) -> Result<Outcome, C::Error> {
    // The finder of the last puzzle solved on this thread, instead of a new one: its searches' memory and its
    // memos (see [`Finder::restart`]), without the allocations.
    let mut finder = match SPARE.with(|s| s.borrow_mut().take()) {
        Some(mut f) => {
            f.restart(opts.record);
            f
        }
        None => Box::new(Finder::new(opts.record)),
    };
    let outcome = solve_with(state, opts, &mut finder, &check);
    SPARE.with(|s| *s.borrow_mut() = Some(finder));
    outcome
}

thread_local! {
    /// The finder of the last [`solve`] on each thread.
    static SPARE: std::cell::RefCell<Option<Box<Finder>>> = const { std::cell::RefCell::new(None) };
}

/// [`solve`] with the finder given, and `check` before every step.
fn solve_with<C: Check>(
    mut state: Candidates,
    opts: &Options,
    finder: &mut Finder,
    check: &C,
) -> Result<Outcome, C::Error> {
    let mut step = Step::default();
    let mut hardest: Option<Technique> = None;
    let mut rating = Rating(0);
    let mut steps = Vec::new();
    let mut step_count = 0;
    let mut assumed_unique = false;
    let status = loop {
        if state.is_solved() {
            break Status::Solved;
        }
        check.check()?;
        if !finder.find(&state, &mut step, opts.max_rating, opts.techniques) {
            break match state.contradiction() {
                Some(c) => Status::Contradiction(c),
                None => Status::Stuck,
            };
        }
        let t = step.technique();
        assumed_unique |= matches!(t, Technique::UniqueRectangle | Technique::Bug);
        if step.rating > rating || hardest.is_none() {
            if step.rating >= rating {
                hardest = Some(t);
            }
            rating = rating.max(step.rating);
        }
        if let Err(c) = apply(&mut state, &step) {
            break Status::Contradiction(c);
        }
        if t.is_single_batch() {
            step_count += step.placements.len();
            if opts.record {
                for (i, p) in step.placements.iter().enumerate() {
                    let mut one = Step::default();
                    one.start(t);
                    one.placements.push(*p);
                    one.houses.push(step.houses.get(i).copied().unwrap_or(0));
                    one.cells.push(p.cell);
                    one.digits = tables::digit_bit(p.digit);
                    one.highlights.push(*p);
                    steps.push(one);
                }
            }
        } else {
            step_count += 1;
            if opts.record {
                steps.push(step.clone());
            }
        }
    };
    Ok(Outcome {
        status,
        hardest,
        rating,
        step_count,
        steps,
        state,
        assumed_unique,
    })
}

/// The next logical step from a state: the easiest technique that makes progress, explained. `None` when the
/// grid is solved, or stuck (only guessing is left), or contradictory.
pub fn hint(state: &Candidates) -> Option<Step> {
    if state.is_solved() || state.contradiction().is_some() {
        return None;
    }
    let mut step = Step::default();
    if !find_step(state, &mut step, Rating(u8::MAX), TechniqueSet::ALL) {
        return None;
    }
    if step.technique().is_single_batch() {
        // One single at a time: the first one found.
        step.placements.truncate(1);
        step.houses.truncate(1);
        if let Some(p) = step.placements.first().copied() {
            step.cells = vec![p.cell];
            step.digits = tables::digit_bit(p.digit);
            step.highlights = vec![p];
        }
    }
    Some(step)
}

impl Technique {
    /// Whether the solver applies this technique in batches (all instances seen at once): the singles.
    pub const fn is_single_batch(self) -> bool {
        matches!(
            self,
            Technique::FullHouse
                | Technique::HiddenSingleBox
                | Technique::HiddenSingleLine
                | Technique::NakedSingle
        )
    }
}
