//! Techniques, ratings and the steps the logical solver takes.

use std::fmt;

use super::tables::{Digits, cell_name, house_name};

/// A difficulty rating in tenths, on the Sudoku Explainer scale (`Rating(23)` is 2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rating(pub u8);

impl Rating {
    /// The rating as a number (2.3 for `Rating(23)`).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// The human solving techniques, in the order the rater tries them (easiest first).
///
/// The base ratings follow Sudoku Explainer 1.2.1 ("SE"). A "direct" technique is one whose eliminations leave a
/// hidden single at once; SE rates those below the plain technique, and so does this rater.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// The last empty cell of a row, column or box (SE 1.0).
    FullHouse,
    /// A digit with one place left in a box (SE 1.2).
    HiddenSingleBox,
    /// A digit with one place left in a row or column (SE 1.5).
    HiddenSingleLine,
    /// Pointing whose eliminations leave a hidden single in another box (SE 1.7).
    DirectPointing,
    /// Claiming whose eliminations leave a hidden single in another row or column (SE 1.9).
    DirectClaiming,
    /// A hidden pair whose eliminations leave a hidden single in the same house (SE 2.0).
    DirectHiddenPair,
    /// A cell with one candidate left (SE 2.3).
    NakedSingle,
    /// A hidden triple whose eliminations leave a hidden single in the same house (SE 2.5).
    DirectHiddenTriple,
    /// A digit confined to one row or column within a box (SE 2.6).
    Pointing,
    /// A digit confined to one box within a row or column (SE 2.8).
    Claiming,
    /// Two cells of a house holding the same two candidates only (SE 3.0).
    NakedPair,
    /// Basic fish of size 2 (SE 3.2).
    XWing,
    /// Two digits confined to the same two cells of a house (SE 3.4).
    HiddenPair,
    /// Three cells of a house holding three candidates between them (SE 3.6).
    NakedTriple,
    /// Basic fish of size 3 (SE 3.8).
    Swordfish,
    /// Three digits confined to the same three cells of a house (SE 4.0).
    HiddenTriple,
    /// Two parallel strong links on one digit whose ends are joined by a weak link (SE 4.0).
    Skyscraper,
    /// A row strong link and a column strong link on one digit joined through a box (SE 4.1).
    TwoStringKite,
    /// A box strong link and a line or box strong link on one digit joined by a weak link (SE 4.1).
    TurbotFish,
    /// Two strong links on one digit joined by a weak link, at least one of them grouped: a box whose places lie on
    /// one row and one column (an empty rectangle) or in two of its rows or columns, or a line whose places lie in
    /// two boxes (SE 4.3).
    GroupedTurbotFish,
    /// A bivalue pivot with two bivalue pincers (SE 4.2).
    XYWing,
    /// A trivalue pivot with two bivalue pincers (SE 4.4).
    XYZWing,
    /// A unique rectangle or loop, types 1 to 4: a pattern that would give two solutions is avoided (SE 4.5 plus
    /// the loop's length and the size of a type 3 set).
    UniqueRectangle,
    /// Four cells of a house holding four candidates between them (SE 5.0).
    NakedQuad,
    /// Basic fish of size 4 (SE 5.2).
    Jellyfish,
    /// Four digits confined to the same four cells of a house (SE 5.4).
    HiddenQuad,
    /// Three strong links on one digit joined end to end by weak links, a chain or a loop (SE 5.4, plus 0.1 for a
    /// box and 0.1 for both a row and a column among the links, or 0.3 when a link is grouped).
    ThreeStrongLinks,
    /// An almost locked set of three cells and a bivalue cell sharing a restricted digit (SE 5.5 or 5.6).
    WXYZWing,
    /// Bivalue universal grave, types 1 to 4: all but a few candidates would form a pattern with two solutions
    /// (SE 5.6 for type 1, 5.7 and up for the others).
    Bug,
    /// As three strong links, with four (SE 5.8 to 6.1).
    FourStrongLinks,
    /// As WXYZ-Wing with a set of four cells (SE 6.2 to 6.4).
    VWXYZWing,
    /// Two cells whose pairs of digits are tested against the bivalue cells both see (SE 6.2).
    AlignedPairExclusion,
    /// As WXYZ-Wing with a set of five cells (SE 6.6).
    UVWXYZWing,
    /// A loop of strong and weak links on one digit (SE "bidirectional X-cycle", 6.5 plus length).
    XCycle,
    /// A loop through bivalue cells (SE "bidirectional Y-cycle", 6.5 plus length).
    YCycle,
    /// A chain of one digit from a candidate to its own negation (SE "forcing X-chain", 6.6 plus length).
    XChain,
    /// A loop mixing links within cells and within houses (SE "bidirectional cycle", 7.0 plus length).
    MixedCycle,
    /// A chain mixing links within cells and within houses, from a candidate to its own negation (SE 7.0 plus
    /// length).
    ForcingChain,
    /// As WXYZ-Wing with a set of six cells (SE 7.5).
    TUVWXYZWing,
    /// A digit assumed in (or out of) a cell leads to a contradiction through that digit's places alone, the
    /// eliminations made along the way counting (SE 7.5 plus length).
    NishioForcingChain,
    /// Every candidate of one cell forces the same conclusion (SE 8.0 plus length).
    CellForcingChains,
    /// Every place of a digit in a house forces the same conclusion (SE 8.0 plus length).
    RegionForcingChains,
    /// Forcing chains whose implications count the eliminations made along the way: a contradiction, or the same
    /// conclusion from both values of a candidate, all values of a cell or all places of a digit (SE 8.5 plus
    /// length).
    DynamicForcingChains,
    /// Dynamic forcing chains that also use locked candidates, pairs and X-wings along the way (SE 9.0 plus
    /// length).
    DynamicForcingChainsPlus,
}

/// All techniques, easiest first.
pub const TECHNIQUES: [Technique; 44] = [
    Technique::FullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::DirectPointing,
    Technique::DirectClaiming,
    Technique::DirectHiddenPair,
    Technique::NakedSingle,
    Technique::DirectHiddenTriple,
    Technique::Pointing,
    Technique::Claiming,
    Technique::NakedPair,
    Technique::XWing,
    Technique::HiddenPair,
    Technique::NakedTriple,
    Technique::Swordfish,
    Technique::HiddenTriple,
    Technique::Skyscraper,
    Technique::TwoStringKite,
    Technique::TurbotFish,
    Technique::GroupedTurbotFish,
    Technique::XYWing,
    Technique::XYZWing,
    Technique::UniqueRectangle,
    Technique::NakedQuad,
    Technique::Jellyfish,
    Technique::HiddenQuad,
    Technique::ThreeStrongLinks,
    Technique::WXYZWing,
    Technique::Bug,
    Technique::FourStrongLinks,
    Technique::VWXYZWing,
    Technique::AlignedPairExclusion,
    Technique::UVWXYZWing,
    Technique::XCycle,
    Technique::YCycle,
    Technique::XChain,
    Technique::MixedCycle,
    Technique::ForcingChain,
    Technique::TUVWXYZWing,
    Technique::NishioForcingChain,
    Technique::CellForcingChains,
    Technique::RegionForcingChains,
    Technique::DynamicForcingChains,
    Technique::DynamicForcingChainsPlus,
];

impl Technique {
    /// The base rating (chains add a length bonus on top).
    pub const fn base_rating(self) -> Rating {
        use Technique::*;
        Rating(match self {
            FullHouse => 10,
            HiddenSingleBox => 12,
            HiddenSingleLine => 15,
            DirectPointing => 17,
            DirectClaiming => 19,
            DirectHiddenPair => 20,
            NakedSingle => 23,
            DirectHiddenTriple => 25,
            Pointing => 26,
            Claiming => 28,
            NakedPair => 30,
            XWing => 32,
            HiddenPair => 34,
            NakedTriple => 36,
            Swordfish => 38,
            HiddenTriple => 40,
            Skyscraper => 40,
            TwoStringKite => 41,
            TurbotFish => 41,
            GroupedTurbotFish => 43,
            XYWing => 42,
            XYZWing => 44,
            UniqueRectangle => 45,
            NakedQuad => 50,
            Jellyfish => 52,
            HiddenQuad => 54,
            ThreeStrongLinks => 54,
            FourStrongLinks => 58,
            WXYZWing => 55,
            Bug => 56,
            VWXYZWing => 62,
            AlignedPairExclusion => 62,
            UVWXYZWing => 66,
            XCycle => 65,
            YCycle => 65,
            XChain => 66,
            MixedCycle => 70,
            ForcingChain => 70,
            TUVWXYZWing => 75,
            NishioForcingChain => 75,
            CellForcingChains => 80,
            RegionForcingChains => 80,
            DynamicForcingChains => 85,
            DynamicForcingChainsPlus => 90,
        })
    }

    /// The technique's name, as used in explanations ("Hidden single").
    pub const fn name(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "Full house",
            HiddenSingleBox | HiddenSingleLine => "Hidden single",
            DirectPointing => "Direct pointing",
            DirectClaiming => "Direct claiming",
            DirectHiddenPair => "Direct hidden pair",
            NakedSingle => "Naked single",
            DirectHiddenTriple => "Direct hidden triple",
            Pointing => "Pointing",
            Claiming => "Claiming",
            NakedPair => "Naked pair",
            XWing => "X-Wing",
            HiddenPair => "Hidden pair",
            NakedTriple => "Naked triple",
            Swordfish => "Swordfish",
            HiddenTriple => "Hidden triple",
            Skyscraper => "Skyscraper",
            TwoStringKite => "2-String Kite",
            TurbotFish => "Turbot fish",
            GroupedTurbotFish => "Grouped turbot fish",
            ThreeStrongLinks => "Three strong links",
            FourStrongLinks => "Four strong links",
            XYWing => "XY-Wing",
            XYZWing => "XYZ-Wing",
            UniqueRectangle => "Unique rectangle",
            NakedQuad => "Naked quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "Hidden quad",
            WXYZWing => "WXYZ-Wing",
            VWXYZWing => "VWXYZ-Wing",
            UVWXYZWing => "UVWXYZ-Wing",
            TUVWXYZWing => "TUVWXYZ-Wing",
            Bug => "BUG",
            AlignedPairExclusion => "Aligned pair exclusion",
            XCycle => "X-cycle",
            YCycle => "Y-cycle",
            XChain => "X-chain",
            MixedCycle => "Mixed cycle",
            ForcingChain => "Forcing chain",
            NishioForcingChain => "Nishio forcing chain",
            CellForcingChains => "Cell forcing chains",
            RegionForcingChains => "Region forcing chains",
            DynamicForcingChains => "Dynamic forcing chains",
            DynamicForcingChainsPlus => "Dynamic forcing chains (+)",
        }
    }

    /// A stable identifier for machine-readable output (`hidden_single_box`).
    pub const fn id(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "full_house",
            HiddenSingleBox => "hidden_single_box",
            HiddenSingleLine => "hidden_single_line",
            DirectPointing => "direct_pointing",
            DirectClaiming => "direct_claiming",
            DirectHiddenPair => "direct_hidden_pair",
            NakedSingle => "naked_single",
            DirectHiddenTriple => "direct_hidden_triple",
            Pointing => "pointing",
            Claiming => "claiming",
            NakedPair => "naked_pair",
            XWing => "x_wing",
            HiddenPair => "hidden_pair",
            NakedTriple => "naked_triple",
            Swordfish => "swordfish",
            HiddenTriple => "hidden_triple",
            Skyscraper => "skyscraper",
            TwoStringKite => "two_string_kite",
            TurbotFish => "turbot_fish",
            GroupedTurbotFish => "grouped_turbot_fish",
            ThreeStrongLinks => "three_strong_links",
            FourStrongLinks => "four_strong_links",
            XYWing => "xy_wing",
            XYZWing => "xyz_wing",
            UniqueRectangle => "unique_rectangle",
            NakedQuad => "naked_quad",
            Jellyfish => "jellyfish",
            HiddenQuad => "hidden_quad",
            WXYZWing => "wxyz_wing",
            VWXYZWing => "vwxyz_wing",
            UVWXYZWing => "uvwxyz_wing",
            TUVWXYZWing => "tuvwxyz_wing",
            Bug => "bug",
            AlignedPairExclusion => "aligned_pair_exclusion",
            XCycle => "x_cycle",
            YCycle => "y_cycle",
            XChain => "x_chain",
            MixedCycle => "mixed_cycle",
            ForcingChain => "forcing_chain",
            NishioForcingChain => "nishio_forcing_chain",
            CellForcingChains => "cell_forcing_chains",
            RegionForcingChains => "region_forcing_chains",
            DynamicForcingChains => "dynamic_forcing_chains",
            DynamicForcingChainsPlus => "dynamic_forcing_chains_plus",
        }
    }

    /// Whether every step of the technique is rated its base rating: not a chain (rated by length), a unique
    /// loop (by size and type), a BUG (by type) or a wing whose rating depends on its cells.
    pub const fn has_fixed_rating(self) -> bool {
        use Technique::*;
        !self.is_chain()
            && !matches!(
                self,
                UniqueRectangle | Bug | WXYZWing | VWXYZWing | ThreeStrongLinks | FourStrongLinks
            )
    }

    /// Whether the technique is a chain (its rating grows with the chain's length).
    pub const fn is_chain(self) -> bool {
        use Technique::*;
        matches!(
            self,
            XCycle
                | YCycle
                | XChain
                | MixedCycle
                | ForcingChain
                | NishioForcingChain
                | CellForcingChains
                | RegionForcingChains
                | DynamicForcingChains
                | DynamicForcingChainsPlus
        )
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of techniques (bit `t as u8` for technique `t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TechniqueSet(pub u64);

impl TechniqueSet {
    /// Every technique.
    pub const ALL: TechniqueSet = TechniqueSet((1u64 << TECHNIQUES.len()) - 1);
    /// No technique.
    pub const EMPTY: TechniqueSet = TechniqueSet(0);
    /// Full house, hidden singles and naked singles.
    pub const SINGLES: TechniqueSet = TechniqueSet::EMPTY
        .with(Technique::FullHouse)
        .with(Technique::HiddenSingleBox)
        .with(Technique::HiddenSingleLine)
        .with(Technique::NakedSingle);

    /// This set plus `t`.
    pub const fn with(self, t: Technique) -> Self {
        TechniqueSet(self.0 | 1u64 << t as u8)
    }

    /// Whether `t` is in the set.
    pub const fn contains(self, t: Technique) -> bool {
        self.0 & (1u64 << t as u8) != 0
    }

    /// The techniques rated at most `max`.
    pub fn up_to(max: Rating) -> Self {
        let mut s = Self::EMPTY;
        for t in TECHNIQUES {
            if t.base_rating() <= max {
                s = s.with(t);
            }
        }
        s
    }
}

impl Default for TechniqueSet {
    fn default() -> Self {
        Self::ALL
    }
}

/// One candidate: a digit in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// The cell, `0..81` row by row.
    pub cell: u8,
    /// The digit, `1..=9`.
    pub digit: u8,
}

impl Candidate {
    /// The candidate `digit` in `cell`.
    pub fn new(cell: usize, digit: u8) -> Self {
        Self {
            cell: cell as u8,
            digit,
        }
    }
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            cell_name(usize::from(self.cell)),
            digit_suffix(self.digit)
        )
    }
}

fn digit_suffix(d: u8) -> String {
    format!("#{d}")
}

/// One node of a chain: a candidate assumed true (`on`) or false.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChainNode {
    /// The candidate.
    pub candidate: Candidate,
    /// Whether the candidate is true at this point of the chain.
    pub on: bool,
}

impl fmt::Display for ChainNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = usize::from(self.candidate.cell);
        if self.on {
            write!(f, "{}={}", cell_name(c), self.candidate.digit)
        } else {
            write!(f, "{}<>{}", cell_name(c), self.candidate.digit)
        }
    }
}

/// One logical step: what was seen, and what it places or eliminates.
///
/// The fields other than `technique`, `rating`, `placements` and `eliminations` describe the pattern, for
/// explanation and highlighting; their meaning per technique:
/// - singles: `houses[0]` is the house of a hidden single or full house;
/// - locked candidates: `houses` = [the house the digit is confined in, the crossing house], `cells` = the
///   confining cells, and for the direct forms `houses[2]` is where the hidden single appears;
/// - naked and hidden subsets: `houses[0]`, `cells` = the subset's cells, `digits` = its digits;
/// - fish: `houses` = the base lines then the cover lines, `cells` = the fish cells;
/// - wings: `cells` = the pivot then the pincers, `digits` = the eliminated digit;
/// - strong-link chains (turbot fish to four strong links): `houses` = the links' houses in chain order (the
///   first one again at the end for a loop), `chain` = the cells of each link's two sides in chain order, the
///   first side's `off`, the second's `on` (a side of several cells is a group), `cells` the same cells;
/// - chains: `chain` = the chain nodes, in order of implication (for cell and region forcing chains, the branches
///   one after the other, each starting with an `on` node);
/// - `highlights` are the candidates the pattern is made of.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Step {
    /// The technique.
    pub technique: Option<Technique>,
    /// The step's rating (the technique's base rating, plus a length bonus for chains).
    pub rating: Rating,
    /// Digits placed.
    pub placements: Vec<Candidate>,
    /// Candidates removed.
    pub eliminations: Vec<Candidate>,
    /// The cells of the pattern (see the type's documentation).
    pub cells: Vec<u8>,
    /// The houses of the pattern (see the type's documentation).
    pub houses: Vec<u8>,
    /// The digits of the pattern (bit `d - 1` for digit `d`).
    pub digits: u16,
    /// The candidates the pattern is made of, for highlighting.
    pub highlights: Vec<Candidate>,
    /// The chain, for chain techniques.
    pub chain: Vec<ChainNode>,
    /// The type of a unique rectangle or loop, or of a BUG (1 to 4); 0 for the other techniques.
    pub kind: u8,
}

impl Step {
    /// Reset to an empty step, keeping the allocations.
    pub fn clear(&mut self) {
        self.technique = None;
        self.rating = Rating(0);
        self.placements.clear();
        self.eliminations.clear();
        self.cells.clear();
        self.houses.clear();
        self.digits = 0;
        self.highlights.clear();
        self.chain.clear();
        self.kind = 0;
    }

    /// Start a step of technique `t` at its base rating.
    pub(crate) fn start(&mut self, t: Technique) {
        self.clear();
        self.technique = Some(t);
        self.rating = t.base_rating();
    }

    /// The technique, or [`Technique::FullHouse`] for a step never filled in.
    pub fn technique(&self) -> Technique {
        self.technique.unwrap_or(Technique::FullHouse)
    }
}

fn cells_list(cells: impl IntoIterator<Item = usize>) -> String {
    let v: Vec<String> = cells.into_iter().map(cell_name).collect();
    join_and(&v)
}

fn join_and(v: &[String]) -> String {
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

fn digits_list(mask: u16) -> String {
    let v: Vec<String> = Digits(mask).map(|d| d.to_string()).collect();
    join_and(&v)
}

/// Eliminations grouped by digit: "7 from r1c2, r1c3; 8 from r4c4".
fn eliminations_text(el: &[Candidate]) -> String {
    let mut by_digit: Vec<(u8, Vec<usize>)> = Vec::new();
    for e in el {
        match by_digit.iter_mut().find(|(d, _)| *d == e.digit) {
            Some((_, v)) => v.push(usize::from(e.cell)),
            None => by_digit.push((e.digit, vec![usize::from(e.cell)])),
        }
    }
    by_digit.sort_by_key(|(d, _)| *d);
    let parts: Vec<String> = by_digit
        .into_iter()
        .map(|(d, cells)| {
            format!(
                "{d} from {}",
                cells
                    .iter()
                    .map(|&c| cell_name(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    parts.join("; ")
}

/// Eliminations grouped by cell: "r1c2 loses 3, 5; r2c2 loses 9".
fn eliminations_by_cell(el: &[Candidate]) -> String {
    let mut by_cell: Vec<(u8, u16)> = Vec::new();
    for e in el {
        match by_cell.iter_mut().find(|(c, _)| *c == e.cell) {
            Some((_, m)) => *m |= 1 << (e.digit - 1),
            None => by_cell.push((e.cell, 1 << (e.digit - 1))),
        }
    }
    let parts: Vec<String> = by_cell
        .into_iter()
        .map(|(c, m)| format!("{} loses {}", cell_name(usize::from(c)), digits_list(m)))
        .collect();
    parts.join("; ")
}

/// The branches of a multiple forcing chain, as "a -> b -> c" texts: the chain holds the branches one after the
/// other, each ending with the common conclusion.
fn branch_texts(chain: &[ChainNode]) -> Vec<String> {
    let Some(&target) = chain.last() else {
        return Vec::new();
    };
    chain
        .split_inclusive(|n| *n == target)
        .map(|b| {
            b.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" -> ")
        })
        .collect()
}

impl fmt::Display for Step {
    /// The step in one sentence, e.g. "Hidden single: 7 can only go in r4c2 within box 4".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Technique::*;
        let t = self.technique();
        let name = t.name();
        let house = |i: usize| {
            self.houses
                .get(i)
                .map_or_else(String::new, |&h| house_name(usize::from(h)))
        };
        let placed = self.placements.first().copied();
        let pcell = placed.map_or_else(String::new, |p| cell_name(usize::from(p.cell)));
        let pdigit = placed.map_or(0, |p| p.digit);
        let elim = eliminations_text(&self.eliminations);
        let cells = cells_list(self.cells.iter().map(|&c| usize::from(c)));
        let digits = digits_list(self.digits);
        match t {
            FullHouse => write!(
                f,
                "{name}: {pcell} is the last empty cell in {}, so it is {pdigit}",
                house(0)
            ),
            HiddenSingleBox | HiddenSingleLine => {
                write!(
                    f,
                    "{name}: {pdigit} can only go in {pcell} within {}",
                    house(0)
                )
            }
            NakedSingle => write!(f, "{name}: {pcell} can only be {pdigit}"),
            DirectPointing | DirectClaiming => write!(
                f,
                "{name}: in {}, {digits} can only go in {} ({cells}), so {} is the only place for {pdigit} in {}",
                house(0),
                house(1),
                pcell,
                house(2)
            ),
            DirectHiddenPair | DirectHiddenTriple => write!(
                f,
                "{name}: in {}, {digits} can only go in {cells}, so {pcell} is the only place left for {pdigit}",
                house(0)
            ),
            Pointing | Claiming => write!(
                f,
                "{name}: in {}, {digits} can only go in {} ({cells}), which removes {elim}",
                house(0),
                house(1)
            ),
            NakedPair | NakedTriple | NakedQuad => write!(
                f,
                "{name}: in {}, {cells} hold only {digits} between them, which removes {elim}",
                house(0)
            ),
            HiddenPair | HiddenTriple | HiddenQuad => write!(
                f,
                "{name}: in {}, {digits} can only go in {cells}, so {}",
                house(0),
                eliminations_by_cell(&self.eliminations)
            ),
            XWing | Swordfish | Jellyfish => {
                let n = self.houses.len() / 2;
                let base: Vec<String> = self.houses[..n]
                    .iter()
                    .map(|&h| house_name(usize::from(h)))
                    .collect();
                let cover: Vec<String> = self.houses[n..]
                    .iter()
                    .map(|&h| house_name(usize::from(h)))
                    .collect();
                write!(
                    f,
                    "{name}: in {}, {digits} can only go in {}, which removes {elim}",
                    join_and(&base),
                    join_and(&cover)
                )
            }
            Skyscraper | TwoStringKite | TurbotFish | GroupedTurbotFish | ThreeStrongLinks
            | FourStrongLinks => {
                // The chain's sides, in order: each a run of nodes of the same polarity.
                let mut sides: Vec<Vec<String>> = Vec::new();
                let mut last = None;
                for n in &self.chain {
                    if last != Some(n.on) {
                        sides.push(Vec::new());
                        last = Some(n.on);
                    }
                    if let Some(side) = sides.last_mut() {
                        side.push(cell_name(usize::from(n.candidate.cell)));
                    }
                }
                let side = |i: usize| sides.get(i).map_or_else(String::new, |v| v.join("/"));
                let links = sides.len() / 2;
                let strong: Vec<String> = (0..links)
                    .map(|i| format!("in {} or {} ({})", side(2 * i), side(2 * i + 1), house(i)))
                    .collect();
                let mut weak: Vec<String> = (1..links)
                    .map(|i| format!("{} sees {}", side(2 * i - 1), side(2 * i)))
                    .collect();
                let ring = self.houses.len() > links;
                if ring {
                    weak.push(format!("{} sees {}", side(2 * links - 1), side(0)));
                    write!(
                        f,
                        "{name}: {digits} is {}; {}: a loop, so each of these pairs holds {digits} once, which \
                         removes {elim}",
                        join_and(&strong),
                        join_and(&weak)
                    )
                } else {
                    write!(
                        f,
                        "{name}: {digits} is {}; {}, so {digits} is in {} or {}, which removes {elim}",
                        join_and(&strong),
                        join_and(&weak),
                        side(0),
                        side(2 * links - 1)
                    )
                }
            }
            XYWing | XYZWing => {
                let pivot = self
                    .cells
                    .first()
                    .map_or_else(String::new, |&c| cell_name(usize::from(c)));
                let pincers = cells_list(self.cells.iter().skip(1).map(|&c| usize::from(c)));
                write!(
                    f,
                    "{name}: whichever digit pivot {pivot} takes, pincers {pincers} leave {digits} in one of them, which \
                     removes {elim}"
                )
            }
            XCycle | YCycle | MixedCycle => {
                let loop_text: Vec<String> = self.chain.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "{name}: {} closes a loop, so one of its two alternate colourings is true either way, which \
                     removes {elim}",
                    loop_text.join(" -> ")
                )
            }
            XChain | ForcingChain => {
                let first = self.chain.first().copied();
                let rest: Vec<String> =
                    self.chain.iter().skip(1).map(ToString::to_string).collect();
                let (cell, digit, on) = first.map_or((String::new(), 0, true), |n| {
                    (
                        cell_name(usize::from(n.candidate.cell)),
                        n.candidate.digit,
                        n.on,
                    )
                });
                let assume = if on {
                    format!("{cell} were {digit}")
                } else {
                    format!("{cell} were not {digit}")
                };
                let conclusion = if on {
                    format!("{cell} is not {digit}")
                } else {
                    format!("{cell} is {digit}")
                };
                write!(
                    f,
                    "{name}: if {assume}, then {}, a contradiction, so {conclusion}",
                    rest.join(" -> ")
                )
            }
            UniqueRectangle => {
                let shape = if self.cells.len() == 4 {
                    format!("type {}", self.kind)
                } else {
                    format!("a loop of {} cells, type {}", self.cells.len(), self.kind)
                };
                let why = match self.kind {
                    1 => "only one of its cells holds other digits, so that cell cannot be either".to_string(),
                    2 => "the cells holding other digits hold one more digit, which must be in one of them".to_string(),
                    3 => format!(
                        "the other digits of two of its cells form a set with more cells of {}",
                        house(0)
                    ),
                    _ => format!(
                        "in {}, one of {digits} can only go in two of its cells, so the other cannot be there",
                        house(0)
                    ),
                };
                write!(
                    f,
                    "{name} ({shape}): {cells} would hold only {digits} (two solutions), and {why}, which removes \
                     {elim}"
                )
            }
            Bug => {
                let why = match self.kind {
                    1 => format!("{cells} must keep {digits}"),
                    2 => format!("{digits} is in one of {cells}"),
                    3 => format!(
                        "the extra digits of {cells} form a naked set with other cells of {}",
                        house(0)
                    ),
                    _ => format!(
                        "{cells} share {} and one of them holds its extra digit",
                        house(0)
                    ),
                };
                write!(
                    f,
                    "{name} (type {}): without the extra digits {digits} of {cells}, every cell would hold two \
                     candidates and every digit two places in each house (two solutions), so {why}, which removes {elim}",
                    self.kind
                )
            }
            WXYZWing | VWXYZWing | UVWXYZWing | TUVWXYZWing => {
                let n = self.cells.len().saturating_sub(1);
                let als = cells_list(self.cells.iter().take(n).map(|&c| usize::from(c)));
                let pair = self
                    .cells
                    .get(n)
                    .map_or_else(String::new, |&c| cell_name(usize::from(c)));
                write!(
                    f,
                    "{name}: {als} hold {} digits between them ({digits}) and {pair} two of them; whichever way they \
                     fall, one of the pair's digits is locked, which removes {elim}",
                    n + 1
                )
            }
            AlignedPairExclusion => write!(
                f,
                "{name}: every way to fill {cells} together would empty a cell they all see, or repeat a digit, \
                 except ways without {elim}, which removes them"
            ),
            NishioForcingChain | DynamicForcingChains | DynamicForcingChainsPlus => {
                let first = self.chain.first().copied();
                let start = first.map_or_else(String::new, |n| n.to_string());
                let branches: Vec<String> = branch_texts(&self.chain);
                let conclusion = match placed {
                    Some(p) => format!("{} is {}", cell_name(usize::from(p.cell)), p.digit),
                    None => format!("it removes {elim}"),
                };
                match self.kind {
                    1 | 2 => {
                        // Both chains start from the assumption.
                        let mut parts: Vec<String> = Vec::new();
                        for (i, n) in self.chain.iter().enumerate() {
                            if i == 0 || Some(*n) == first {
                                parts.push(n.to_string());
                            } else if let Some(last) = parts.last_mut() {
                                last.push_str(" -> ");
                                last.push_str(&n.to_string());
                            }
                        }
                        write!(
                            f,
                            "{name}: {start} leads to a contradiction ({}), so {conclusion}",
                            parts.join("; ")
                        )
                    }
                    3 => write!(
                        f,
                        "{name}: whether {start} or not, the same follows ({}), so {conclusion}",
                        branches.join("; ")
                    ),
                    4 => write!(
                        f,
                        "{name}: whichever digit {cells} takes ({digits}), the same follows ({}), so {conclusion}",
                        branches.join("; ")
                    ),
                    _ => write!(
                        f,
                        "{name}: wherever {digits} goes in {} ({cells}), the same follows ({}), so {conclusion}",
                        house(0),
                        branches.join("; ")
                    ),
                }
            }
            CellForcingChains | RegionForcingChains => {
                let what = if t == CellForcingChains {
                    format!("whichever digit {cells} takes ({digits})")
                } else {
                    format!("wherever {digits} goes in {} ({cells})", house(0))
                };
                let branches: Vec<String> = branch_texts(&self.chain);
                let conclusion = match placed {
                    Some(p) => format!("{} is {}", cell_name(usize::from(p.cell)), p.digit),
                    None => format!("it removes {elim}"),
                };
                write!(
                    f,
                    "{name}: {what}, the same follows ({}), so {conclusion}",
                    branches.join("; ")
                )
            }
        }
    }
}
